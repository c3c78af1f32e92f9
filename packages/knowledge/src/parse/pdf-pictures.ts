import { getResolvedPDFJS } from 'unpdf';
import type { PdfDocument } from './pdf-open';
import { worthReading } from './pictures';
import type { DocumentPicture, PageBox } from './types';

type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;
type Matrix = readonly [number, number, number, number, number, number];
export type PdfPicture = Extract<DocumentPicture, { page: number }>;

/**
 * A picture shown smaller than this on a side, in points (72 to the inch), is a logo or a decoration:
 * a screenshot of a table or a pasted scan is far larger.
 */
const MIN_SHOWN_POINTS = 50;

/**
 * A page whose pictures cover this much of it is a scan (or text laid on a full-page picture). With less
 * text than `STAMP_CHARS` (a stamped "Page 3", a scanner's name, a Bates number) it is a scan to read
 * whole; with more, the text is the scan's own OCR layer (a "searchable" PDF), and nothing on it is read
 * again. A page without text is a scan too.
 */
const SCAN_COVER = 0.8;
const STAMP_CHARS = 200;

/** How much of each PDF page its pictures cover (their areas added up, at most 1), by page, in one pass. */
export function pictureCovers(pictures: readonly DocumentPicture[]): Map<number, number> {
  const covers = new Map<number, number>();
  for (const p of pictures) {
    if (p.page === undefined || !p.box) continue;
    covers.set(p.page, Math.min(1, (covers.get(p.page) ?? 0) + p.box.width * p.box.height));
  }
  return covers;
}

/** What a PDF page is, from its characters of text and how much of it its pictures cover (above). */
export function pageKind(chars: number, cover: number): 'scan' | 'searchable scan' | 'typed' {
  if (chars === 0 || (cover >= SCAN_COVER && chars < STAMP_CHARS)) return 'scan';
  return cover >= SCAN_COVER ? 'searchable scan' : 'typed';
}

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** `m` then `n`, as a canvas composes transforms (pdf.js's Util.transform). */
const compose = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];

const isMatrix = (value: unknown): value is Matrix =>
  typeof value === 'object' && value !== null && (value as { length?: number }).length === 6;

/** What an image-painting operation paints: its object id (for an XObject) and its own size in pixels. */
function paintedImage(
  OPS: Record<string, number>,
  fn: number,
  args: unknown[],
): { id?: string; width: number; height: number } | undefined {
  if (fn === OPS.paintImageXObject) {
    const [id, width, height] = args as [string, number, number];
    return { id, width, height };
  }
  if (fn === OPS.paintInlineImageXObject || fn === OPS.paintImageMaskXObject) {
    const image = args[0] as { width?: number; height?: number } | undefined;
    if (typeof image?.width === 'number' && typeof image.height === 'number') {
      return { width: image.width, height: image.height };
    }
  }
  return undefined;
}

/**
 * The pictures a PDF page shows that are worth an OCR model's reading, in drawing order: where each is
 * shown (the page's drawing list walked with its transforms: saved states, forms and groups) and its own
 * size, neither an icon nor a small logo (`worthReading`, and 50 points a side as shown). A picture drawn
 * on several pages (a letterhead) counts once, on its first (`seen` is kept across the pages). The page's
 * annotations are left out. Getting the drawing list decodes the page's images, hence only asked for when
 * an OCR model will read them.
 */
export async function picturesOnPage(
  page: PdfPage,
  pageNumber: number,
  seen: Set<string>,
): Promise<PdfPicture[]> {
  const { OPS, AnnotationMode } = await getResolvedPDFJS();
  const list = await page.getOperatorList({ annotationMode: AnnotationMode.DISABLE });
  const viewport = page.getViewport({ scale: 1 });
  const found: PdfPicture[] = [];
  const onPage = new Set<string>();
  const states: Matrix[] = [];
  let ctm = IDENTITY;
  for (let i = 0; i < list.fnArray.length; i++) {
    const fn = list.fnArray[i]!;
    const args = (list.argsArray[i] ?? []) as unknown[];
    if (fn === OPS.save) states.push(ctm);
    else if (fn === OPS.restore || fn === OPS.paintFormXObjectEnd || fn === OPS.endGroup) {
      ctm = states.pop() ?? IDENTITY;
    } else if (fn === OPS.transform && isMatrix(args)) ctm = compose(ctm, args);
    else if (fn === OPS.paintFormXObjectBegin || fn === OPS.beginGroup) {
      // A form's matrix is its first argument; a transparency group's is in its description.
      states.push(ctm);
      const matrix = fn === OPS.beginGroup ? (args[0] as { matrix?: unknown })?.matrix : args[0];
      if (isMatrix(matrix)) ctm = compose(ctm, matrix);
    } else {
      const image = paintedImage(OPS, fn, args);
      if (!image || !worthReading(image.width, image.height)) continue;
      // An image fills the unit square of the current transform: its corners, on the page as shown.
      const corners = [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ].map(([x, y]) =>
        viewport.convertToViewportPoint(
          ctm[0] * x! + ctm[2] * y! + ctm[4],
          ctm[1] * x! + ctm[3] * y! + ctm[5],
        ),
      );
      const box = clampedBox(corners, viewport.width, viewport.height);
      if (!box || Math.min(box.width * viewport.width, box.height * viewport.height) < MIN_SHOWN_POINTS) {
        continue;
      }
      if (image.id !== undefined) {
        // pdf.js names an image drawn on several pages `g_…` (its document-wide cache), others per page.
        const key = image.id.startsWith('g_') ? image.id : `${pageNumber}:${image.id}`;
        if (seen.has(key) || onPage.has(key)) continue;
        (image.id.startsWith('g_') ? seen : onPage).add(key);
      }
      found.push({ page: pageNumber, box, pixels: { width: image.width, height: image.height } });
    }
  }
  return found;
}

/** The box around the points within the page, as fractions of it; none when it is off the page. */
function clampedBox(points: number[][], width: number, height: number): PageBox | undefined {
  const xs = points.map((p) => Math.min(Math.max(p[0]!, 0), width));
  const ys = points.map((p) => Math.min(Math.max(p[1]!, 0), height));
  const x0 = Math.min(...xs);
  const y0 = Math.min(...ys);
  const x1 = Math.max(...xs);
  const y1 = Math.max(...ys);
  if (x1 <= x0 || y1 <= y0 || width <= 0 || height <= 0) return undefined;
  return { x: x0 / width, y: y0 / height, width: (x1 - x0) / width, height: (y1 - y0) / height };
}
