import { Readable } from 'node:stream';
import { TextDecoder } from 'node:util';
import { Tokenize } from 'rtf-stream-parser';
import { isRtf } from './detect';
import { unreadable } from './errors';
import { tableText } from './table-text';
import type { FormatParser } from './types';

/**
 * RTF as text: rtf-stream-parser splits it into groups, control words and text; what they mean for
 * the reader is decided here (the library's own converter reads only e-mail bodies encapsulated in RTF).
 */

/** Token kinds of rtf-stream-parser (a const enum it declares). */
const GROUP_START = 0;
const GROUP_END = 1;
const CONTROL = 2;
const TEXT = 3;

interface Token {
  type: number;
  word?: string;
  param?: number;
  data?: Buffer;
}

/** Destinations whose content is not the document's text (tables of fonts and styles, pictures, headers…). */
const SKIPPED = new Set([
  'fonttbl',
  'colortbl',
  'stylesheet',
  'info',
  'pict',
  'object',
  'header',
  'headerl',
  'headerr',
  'headerf',
  'footer',
  'footerl',
  'footerr',
  'footerf',
  'fldinst',
  'listtable',
  'listoverridetable',
  'revtbl',
  'rsidtbl',
  'xmlnstbl',
  'filetbl',
  'pgdsctbl',
  'annotation',
  'atnid',
  'atnauthor',
]);

/** Control words that are a character. */
const CHARACTERS: Readonly<Record<string, string>> = {
  tab: '\t',
  emdash: '—',
  endash: '–',
  emspace: ' ',
  enspace: ' ',
  qmspace: ' ',
  bullet: '•',
  lquote: '‘',
  rquote: '’',
  ldblquote: '“',
  rdblquote: '”',
  '~': ' ',
  _: '-',
  '{': '{',
  '}': '}',
  '\\': '\\',
};

/** A font's `\fcharset` as a Windows code page (0 and 1: the document's own). */
const CHARSET_CODEPAGES: Readonly<Record<number, number>> = {
  77: 10000,
  128: 932,
  129: 949,
  134: 936,
  136: 950,
  161: 1253,
  162: 1254,
  163: 1258,
  177: 1255,
  178: 1256,
  186: 1257,
  204: 1251,
  222: 874,
  238: 1250,
};

const ENCODINGS: Readonly<Record<number, string>> = {
  932: 'shift_jis',
  936: 'gbk',
  949: 'euc-kr',
  950: 'big5',
  10000: 'macintosh',
  65001: 'utf-8',
};

const decoders = new Map<number, TextDecoder>();
/** A decoder of the code page (windows-1252 when the platform does not know it). */
function decoderOf(codepage: number): TextDecoder {
  let decoder = decoders.get(codepage);
  if (!decoder) {
    try {
      decoder = new TextDecoder(ENCODINGS[codepage] ?? `windows-${codepage}`);
    } catch {
      decoder = new TextDecoder('windows-1252');
    }
    decoders.set(codepage, decoder);
  }
  return decoder;
}

interface GroupState {
  /** Inside a destination that is not text. */
  skip: boolean;
  /** Fallback characters after a `\u` character (`\ucN`). */
  uc: number;
  /** The font's code page, when it has its own. */
  codepage: number | undefined;
  /** Inside a footnote: its paragraphs go after the text. */
  note: boolean;
  /** The footnote's own group, whose end gives the text around it back. */
  noteStart?: boolean;
}

/** Reads the token stream into paragraphs and tables (rows of cells), in order. */
class RtfReader {
  readonly blocks: string[] = [];
  readonly notes: string[] = [];
  /** The line a footnote interrupted. */
  private readonly outside: string[] = [];
  private readonly fonts = new Map<number, number>();
  private ansi = 1252;
  private state: GroupState = { skip: false, uc: 1, codepage: undefined, note: false };
  private readonly stack: GroupState[] = [];
  /** The font table's entry being read. */
  private font: number | undefined;
  private inFontTable = 0;
  /** Bytes of escaped or 8-bit text, decoded together (a double-byte character comes as two escapes). */
  private bytes: number[] = [];
  private line = '';
  private row: string[] = [];
  private rows: string[][] = [];
  private inTable = false;
  /** Fallback characters still to skip after a `\u` character. */
  private skipChars = 0;
  private lastWasGroupStart = false;
  private ignorableNext = false;

  read(token: Token) {
    const groupStart = this.lastWasGroupStart;
    this.lastWasGroupStart = token.type === GROUP_START;
    if (token.type !== CONTROL || token.word !== "'") this.flushBytes();
    if (token.type === GROUP_START) {
      this.stack.push(this.state);
      this.state = { ...this.state, noteStart: false };
      if (this.inFontTable) this.inFontTable += 1;
      return;
    }
    if (token.type === GROUP_END) {
      if (this.state.noteStart) {
        const note = this.take();
        if (note) this.notes.push(note);
        this.line = this.outside.pop() ?? '';
      }
      this.state = this.stack.pop() ?? this.state;
      if (this.inFontTable) this.inFontTable -= 1;
      this.skipChars = 0;
      return;
    }
    if (token.type === TEXT) return this.text(token.data!);
    this.control(token.word!, token.param, token.data, groupStart);
  }

