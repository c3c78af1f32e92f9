import { posix } from 'node:path';
import { drawImage, readableSize } from './image';
import type { PageImage } from './pdf-render';
import type { DocumentPicture } from './types';
import { elementsOf, parseXml } from './xml';
import type { ZipArchive } from './zip';

/**
 * A picture smaller than this on a side, or of fewer pixels, is an icon, a bullet or a logo: not worth
 * an OCR call. A screenshot or a pasted scan is far larger.
 */
const MIN_PICTURE_SIDE = 100;
const MIN_PICTURE_PIXELS = 40_000;

/** Whether a picture of this size in pixels is worth an OCR call: neither an icon nor a bullet. */
export const worthReading = (width: number, height: number) =>
  Math.min(width, height) >= MIN_PICTURE_SIDE && width * height >= MIN_PICTURE_PIXELS;

/** A part name from a reference in `from`: relative to its folder, or from the package root (`/…`). */
export const partOf = (from: string, target: string) =>
  target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join(posix.dirname(from), target));

/** An OOXML part's relationships: id → type and target part. */
export type Relationships = Map<string, { type: string; part: string }>;

/** An OOXML part's relationships (`_rels/<name>.rels`): id → type and target part; external ones left out. */
export async function relationshipsOf(zip: ZipArchive, part: string): Promise<Relationships> {
  const rels = await zip.readText(posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`));
  if (!rels) return new Map();
  return new Map(
    elementsOf(parseXml(rels), 'Relationship')
      .filter((r) => r.Id && r.Target && r.TargetMode !== 'External')
      .map((r) => [r.Id!, { type: r.Type ?? '', part: partOf(part, r.Target!) }]),
  );
}

/**
 * The pictures a DrawingML part (a Word body, a slide) shows, as parts, in order: each `a:blip`'s
 * `r:embed` relationship. A regular expression, as a Word body may be megabytes of XML.
 */
export function drawnPictures(xml: string, rels: Relationships): string[] {
  return [...xml.matchAll(/<a:blip\b[^>]*?\br:embed="([^"]+)"/g)]
    .map((m) => rels.get(m[1]!)?.part)
    .filter((part): part is string => part !== undefined);
}

/**
 * The pictures of a document worth an OCR model's reading, in document order: each part once (a logo on
 * every slide counts at its first), a format the OCR path draws (PNG, JPEG, WebP, GIF: not a Word
 * drawing's EMF), neither an icon nor past the pixel limit, from its header alone.
 */
export async function readablePictures(
  read: (part: string) => Promise<Uint8Array | undefined>,
  refs: readonly { part: string; slide?: number; sheet?: string }[],
): Promise<DocumentPicture[]> {
  const seen = new Set<string>();
  const found: DocumentPicture[] = [];
  for (const ref of refs) {
    if (seen.has(ref.part)) continue;
    seen.add(ref.part);
    const data = await read(ref.part);
    const size = data && readableSize(data);
    if (!size || !worthReading(size.width, size.height)) continue;
    found.push({
      part: ref.part,
      ...(ref.slide === undefined ? {} : { slide: ref.slide }),
      ...(ref.sheet === undefined ? {} : { sheet: ref.sheet }),
    });
  }
  return found;
}

/**
 * Draws a document's pictures (its parts) as an image document is drawn for OCR (image.ts); answers
 * them numbered from 1 in the order asked. A picture that cannot be decoded is left out.
 */
export async function drawPictures(zip: ZipArchive, parts: readonly string[]): Promise<PageImage[]> {
  const images: PageImage[] = [];
  for (const [i, part] of parts.entries()) {
    const data = await zip.read(part);
    if (!data) continue;
    const drawn = await drawImage(data).catch(() => undefined);
    if (drawn) images.push({ ...drawn, page: i + 1 });
  }
  return images;
}
