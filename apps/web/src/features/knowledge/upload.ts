import type { SkippedFile, UploadDocumentsAnswer } from '@atelier/schemas';
import {
  ARCHIVE_EXTENSIONS,
  KNOWLEDGE_EXTENSIONS,
  KNOWLEDGE_LIMITS,
  REFUSED_FORMATS,
} from '@atelier/schemas/constants';
import { create } from 'zustand';

/** The file endings an upload takes: the document types a collection ingests, and archives (a .zip, taken as a folder). */
export const ACCEPTED_EXTENSIONS = [...Object.keys(KNOWLEDGE_EXTENSIONS), ...ARCHIVE_EXTENSIONS];

/**
 * A file to send and the name its document gets: its path in a folder that was picked or dropped
 * (`policies/2024/leave.pdf`), else its own name.
 */
export interface UploadItem {
  file: File;
  name: string;
}

/** A picked file as an upload: a picked folder's files carry their path in it (`webkitRelativePath`). */
export const asItem = (file: File): UploadItem => ({ file, name: file.webkitRelativePath || file.name });

/** The most files one folder may bring at once (a home folder dropped by mistake is not sent). */
export const MAX_FOLDER_FILES = 500;

/** Why a file is refused: a type not ingested (`saveAs`: the format to save an old one as first), or its size. */
export type Rejection = { reason: 'type'; saveAs?: string } | { reason: 'size' };

/** Splits picked or dropped files into those to send and those refused, with why. */
export function checkFiles(items: readonly UploadItem[]): {
  accepted: UploadItem[];
  rejected: (UploadItem & Rejection)[];
} {
  const accepted: UploadItem[] = [];
  const rejected: (UploadItem & Rejection)[] = [];
  for (const item of items) {
    const name = item.name.toLowerCase();
    if (!ACCEPTED_EXTENSIONS.some((ext) => name.endsWith(ext))) {
      const refused = Object.entries(REFUSED_FORMATS).find(([ext]) => name.endsWith(ext))?.[1];
      rejected.push(
        refused ? { ...item, reason: 'type', saveAs: refused.saveAs } : { ...item, reason: 'type' },
      );
    } else if (item.file.size > KNOWLEDGE_LIMITS.maxDocumentBytes) rejected.push({ ...item, reason: 'size' });
    else accepted.push(item);
  }
  return { accepted, rejected };
}

/** The share sent, 0 to 1; unknown totals count as nothing sent yet. */
export const fractionOf = (loaded: number, total: number) =>
  total > 0 ? Math.min(1, Math.max(0, loaded / total)) : 0;

export interface UploadAnswer {
  status: number;
  body: unknown;
  /** A 429's `Retry-After`, in seconds. */
  retryAfter?: number;
}

export interface XhrLike {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: FormData): void;
  abort(): void;
  status: number;
  responseText: string;
  getResponseHeader(name: string): string | null;
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

/**
 * One multipart POST (one `file` part per file, named as its document will be) through XMLHttpRequest,
 * so that the bytes sent can be shown.
 */
