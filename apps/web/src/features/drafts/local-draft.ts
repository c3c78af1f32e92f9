/**
 * Unsaved edits kept in this browser (one room for every editor: the simple chatbot page and the flow
 * editors), so a closed tab, a crash or a "Leave" loses nothing.
 */
export interface Draft<T> {
  savedAt: string;
  value: T;
}

/** The same JSON whatever the order of object keys (a database's jsonb reorders them). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

export const sameValue = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/** Drafts under one key prefix: `${prefix}:${id}` in localStorage. */
export function draftStore<T>(prefix: string) {
  const key = (id: string) => `${prefix}:${id}`;
  return {
    write(id: string, value: T): void {
      try {
        const draft: Draft<T> = { savedAt: new Date().toISOString(), value };
        localStorage.setItem(key(id), JSON.stringify(draft));
      } catch {
        // Storage full or disabled: the draft is a convenience, the server copy stays the truth.
      }
    },
    read(id: string): Draft<T> | null {
      try {
        const raw = localStorage.getItem(key(id));
        if (!raw) return null;
        const draft = JSON.parse(raw) as Partial<Draft<T>>;
        return typeof draft.savedAt === 'string' && draft.value !== undefined ? (draft as Draft<T>) : null;
      } catch {
        return null;
      }
    },
    clear(id: string): void {
      try {
        localStorage.removeItem(key(id));
      } catch {
        // nothing to do
      }
    },
  };
}

export type DraftStore<T> = ReturnType<typeof draftStore<T>>;

/**
 * A draft worth offering when the editor opens: one that holds something else than what the server
 * has. A draft equal to the saved copy is stale (saved meanwhile) and is dropped.
 */
export function draftToOffer<T>(
  store: DraftStore<T>,
  id: string,
  saved: T,
  differs: (draft: T, saved: T) => boolean = (a, b) => !sameValue(a, b),
): Draft<T> | null {
  const draft = store.read(id);
  if (!draft) return null;
  if (!differs(draft.value, saved)) {
    store.clear(id);
    return null;
  }
  return draft;
}

/**
 * Writes the draft a second after the last change. A save within that second drops the pending write
 * (`changed(null)`): a draft left behind would offer to restore what was saved. Leaving the editor
 * flushes it, so the last second of edits is kept too; so does the page going away or out of sight
 * (`flushWhenHidden`), because a reload, a closed tab or a full navigation unmounts nothing, and a
 * route change can leave the editor mounted while the next page's code loads.
 */
export function draftWriter<T>(write: (value: T) => void, delayMs = 1000) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: (() => T) | null = null;
  const flush = () => {
    clearTimeout(timer);
    if (pending) write(pending());
    pending = null;
  };
  return {
    /** The edits now: how to read the unsaved value, or null when everything is saved. */
    changed(value: (() => T) | null) {
      clearTimeout(timer);
      pending = value;
      if (pending) timer = setTimeout(flush, delayMs);
    },
    flush,
    /** Flushes on `pagehide` and when the page is hidden; answers the function that stops it. */
    flushWhenHidden(target: Window = window): () => void {
      const onHidden = () => {
        if (target.document.visibilityState === 'hidden') flush();
      };
      target.addEventListener('pagehide', flush);
      target.document.addEventListener('visibilitychange', onHidden);
      return () => {
        target.removeEventListener('pagehide', flush);
        target.document.removeEventListener('visibilitychange', onHidden);
      };
    },
  };
}
