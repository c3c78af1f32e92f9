import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { createIsomorphicCanvasFactory, getDocumentProxy } from 'unpdf';
import { unreadable } from './errors';

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
 * Draws PDF pages as JPEG images with pdf.js over @napi-rs/canvas (prebuilt, no system library, no
 * download). Runs in a parser thread (pool.ts), one page at a time.
 */
export async function renderPdfPages(data: Uint8Array, pages: readonly number[]): Promise<PageImage[]> {
  const CanvasFactory = await createIsomorphicCanvasFactory(drawingModule);
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), {
      CanvasFactory,
      isEvalSupported: false,
      stopAtErrors: false,
      verbosity: 0,
    } as Parameters<typeof getDocumentProxy>[1]);
  } catch (err) {
    throw unreadable(`not a readable PDF (${err instanceof Error ? err.message : String(err)})`, err);
  }
  const factory = new (
    CanvasFactory as unknown as new (options: object) => {
      create(width: number, height: number): DrawingSurface;
    }
  )({});
  try {
    const images: PageImage[] = [];
    for (const n of pages) {
      if (!Number.isInteger(n) || n < 1 || n > pdf.numPages) continue;
      const page = await pdf.getPage(n);
      const unscaled = page.getViewport({ scale: 1 });
      const viewport = page.getViewport({
        scale: PAGE_IMAGE_LONG_SIDE / Math.max(unscaled.width, unscaled.height, 1),
      });
      const width = Math.ceil(viewport.width);
      const height = Math.ceil(viewport.height);
      const surface = factory.create(width, height);
      await page.render({ canvas: surface.canvas, canvasContext: surface.context, viewport } as never)
        .promise;
      images.push({ page: n, image: await encodePageImage(surface.canvas), width, height });
      page.cleanup();
      await yieldToLoop();
    }
    return images;
  } finally {
    await pdf.destroy();
  }
}