export function sendFiles(options: {
  url: string;
  files: readonly UploadItem[];
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
      const retryAfter = Number(xhr.getResponseHeader('retry-after'));
      resolve({ status: xhr.status, body, ...(retryAfter > 0 ? { retryAfter } : {}) });
    };
    xhr.onerror = () => reject(new Error('Failed to communicate with the server'));
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    const form = new FormData();
    for (const item of options.files) form.append('file', item.file, item.name);
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

/** An upload the API turned away for its rate limit: send it again after `seconds`. */
export class RateLimited extends Error {
  constructor(
    readonly seconds: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Uploads files to a collection in one request; a 401 refreshes the session once and sends again.
 * Answers the documents the API queued and the files of archives it left out, or throws with the API's
 * detail (`RateLimited` for a 429).
 */
export async function uploadFiles(
  deps: UploadDeps,
  collectionId: string,
  files: readonly UploadItem[],
  onProgress: (fractions: number[]) => void,
): Promise<UploadDocumentsAnswer> {
  const url = `${deps.baseUrl}/rag_collections/${encodeURIComponent(collectionId)}/documents`;
  const sizes = files.map((f) => f.file.size);
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
    const message = typeof detail === 'string' ? detail : `Upload failed (${answer.status})`;
    if (answer.status === 429) throw new RateLimited(answer.retryAfter ?? DEFAULT_WAIT_SECONDS, message);
    throw new Error(message);
  }
  const body = answer.body as Partial<UploadDocumentsAnswer> | null;
  return { documents: body?.documents ?? [], skipped: body?.skipped ?? [] };
}

export interface UploadEntry {
  key: string;
  collectionId: string;
  name: string;
  size: number;
  /** 0 to 1 of the bytes sent. */
  progress: number;
  /** `waiting`: turned away by the API's rate limit, sent again in a moment. */
  status: 'uploading' | 'waiting' | 'done' | 'failed';
  error: string | null;
}

interface UploadState {
  uploads: UploadEntry[];
  start(entry: Omit<UploadEntry, 'progress' | 'status' | 'error'>): void;
  progress(key: string, fraction: number): void;
  wait(key: string): void;
  finish(key: string, error?: string): void;
  dismiss(key: string): void;
}

/** Files being sent, per collection; done ones leave once the documents list shows them. */
export const useUploads = create<UploadState>()((set, get) => ({
  uploads: [],
  start: (entry) =>
    set({ uploads: [...get().uploads, { ...entry, progress: 0, status: 'uploading', error: null }] }),
  progress: (key, fraction) =>
    set({
      uploads: get().uploads.map((u) =>
        u.key === key ? { ...u, progress: fraction, status: 'uploading' } : u,
      ),
    }),
  wait: (key) =>
    set({
      uploads: get().uploads.map((u) => (u.key === key ? { ...u, progress: 0, status: 'waiting' } : u)),
    }),
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
/** A 429 without `Retry-After` is sent again after this long. */
const DEFAULT_WAIT_SECONDS = 10;
/** A request turned away by the rate limit more often than this fails. */
const MAX_WAITS = 10;

const pause = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/**
 * Sends files in requests of up to 20 (the API's limit; one request each, so a large drop stays within the
 * per-user rate limit), one after the other, tracking each file in the upload store; a request the rate
 * limit turns away waits as the API says and is sent again (a folder of hundreds of files gets through).
 * Calls onDone after each request that succeeded, with the files of its archives (.zip) the API left out.
 */
export async function uploadAll(
  deps: UploadDeps,
  collectionId: string,
  files: readonly UploadItem[],
  onDone: (skipped: SkippedFile[]) => void,
  wait: (seconds: number) => Promise<unknown> = pause,
): Promise<void> {
  const entries = files.map((item) => ({ item, key: `u${++counter}` }));
  for (const { item, key } of entries) {
    useUploads.getState().start({ key, collectionId, name: item.name, size: item.file.size });
  }
  const store = () => useUploads.getState();
  for (let i = 0; i < entries.length; i += KNOWLEDGE_LIMITS.maxFilesPerUpload) {
    const batch = entries.slice(i, i + KNOWLEDGE_LIMITS.maxFilesPerUpload);
    for (let waits = 0; ; waits++) {
      try {
        const { skipped } = await uploadFiles(
          deps,
          collectionId,
          batch.map((e) => e.item),
          (fractions) => batch.forEach((e, j) => store().progress(e.key, fractions[j] ?? 0)),
        );
        for (const { key } of batch) {
          store().finish(key);
          // The documents list shows it from now on.
          setTimeout(() => store().dismiss(key), DONE_LINGER_MS);
        }
        onDone(skipped);
      } catch (error) {
        if (error instanceof RateLimited && waits < MAX_WAITS) {
          for (const { key } of batch) store().wait(key);
          await wait(error.seconds);
          continue;
        }
        for (const { key } of batch) store().finish(key, (error as Error).message || 'Unknown error');
      }
      break;
    }
  }
}
