import type { ChatError } from './errors';
import { isValidImage } from './input-fields';

/** How many images one chat message may carry. */
export const MAX_IMAGES = 4;

export interface AttachedImage {
  id: string;
  name: string;
  /** A data: URL, sent as the image part's url. */
  url: string;
}

/**
 * Which of the chosen files may be attached: only images (jpeg, png, gif, webp), and no more than
 * the limit counting those already attached. Each refusal comes with its message.
 */
export function checkImages(
  files: readonly File[],
  alreadyAttached: number,
  limit = MAX_IMAGES,
): { accepted: File[]; errors: ChatError[] } {
  const errors: ChatError[] = [];
  const images: File[] = [];
  for (const file of files) {
    if (isValidImage(file)) images.push(file);
    else errors.push({ key: 'chatPage.errors.notImage', params: { file: file.name } });
  }
  const room = Math.max(0, limit - alreadyAttached);
  if (images.length > room) errors.push({ key: 'chatPage.errors.maxImages', params: { limit } });
  return { accepted: images.slice(0, room), errors };
}

export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

let counter = 0;
export async function attach(files: readonly File[]): Promise<AttachedImage[]> {
  return Promise.all(
    files.map(async (file) => ({ id: `img-${++counter}`, name: file.name, url: await readAsDataUrl(file) })),
  );
}

/** A file the browser could not read (removed, unreadable): the spec's 'Failed to process image'. */
export const PROCESS_IMAGE_ERROR: ChatError = { key: 'chatPage.errors.processImage' };

/** Reads each file on its own: the readable ones are attached, each unreadable one gives an error. */
export async function attachReadable(
  files: readonly File[],
): Promise<{ attached: AttachedImage[]; errors: ChatError[] }> {
  const results = await Promise.allSettled(files.map((file) => attach([file])));
  return {
    attached: results.flatMap((r) => (r.status === 'fulfilled' ? r.value : [])),
    errors: results.flatMap((r) => (r.status === 'rejected' ? [PROCESS_IMAGE_ERROR] : [])),
  };
}
