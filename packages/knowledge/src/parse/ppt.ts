import CFB from 'cfb';
import { unreadable } from './errors';
import { readContainer } from './ole';
import type { DocumentSection, FormatParser } from './types';

/**
 * PowerPoint 97-2003 (.ppt) as [MS-PPT] describes it: a compound file whose `PowerPoint Document`
 * stream is a tree of records (an 8-byte header: version and instance, type, length; version 0xF is a
 * container of records). No maintained library reads it in JavaScript; only its text is read here.
 */
const RT = {
  document: 0x03e8,
  slide: 0x03ee,
  notes: 0x03f0,
  notesAtom: 0x03f1,
  slidePersistAtom: 0x03f3,
  textCharsAtom: 0x0fa0,
  textBytesAtom: 0x0fa8,
  slideListWithText: 0x0ff0,
  userEditAtom: 0x0ff5,
  persistDirectoryAtom: 0x1772,
} as const;

interface PptRecord {
  type: number;
  instance: number;
  /** Where its body starts and ends in the stream. */
  start: number;
  end: number;
  container: boolean;
}

/** The record at `offset`, or undefined when its header or body would leave the stream. */
function recordAt(stream: Buffer, offset: number): PptRecord | undefined {
  if (offset < 0 || offset + 8 > stream.length) return undefined;
  const verInstance = stream.readUInt16LE(offset);
  const length = stream.readUInt32LE(offset + 4);
  const start = offset + 8;
  if (start + length > stream.length) return undefined;
  return {
    type: stream.readUInt16LE(offset + 2),
    instance: verInstance >> 4,
    start,
    end: start + length,
    container: (verInstance & 0x0f) === 0x0f,
  };
}

/** The records directly inside a container, in order (a damaged one ends the list). */
function childrenOf(stream: Buffer, parent: PptRecord): PptRecord[] {
  const children: PptRecord[] = [];
  for (let offset = parent.start; offset < parent.end;) {
    const child = recordAt(stream, offset);
    if (!child || child.end > parent.end) break;
    children.push(child);
    offset = child.end;
  }
  return children;
}

