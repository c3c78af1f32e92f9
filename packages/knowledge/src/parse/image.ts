import { KNOWLEDGE_LIMITS } from '@atelier/schemas/constants';
import { imageSize } from 'image-size';
import { tooLarge, unreadable, unsupported } from './errors';
import { drawingModule, encodePageImage, PAGE_IMAGE_LONG_SIDE, type PageImage } from './pdf-render';
import type { FormatParser } from './types';

/** The image formats read (what the drawing library decodes), by image-size's name for them. */
const READ_FORMATS = new Set(['png', 'jpg', 'webp', 'gif']);

interface ImageHeader {
  /** As shown: an EXIF orientation that turns the picture a quarter is applied. */
  width: number;
  height: number;
}

/**
 * An image's size from its header alone (image-size), before anything is decoded: a picture of more
 * than `KNOWLEDGE_LIMITS.maxImagePixels` is refused, so a small file claiming a huge picture never
 * reaches the decoder. Other formats (HEIC, TIFF, BMP…) are refused with advice.
 */
function readHeader(data: Uint8Array): ImageHeader {
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(data);
  } catch (err) {
    throw unreadable(`not a readable image (${err instanceof Error ? err.message : String(err)})`, err);
  }
  if (!size.type || !READ_FORMATS.has(size.type)) {
    throw unsupported(
      `${(size.type ?? 'this').toUpperCase()} images are not read; save it as PNG or JPEG (PNG, JPEG, WebP and GIF are read)`,
    );
  }
  if (!size.width || !size.height) throw unreadable('the image has no size');
  if (size.width * size.height > KNOWLEDGE_LIMITS.maxImagePixels) {
    throw tooLarge(
      `the image is ${size.width} × ${size.height} pixels, more than the ${KNOWLEDGE_LIMITS.maxImagePixels / 1_000_000} megapixels read; make it smaller`,
    );
  }
  // EXIF orientations 5 to 8 turn the picture a quarter: its shown width is its stored height.
  const turned = (size.orientation ?? 1) >= 5;
  return turned ? { width: size.height, height: size.width } : { width: size.width, height: size.height };
}

/** A picture's size when it is one the OCR path reads (a format drawn, within the pixel limit); else undefined. */
export function readableSize(data: Uint8Array): ImageHeader | undefined {
  try {
    return readHeader(data);
  } catch {
    return undefined;
  }
}

/**
 * An image document (a photographed or scanned page, a screenshot): no text of its own, one "page" for
 * the collection's OCR model to read, as a scanned PDF page is (ingest/ocr-pages.ts).
 */
export const parseImage: FormatParser = async ({ data }) => {
  const { width, height } = readHeader(data);
  return { text: '', pages: [''], metadata: { bytes: data.byteLength, width, height } };
};

/**
 * Draws an image as a scanned page is drawn for OCR: a JPEG at most `PAGE_IMAGE_LONG_SIDE` pixels on its
 * long side (never enlarged), turned as its EXIF orientation says, transparency over white. What the
 * model reads is then the same whatever was uploaded, and a photo's EXIF data (its place) is not sent.
 */
export async function drawImage(data: Uint8Array): Promise<PageImage> {
  const { width, height } = readHeader(data);
  const { Image, createCanvas } = await drawingModule();
  const image = new Image();
  let failed: unknown;
  image.onerror = (err: unknown) => {
    failed = err;
  };
  image.src = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (failed || image.width === 0) throw unreadable('the image cannot be decoded', failed);
  const scale = Math.min(1, PAGE_IMAGE_LONG_SIDE / Math.max(width, height));
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const canvas = createCanvas(w, h);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, w, h);
  // The drawing library applies the EXIF orientation when drawing (not to the width it reports).
  context.drawImage(image, 0, 0, w, h);
  return { page: 1, image: await encodePageImage(canvas), width: w, height: h };
}
