import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { createIsomorphicCanvasFactory } from 'unpdf';
import { openPdf } from './pdf-open';
import type { PageBox } from './types';

/** A PDF page drawn as an image, for an OCR model to read. */
export interface PageImage {
  /** 1-based. */
  page: number;
  /** JPEG. */
  image: Uint8Array;
  width: number;
  height: number;
}

/**
 * The long side of a drawn page, in pixels: about 190 dpi on A4 or Letter, what OCR models read well
 * (Mistral's OCR answers pages of 1,700 × 2,200) without making each request megabytes.
 */
export const PAGE_IMAGE_LONG_SIDE = 2000;
const JPEG_QUALITY = 85;

interface DrawingSurface {
  canvas: EncodableCanvas;
  context: unknown;
}
interface EncodableCanvas {
  encode(format: 'jpeg', quality: number): Promise<Uint8Array>;
}

/** The drawing library (@napi-rs/canvas: prebuilt, no system library, no download), loaded when first drawn with. */
export const drawingModule = () => import('@napi-rs/canvas');

/** A drawn page as the JPEG an OCR model is sent. */
export const encodePageImage = (canvas: EncodableCanvas): Promise<Uint8Array> =>
  canvas.encode('jpeg', JPEG_QUALITY);

/**
 * What to draw of a PDF: a whole page (1-based), or a picture on it (where it is shown, and its own size
 * in pixels: it is drawn at that size, at most `PAGE_IMAGE_LONG_SIDE` on its long side).
 */
export type PdfDrawing = { page: number; box?: never } | { page: number; box: PageBox; pixels: Size };
type Size = { width: number; height: number };

/**
 * Draws PDF pages, or pictures on them, as JPEG images with pdf.js over @napi-rs/canvas (prebuilt, no
 * system library, no download); a page out of range is skipped. Runs in a parser thread (pool.ts), one
 * at a time. Answers each with the number it was asked at (a page's own number, a picture's place in
 * the list from 1).
 */
export async function renderPdfPages(
  data: Uint8Array,
  drawings: readonly PdfDrawing[],
): Promise<PageImage[]> {
  const CanvasFactory = await createIsomorphicCanvasFactory(drawingModule);
  const pdf = await openPdf(data, { CanvasFactory });
  const factory = new (
    CanvasFactory as unknown as new (options: object) => {
      create(width: number, height: number): DrawingSurface;
    }
  )({});
  try {
    const images: PageImage[] = [];
    for (const [i, drawing] of drawings.entries()) {
      const n = drawing.page;
      if (!Number.isInteger(n) || n < 1 || n > pdf.numPages) continue;
      const page = await pdf.getPage(n);
      const shown = page.getViewport({ scale: 1 });
      const box = drawing.box ?? { x: 0, y: 0, width: 1, height: 1 };
      const long = Math.max(box.width * shown.width, box.height * shown.height, 1);
      // A page: 2,000 pixels on its long side. A picture: at its own size, never past that.
      const scale = drawing.box
        ? Math.min(pixelsPerPoint(drawing.pixels, box, shown), PAGE_IMAGE_LONG_SIDE / long)
        : PAGE_IMAGE_LONG_SIDE / long;
      const viewport = page.getViewport({
        scale,
        offsetX: -box.x * shown.width * scale,
        offsetY: -box.y * shown.height * scale,
      });
      const width = pixelsOf(box.width * shown.width * scale);
      const height = pixelsOf(box.height * shown.height * scale);
      const surface = factory.create(width, height);
      await page.render({ canvas: surface.canvas, canvasContext: surface.context, viewport } as never)
        .promise;
      images.push({
        page: drawing.box ? i + 1 : n,
        image: await encodePageImage(surface.canvas),
        width,
        height,
      });
      page.cleanup();
      await yieldToLoop();
    }
    return images;
  } finally {
    await pdf.destroy();
  }
}

/** Whole pixels covering a length (rounding noise, 300.0000001, adds none). */
const pixelsOf = (length: number) => Math.max(1, Math.ceil(length - 1e-6));

/** How many of a picture's own pixels it shows per point of the page (the larger of its two sides'). */
const pixelsPerPoint = (pixels: Size, box: PageBox, shown: Size) =>
  Math.max(pixels.width / (box.width * shown.width), pixels.height / (box.height * shown.height));