  private control(word: string, param: number | undefined, data: Buffer | undefined, groupStart: boolean) {
    if (word === '*') {
      this.ignorableNext = groupStart;
      return;
    }
    // `{\*\word …}`: a destination a reader may ignore when it does not know it; none of these is text.
    const ignorable = this.ignorableNext;
    this.ignorableNext = false;
    if (word === 'fonttbl') {
      this.inFontTable = 1;
      this.state.skip = true;
      return;
    }
    if (this.inFontTable) {
      if (word === 'f' && param !== undefined) this.font = param;
      if (word === 'fcharset' && param !== undefined && this.font !== undefined) {
        const codepage = CHARSET_CODEPAGES[param];
        if (codepage) this.fonts.set(this.font, codepage);
      }
      if (word === 'cpg' && param !== undefined && this.font !== undefined) this.fonts.set(this.font, param);
      return;
    }
    if (ignorable || (groupStart && SKIPPED.has(word))) {
      this.state.skip = true;
      return;
    }
    if (groupStart && word === 'footnote' && !this.state.skip) {
      this.outside.push(this.line);
      this.line = '';
      this.state.note = true;
      this.state.noteStart = true;
      return;
    }
    if (word === 'ansicpg' && param) this.ansi = param;
    else if (word === 'uc' && param !== undefined) this.state.uc = Math.max(0, param);
    else if (word === 'f' && param !== undefined) this.state.codepage = this.fonts.get(param);
    if (this.state.skip) return;
    if (word === "'") return this.escaped(data);
    if (word === 'u' && param !== undefined) {
      this.append(String.fromCharCode(param < 0 ? param + 65536 : param));
      this.skipChars = this.state.uc;
      return;
    }
    const character = CHARACTERS[word];
    if (character !== undefined) return this.append(character);
    if (word === 'line') return this.append('\n');
    if (word === 'intbl') this.inTable = true;
    else if (word === 'pard') this.inTable = false;
    else if (word === 'par' || word === 'sect' || word === 'page') this.paragraph();
    else if (word === 'cell' || word === 'nestcell') this.endCell();
    else if (word === 'row' || word === 'nestrow') this.endRow();
  }

  private text(data: Buffer) {
    if (this.state.skip) return;
    for (const byte of data) {
      if (byte === 0x0d || byte === 0x0a) continue;
      if (this.skipChars > 0) {
        this.skipChars -= 1;
        continue;
      }
      if (byte < 0x80) {
        this.flushBytes();
        this.line += String.fromCharCode(byte);
      } else this.bytes.push(byte);
    }
  }

  private escaped(data: Buffer | undefined) {
    if (this.skipChars > 0) {
      this.skipChars -= 1;
      return;
    }
    if (data) this.bytes.push(...data);
  }

  private flushBytes() {
    if (this.bytes.length === 0) return;
    this.line += decoderOf(this.state.codepage ?? this.ansi).decode(Uint8Array.from(this.bytes));
    this.bytes = [];
  }

  private append(text: string) {
    this.skipChars = 0;
    this.line += text;
  }

  private take(): string {
    const text = this.line
      .split('\n')
      .map((l) => l.replace(/[ \t\u00a0]+/g, ' ').trim())
      .filter(Boolean)
      .join('\n');
    this.line = '';
    return text;
  }

  private paragraph() {
    if (this.inTable) {
      this.line += '\n';
      return;
    }
    this.endTable();
    const text = this.take();
    if (text) (this.state.note ? this.notes : this.blocks).push(text);
  }

  private endCell() {
    this.row.push(this.take());
  }

  private endRow() {
    if (this.line.trim()) this.endCell();
    if (this.row.some(Boolean)) this.rows.push(this.row);
    this.row = [];
  }

  private endTable() {
    if (this.rows.length > 0) (this.state.note ? this.notes : this.blocks).push(tableText(this.rows));
    this.rows = [];
  }

  end() {
    this.flushBytes();
    this.paragraph();
    this.endTable();
  }
}

/**
 * RTF: its paragraphs and tables (read by rows, as every other format's), then its footnotes (where a
 * reader finds them); headers, footers, pictures and field codes left out, as for Word documents.
 */
export const parseRtf: FormatParser = async ({ data }) => {
  if (!isRtf(data)) {
    throw unreadable('not a readable RTF document (it does not start with {\\rtf)');
  }
  const reader = new RtfReader();
  const tokens = Readable.from([Buffer.from(data.buffer, data.byteOffset, data.byteLength)]).pipe(
    new Tokenize(),
  );
  for await (const token of tokens as AsyncIterable<Token>) reader.read(token);
  reader.end();
  const paragraphs = [...reader.blocks, ...reader.notes];
  return {
    text: paragraphs.join('\n\n'),
    sections: paragraphs.map((text) => ({ text })),
    metadata: { paragraphs: paragraphs.length, bytes: data.byteLength },
  };
};
