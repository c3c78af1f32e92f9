import type { RagDocument } from '@atelier/schemas';
import { KNOWLEDGE_EXTENSIONS, KNOWLEDGE_LIMITS, LEGACY_FORMATS } from '@atelier/schemas/constants';
import { create } from 'zustand';

/** The file endings a collection ingests (its document types). */
export const ACCEPTED_EXTENSIONS = Object.keys(KNOWLEDGE_EXTENSIONS);

/** Why a file is refused: a type not ingested (`saveAs`: the format to save an old one as first), or its size. */
export type Rejection = { reason: 'type'; saveAs?: string } | { reason: 'size' };

/** Splits picked or dropped files into those to send and those refused, with why. */
export function checkFiles(files: readonly File[]): {
  accepted: File[];
  rejected: ({ file: File } & Rejection)[];
} {
  const accepted: File[] = [];
  const rejected: ({ file: File } & Rejection)[] = [];
  for (const file of files) {
    const name = file.name.toLowerCase();
    const legacy = Object.entries(LEGACY_FORMATS).find(([ext]) => name.endsWith(ext))?.[1];
    if (!ACCEPTED_EXTENSIONS.some((ext) => name.endsWith(ext)))
      rejected.push(legacy ? { file, reason: 'type', saveAs: legacy.saveAs } : { file, reason: 'type' });
    else if (file.size > KNOWLEDGE_LIMITS.maxDocumentBytes) rejected.push({ file, reason: 'size' });
    else accepted.push(file);
  }
  return { accepted, rejected };
}

/** The share sent, 0 to 1; unknown totals count as nothing sent yet. */
export const fractionOf = (loaded: number, total: number) =>
  total > 0 ? Math.min(1, Math.max(0, loaded / total)) : 0;

export interface UploadAnswer {
  status: number;
  body: unknown;
}

export interface XhrLike {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: FormData): void;
  abort(): void;
  status: number;
  responseText: string;
  upload: { onprogress: ((event: { loaded: number; total: number }) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
}

/**
 * Each file's share sent, from the request's bytes sent: the parts go out one after the other, so the
 * bytes are laid over the files in order (the multipart framing spread evenly).
 */
export function perFileProgress(sizes: readonly number[], loaded: number, total: number): number[] {
  const sum = sizes.reduce((a, b) => a + b, 0);
  const sent = fractionOf(loaded, total) * sum;
  let offset = 0;
  return sizes.map((size) => {
    const share = size > 0 ? Math.min(1, Math.max(0, (sent - offset) / size)) : sent >= offset ? 1 : 0;
    offset += size;
    return share;
  });
}

/** One multipart POST (one `file` part per file) through XMLHttpRequest, so that the bytes sent can be shown. */
export function sendFiles(options: {
  url: string;
  files: readonly File[];
  token: string | null;
  onProgress(loaded: number, total: number): void;
  xhr?: () => XhrLike;
}): Promise<UploadAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = options.xhr ? options.xhr() : (new XMLHttpRequest() as unknown as XhrLike);
    xhr.open('POST', options.url);
    if (options.token) xhr.setRequestHeader('authorization', `Bearer ${options.token}`);
    xhr.upload.onprogress = (event) => options.onProgress(event.loaded, event.total);
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new Error('Failed to communicate with the server'));
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    const form = new FormData();
    for (const file of options.files) form.append('file', file, file.name);
    xhr.send(form);
  });
}

export interface UploadDeps {
  baseUrl: string;
  token(): string | null;
  /** The API client's one shared token refresh. */
  refresh(): Promise<void>;
  xhr?: () => XhrLike;
}

/**
 * Uploads files to a collection in one request; a 401 refreshes the session once and sends again.
 * Answers the documents the API queued, or throws with the API's detail.
 */
export async function uploadFiles(
  deps: UploadDeps,
  collectionId: string,
  files: readonly File[],
  onProgress: (fractions: number[]) => void,
): Promise<RagDocument[]> {
  const url = `${deps.baseUrl}/rag_collections/${encodeURIComponent(collectionId)}/documents`;
  const sizes = files.map((f) => f.size);
  const send = () =>
    sendFiles({
      url,
      files,
      token: deps.token(),
      onProgress: (loaded, total) => onProgress(perFileProgress(sizes, loaded, total)),
      ...(deps.xhr ? { xhr: deps.xhr } : {}),
    });
  let answer = await send();
  if (answer.status === 401) {
    await deps.refresh();
    onProgress(sizes.map(() => 0));
    answer = await send();
  }
  if (answer.status < 200 || answer.status >= 300) {
    const detail = (answer.body as { detail?: unknown } | null)?.detail;
    throw new Error(typeof detail === 'string' ? detail : `Upload failed (${answer.status})`);
  }
  return (answer.body as { documents?: RagDocument[] } | null)?.documents ?? [];
}

export interface UploadEntry {
  key: string;
  collectionId: string;
  name: string;
  size: number;
  /** 0 to 1 of the bytes sent. */
  progress: number;
  status: 'uploading' | 'done' | 'failed';
  error: string | null;
}

interface UploadState {
  uploads: UploadEntry[];
  start(entry: Omit<UploadEntry, 'progress' | 'status' | 'error'>): void;
  progress(key: string, fraction: number): void;
  finish(key: string, error?: string): void;
  dismiss(key: string): void;
}

/** Files being sent, per collection; done ones leave once the documents list shows them. */
export const useUploads = create<UploadState>()((set, get) => ({
  uploads: [],
  start: (entry) =>
    set({ uploads: [...get().uploads, { ...entry, progress: 0, status: 'uploading', error: null }] }),
  progress: (key, fraction) =>
    set({ uploads: get().uploads.map((u) => (u.key === key ? { ...u, progress: fraction } : u)) }),
  finish: (key, error) =>
    set({
      uploads: get().uploads.map((u) =>
        u.key === key
          ? {
              ...u,
              progress: error ? u.progress : 1,
              status: error ? 'failed' : 'done',
              error: error ?? null,
            }
          : u,
      ),
    }),
  dismiss: (key) => set({ uploads: get().uploads.filter((u) => u.key !== key) }),
}));

let counter = 0;
const DONE_LINGER_MS = 2500;

/**
 * Sends files in requests of up to 20 (the API's limit; one request each, so a large drop stays within the
 * per-user rate limit), one after the other, tracking each file in the upload store; calls onDone after
 * each request that succeeded.
 */
export async function uploadAll(
  deps: UploadDeps,
  collectionId: string,
  files: readonly File[],
  onDone: () => void,
): Promise<void> {
  const entries = files.map((file) => ({ file, key: `u${++counter}` }));
  for (const { file, key } of entries) {
    useUploads.getState().start({ key, collectionId, name: file.name, size: file.size });
  }
  for (let i = 0; i < entries.length; i += KNOWLEDGE_LIMITS.maxFilesPerUpload) {
    const batch = entries.slice(i, i + KNOWLEDGE_LIMITS.maxFilesPerUpload);
    const store = () => useUploads.getState();
    try {
      await uploadFiles(
        deps,
        collectionId,
        batch.map((e) => e.file),
        (fractions) => batch.forEach((e, j) => store().progress(e.key, fractions[j] ?? 0)),
      );
      for (const { key } of batch) {
        store().finish(key);
        // The documents list shows it from now on.
        setTimeout(() => store().dismiss(key), DONE_LINGER_MS);
      }
      onDone();
    } catch (error) {
      for (const { key } of batch) store().finish(key, (error as Error).message || 'Unknown error');
    }
  }
}
