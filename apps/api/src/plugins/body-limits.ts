import type { ImageLimits } from '../env';
import { AppError } from '../services/errors';

/**
 * Request body limits, sized to what each route needs. Fastify enforces a route's `bodyLimit` while
 * the body streams in (and at once from Content-Length), so an over-limit body answers 413 before it
 * is buffered or parsed. Routes that set nothing get BODY_LIMIT_BYTES (64 KiB: forms, names, profiles,
 * credentials, titles).
 */

/** A page view: a name (100) and a path (500). */
export const PAGE_VIEW_BODY_LIMIT = 4 * 1024;

/** A flow configuration (up to 2,000 nodes) or a simple assistant's instruction (100,000 characters). */
export const CONFIG_BODY_LIMIT = 1024 * 1024;

/** The text of a chat message with its history, a model call's prompt, a run's plain inputs. */
export const TEXT_BODY_LIMIT = 1024 * 1024;

/** Room for a data: URL's header (`data:image/webp;base64,`) and the JSON around it. */
const DATA_URL_OVERHEAD = 256;

/** Characters of a base64 data: URL carrying `bytes` bytes. */
export const dataUrlLength = (bytes: number) => Math.ceil(bytes / 3) * 4 + DATA_URL_OVERHEAD;

/**
 * A body that carries images or files: the text budget plus `maxCount` data: URLs of `maxBytes` each.
 * With the defaults (4 images of 5 MiB) that is 1 MiB + 4 × 6.67 MiB ≈ 27.7 MiB.
 */
export const uploadBodyLimit = (images: ImageLimits, text = TEXT_BODY_LIMIT) =>
  text + images.maxCount * dataUrlLength(images.maxBytes);

const megabytes = (bytes: number) => Number((bytes / (1024 * 1024)).toFixed(2));

/**
 * The per-image limits within the body limit: at most `maxCount` images, each at most `maxBytes` once
 * decoded (http(s) URLs count towards the number only). 422 too_many_images, 413 image_too_large.
 */
export function assertImageLimits(urls: readonly string[], images: ImageLimits): void {
  if (urls.length > images.maxCount) {
    throw new AppError(
      422,
      'too_many_images',
      `A request may carry at most ${images.maxCount} images; this one has ${urls.length}.`,
    );
  }
  const longest = dataUrlLength(images.maxBytes);
  if (urls.some((url) => url.startsWith('data:') && url.length > longest)) {
    throw new AppError(413, 'image_too_large', `Each image may be at most ${megabytes(images.maxBytes)} MB.`);
  }
}