/** A text atom's text: UTF-16 (chars) or each byte a character (bytes); `\r` ends a paragraph, `\v` a line. */
function atomText(stream: Buffer, record: PptRecord): string | undefined {
  const body = stream.subarray(record.start, record.end);
  const text =
    record.type === RT.textCharsAtom
      ? body.toString('utf16le', 0, body.length & ~1)
      : record.type === RT.textBytesAtom
        ? body.toString('latin1')
        : undefined;
  if (text === undefined) return undefined;
  return text
    .replace(/[\r\v]/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');
}

/** Every text atom inside a record, depth first (a slide's text boxes, tables and shapes). */
function textsWithin(stream: Buffer, record: PptRecord, depth = 0): string[] {
  if (!record.container) {
    const text = atomText(stream, record);
    return text ? [text] : [];
  }
  // Records nest a few levels (slide, drawing, group, shape, text box); deeper is a damaged file.
  if (depth > 32) return [];
  return childrenOf(stream, record).flatMap((child) => textsWithin(stream, child, depth + 1));
}

/**
 * Where each persist object (slide, notes, the document) starts in the stream: the persist directories
 * of every save, newest first (a "fast save" appends its edits; the newest offset of an id wins), from
 * the edit the `Current User` stream points at. Answers the newest edit's document id too.
 */
function persistDirectory(stream: Buffer, currentUser: Buffer | undefined) {
  const offsets = new Map<number, number>();
  // The CurrentUserAtom: its header, size, header token, then the offset of the newest edit.
  let edit = currentUser && currentUser.length >= 20 ? currentUser.readUInt32LE(16) : -1;
  let documentId: number | undefined;
  const seen = new Set<number>();
  while (edit > 0 && !seen.has(edit)) {
    seen.add(edit);
    const atom = recordAt(stream, edit);
    if (!atom || atom.type !== RT.userEditAtom || atom.end - atom.start < 20) break;
    documentId ??= stream.readUInt32LE(atom.start + 16);
    const directory = recordAt(stream, stream.readUInt32LE(atom.start + 12));
    if (directory?.type === RT.persistDirectoryAtom) {
      for (let at = directory.start; at + 4 <= directory.end;) {
        const entry = stream.readUInt32LE(at);
        const first = entry & 0xfffff;
        const count = entry >>> 20;
        at += 4;
        for (let i = 0; i < count && at + 4 <= directory.end; i++, at += 4) {
          if (!offsets.has(first + i)) offsets.set(first + i, stream.readUInt32LE(at));
        }
      }
    }
    edit = stream.readUInt32LE(atom.start + 8);
  }
  return { offsets, documentId };
}

interface SlideEntry {
  persistId: number;
  slideId: number;
  texts: string[];
}

/**
 * The slides in presentation order, from the document's list of slides (its `SlideListWithText` of
 * instance 0): each slide's persist id and id, and the placeholder texts (title, body) the list holds.
 */
function slideList(stream: Buffer, document: PptRecord): SlideEntry[] {
  const slides: SlideEntry[] = [];
  for (const list of childrenOf(stream, document)) {
    if (list.type !== RT.slideListWithText || list.instance !== 0) continue;
    for (const record of childrenOf(stream, list)) {
      if (record.type === RT.slidePersistAtom && record.end - record.start >= 16) {
        slides.push({
          persistId: stream.readUInt32LE(record.start),
          slideId: stream.readUInt32LE(record.start + 12),
          texts: [],
        });
        continue;
      }
      const text = atomText(stream, record);
      if (text) slides.at(-1)?.texts.push(text);
    }
  }
  return slides;
}

/** Texts in order, each once (a placeholder's text may also sit in its shape). */
const distinct = (texts: string[]) => [...new Set(texts)];

export const parsePpt: FormatParser = async ({ data }) => {
  const container = readContainer(data);
  if (CFB.find(container, 'EncryptedSummary')) {
    throw unreadable(
      'a password-protected PowerPoint presentation cannot be read; save it without a password',
    );
  }
  const content = CFB.find(container, 'PowerPoint Document')?.content;
  if (!content || content.length === 0) throw unreadable('PPT without its PowerPoint Document stream');
  const stream = Buffer.from(content as Uint8Array);
  const user = CFB.find(container, 'Current User')?.content;
  const { offsets, documentId } = persistDirectory(
    stream,
    user ? Buffer.from(user as Uint8Array) : undefined,
  );
  const at = (persistId: number) => {
    const offset = offsets.get(persistId);
    return offset === undefined ? undefined : recordAt(stream, offset);
  };
  const document = documentId === undefined ? undefined : at(documentId);
  if (!document || document.type !== RT.document) throw unreadable('PPT without a readable document record');
  // Speaker notes by the id of the slide they belong to.
  const notes = new Map<number, string[]>();
  for (const offset of offsets.values()) {
    const record = recordAt(stream, offset);
    if (record?.type !== RT.notes || !record.container) continue;
    const atom = childrenOf(stream, record).find((r) => r.type === RT.notesAtom);
    if (atom && atom.end - atom.start >= 4)
      notes.set(stream.readUInt32LE(atom.start), textsWithin(stream, record));
  }
  const sections: DocumentSection[] = [];
  for (const slide of slideList(stream, document)) {
    const record = at(slide.persistId);
    const shapes = record?.type === RT.slide ? textsWithin(stream, record) : [];
    const lines = distinct([...slide.texts, ...shapes]);
    const spoken = distinct(notes.get(slide.slideId) ?? []);
    if (spoken.length > 0) lines.push('Notes:', ...spoken);
    sections.push({ title: `Slide ${sections.length + 1}`, text: lines.join('\n') });
  }
  return {
    text: sections.map((s) => s.text).join('\n\n'),
    sections,
    metadata: { slides: sections.length, bytes: data.byteLength },
  };
};
