import { zipSync } from 'fflate';
import mammoth from 'mammoth';
import { unreadable } from './errors';
import { htmlToText } from './html';
import type { DocumentSection, FormatParser } from './types';
import { drawnPictures, readablePictures, relationshipsOf, type Relationships } from './pictures';
import { elementsOf, firstText, paragraphsOf, parseXml, tidy, type TextRules } from './xml';
import { ZipArchive } from './zip';

/** `dc:title` from an OOXML core-properties or ODF meta part, when there is one. */
export async function titleFrom(zip: ZipArchive, part: string): Promise<string | undefined> {
  const xml = await zip.readText(part);
  const title = xml && firstText(parseXml(xml), 'dc:title')?.trim();
  return title || undefined;
}

/**
 * The archive for a library that inflates it itself: a copy rebuilt from the entries (`readAll`,
 * inflated within the zip-bomb limits), stored without compression.
 */
export function checkedCopy(entries: Record<string, Uint8Array>): ArrayBuffer {
  const copy = zipSync(entries, { level: 0 });
  // fflate makes the archive in a buffer of its own size; a slice otherwise.
  const whole = copy.byteOffset === 0 && copy.byteLength === copy.buffer.byteLength;
  return whole ? (copy.buffer as ArrayBuffer) : copy.slice().buffer;
}

/** Images are not text: mammoth is told to write none (it would inline each one as base64). */
const NO_IMAGES = mammoth.images.imgElement(async () => ({ src: '' }));

/**
 * DOCX with mammoth, handed the archive's checked copy (mammoth inflates with JSZip): its HTML (headings,
 * lists, tables) read as every HTML is (html.ts), so a table keeps its rows (`Plan | Price`) where raw
 * text gave each cell as a paragraph.
 */
export const parseDocx: FormatParser = async ({ data, limits }) => {
  const zip = ZipArchive.open(data, limits);
  if (!zip.has('word/document.xml')) throw unreadable('DOCX without word/document.xml');
  const entries = await zip.readAll();
  const result = await mammoth.convertToHtml(
    { buffer: Buffer.from(checkedCopy(entries)) },
    { convertImage: NO_IMAGES },
  );
  const body = new TextDecoder().decode(entries['word/document.xml']);
  const pictures = await readablePictures(
    async (part) => entries[part],
    drawnPictures(body, await relationshipsOf(zip, 'word/document.xml')).map((part) => ({ part })),
  );
  const paragraphs = htmlToText(result.value)
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean);
  const title = await titleFrom(zip, 'docProps/core.xml');
  const warnings = result.messages.slice(0, 5).map((m) => m.message);
  return {
    text: paragraphs.join('\n\n'),
    sections: paragraphs.map((text) => ({ text })),
    ...(pictures.length ? { pictures } : {}),
    metadata: {
      ...(title ? { title } : {}),
      paragraphs: paragraphs.length,
      bytes: data.byteLength,
      ...(warnings.length ? { warnings } : {}),
    },
  };
};

const PPTX_TEXT: TextRules = {
  paragraphs: new Set(['a:p']),
  inline: { 'a:br': () => '\n', 'a:tab': () => '\t' },
  // A table on a slide reads a line per row, its cells between ` | `.
  table: { table: 'a:tbl', row: 'a:tr', cell: 'a:tc' },
};

/** The slide parts in presentation order (`p:sldIdLst`), else by their file number. */
async function slideParts(zip: ZipArchive): Promise<string[]> {
  const presentation = await zip.readText('ppt/presentation.xml');
  if (presentation) {
    const rels = await relationshipsOf(zip, 'ppt/presentation.xml');
    const ordered = elementsOf(parseXml(presentation), 'p:sldId')
      .map((s) => rels.get(s['r:id'] ?? '')?.part)
      .filter((part): part is string => part !== undefined && zip.has(part));
    if (ordered.length) return ordered;
  }
  const number = (name: string) => Number(/slide(\d+)\.xml$/.exec(name)?.[1]);
  return [...zip.entries.keys()]
    .filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
    .sort((a, b) => number(a) - number(b));
}

/** Speaker notes leave out their fields: the slide number, the date. */
const NOTES_TEXT = { ...PPTX_TEXT, skip: new Set(['a:fld']) };
const NOTES_SLIDE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/notesSlide';

const linesOf = (xml: string, rules: typeof PPTX_TEXT) =>
  paragraphsOf(parseXml(xml), rules)
    .map((p) => tidy(p.text))
    .filter(Boolean);

/** The speaker notes of a slide (its notesSlide relationship), as lines; none when it has none. */
async function notesOf(zip: ZipArchive, rels: Relationships): Promise<string[]> {
  const part = [...rels.values()].find((r) => r.type === NOTES_SLIDE)?.part;
  const xml = part && (await zip.readText(part));
  return xml ? linesOf(xml, NOTES_TEXT) : [];
}

/**
 * PPTX: the text of every slide (its `a:p` paragraphs) and its speaker notes after a `Notes:` line,
 * one section per slide in presentation order; the pictures a slide shows (its own, not its layout's).
 */
export const parsePptx: FormatParser = async ({ data, limits }) => {
  const zip = ZipArchive.open(data, limits);
  if (!zip.has('ppt/presentation.xml')) throw unreadable('PPTX without ppt/presentation.xml');
  const sections: DocumentSection[] = [];
  const shown: { part: string; slide: number }[] = [];
  for (const part of await slideParts(zip)) {
    const xml = (await zip.readText(part)) ?? '';
    const rels = await relationshipsOf(zip, part);
    const lines = linesOf(xml, PPTX_TEXT);
    const notes = await notesOf(zip, rels);
    if (notes.length > 0) lines.push('Notes:', ...notes);
    sections.push({ title: `Slide ${sections.length + 1}`, text: lines.join('\n') });
    shown.push(...drawnPictures(xml, rels).map((picture) => ({ part: picture, slide: sections.length })));
  }
  const pictures = await readablePictures((picture) => zip.read(picture), shown);
  const title = await titleFrom(zip, 'docProps/core.xml');
  return {
    text: sections.map((s) => s.text).join('\n\n'),
    sections,
    ...(pictures.length ? { pictures } : {}),
    metadata: { ...(title ? { title } : {}), slides: sections.length, bytes: data.byteLength },
  };
};
