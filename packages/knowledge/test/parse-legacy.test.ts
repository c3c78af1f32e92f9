import CFB from 'cfb';
import { strToU8 } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { closeParsePool, parseDocument } from '../src/index';
import { bytes, refusal, SENTENCE } from './parse-helpers';

afterAll(() => closeParsePool());

const parse = (name: string, filename = name) => parseDocument({ data: bytes(name), filename });
const rtf = (body: string, filename = 'letter.rtf') =>
  parseDocument({ data: strToU8(`{\\rtf1\\ansi\\ansicpg1252${body}}`, true), filename });

/** The fixture compound file with one stream changed. */
function withStream(name: string, stream: string, change: (content: Buffer) => Buffer): Uint8Array {
  const container = CFB.read(bytes(name), { type: 'buffer' });
  const entry = CFB.find(container, stream)!;
  entry.content = change(Buffer.from(entry.content as Uint8Array));
  entry.size = entry.content.length;
  return CFB.write(container, { type: 'buffer' }) as Uint8Array;
}

describe('parseDocument: Excel 97-2003 workbooks (.xls)', () => {
  it('reads every sheet with data as XLSX sheets are: a block per row, numbers, dates and a formula as shown', async () => {
    const doc = await parse('sample.xls');
    expect(doc.type).toBe('xls');
    expect(doc.sections).toEqual([
      { title: 'Plans, row 1', text: 'Plan: Team\nPrice: 20\nSince: 2024-03-01' },
      { title: 'Plans, row 2', text: 'Plan: Café Entreprise\nPrice: 12.5\nSince: 2023-11-15' },
      // A formula's last computed value.
      { title: 'Plans, row 3', text: 'Plan: Total\nPrice: 32.5' },
      { title: 'Notes, row 1', text: `Prices include VAT. ${SENTENCE}` },
    ]);
    // The empty sheet is left out.
    expect(doc.metadata).toMatchObject({ sheets: 2, rows: 3 });
    expect(doc.text.startsWith('Plans\n\nPlan: Team')).toBe(true);
  });

  it('is known by its content under another name, and by its MIME type', async () => {
    expect((await parse('sample.xls', 'budget.doc')).type).toBe('xls');
    const byMime = await parseDocument({
      data: bytes('sample.xls'),
      filename: 'budget',
      mimeType: 'application/vnd.ms-excel',
    });
    expect(byMime.sections?.[0]?.text).toContain('Plan: Team');
  });

  it('reads what web applications export as .xls: an HTML table', async () => {
    const html =
      '<html><body><table><tr><th>Name</th><th>Team</th></tr><tr><td>Ada</td><td>R&amp;D</td></tr></table></body></html>';
    const doc = await parseDocument({ data: strToU8(html), filename: 'export.xls' });
    expect(doc.type).toBe('xls');
    expect(doc.sections?.[0]?.text).toBe('Name: Ada\nTeam: R&D');
  });

  it('a damaged workbook is refused (422), not read as noise', async () => {
    const broken = withStream('sample.xls', 'Workbook', (content) => content.subarray(0, 40));
    const err = await refusal({ data: broken, filename: 'budget.xls' });
    expect(err.toJSON()).toMatchObject({ status: 422, code: 'unreadable_document' });
    const binary = await refusal({ data: new Uint8Array([1, 0, 2, 0, 3]), filename: 'budget.xls' });
    expect(binary.toJSON()).toMatchObject({
      status: 422,
      code: 'unreadable_document',
      detail: 'not a readable XLS (its content is not an OLE compound file)',
    });
  });
});

describe('parseDocument: PowerPoint 97-2003 presentations (.ppt)', () => {
  it('reads each slide in order: its placeholders, its text boxes, then its speaker notes', async () => {
    const doc = await parse('sample.ppt');
    expect(doc.type).toBe('ppt');
    expect(doc.sections).toEqual([
      {
        title: 'Slide 1',
        text: 'Quarterly review\nRevenue grew by 12 percent.\nChurn fell to 3 percent.\nNotes:\nMention the Lyon office opening.',
      },
      {
        title: 'Slide 2',
        text: 'Next steps — café\nA free text box: the quick brown fox jumps over the lazy dog.',
      },
    ]);
    expect(doc.metadata).toMatchObject({ slides: 2 });
    // The master slides' prompts are not the presentation's text.
    expect(doc.text).not.toMatch(/click to/i);
    expect((await parse('sample.ppt', 'deck.pps')).type).toBe('ppt');
    expect((await parse('sample.ppt', 'deck.doc')).type).toBe('ppt');
  });

  it('a password-protected presentation is refused (422), saying so', async () => {
    const container = CFB.read(bytes('sample.ppt'), { type: 'buffer' });
    CFB.utils.cfb_add(container, '/EncryptedSummary', Buffer.from('x'));
    const err = await refusal({
      data: CFB.write(container, { type: 'buffer' }) as Uint8Array,
      filename: 'deck.ppt',
    });
    expect(err.toJSON()).toMatchObject({ status: 422, code: 'unreadable_document' });
    expect(err.detail).toContain('password-protected');
  });

  it('a damaged one is refused (422): its stream cut short, its records pointing outside it', async () => {
    const cut = withStream('sample.ppt', 'PowerPoint Document', (content) => content.subarray(0, 100));
    expect((await refusal({ data: cut, filename: 'deck.ppt' })).toJSON()).toMatchObject({
      status: 422,
      code: 'unreadable_document',
    });
    // The newest edit's offset beyond the stream.
    const lost = withStream('sample.ppt', 'Current User', (content) => {
      const copy = Buffer.from(content);
      copy.writeUInt32LE(0x7fffffff, 16);
      return copy;
    });
    expect((await refusal({ data: lost, filename: 'deck.ppt' })).code).toBe('unreadable_document');
  });
});

describe('parseDocument: RTF', () => {
  it('reads paragraphs and a table as Word documents are read: accents, €, Cyrillic and Japanese kept', async () => {
    const doc = await parse('sample.rtf');
    expect(doc.type).toBe('rtf');
    expect(doc.sections?.map((s) => s.text)).toEqual([
      'Travel policy',
      SENTENCE,
      'Trains are refunded up to 120 € per journey; café receipts too. Привет, 東京.',
      'Plan | Price\nTeam | 20 €',
      'Last paragraph after the table.',
    ]);
    expect(doc.metadata).toMatchObject({ paragraphs: 5 });
    // Word saves RTF under a .doc name too; the MIME type alone also says it.
    expect((await parse('sample.rtf', 'letter.doc')).type).toBe('rtf');
    const byMime = await parseDocument({
      data: bytes('sample.rtf'),
      filename: 'letter',
      mimeType: 'text/rtf',
    });
    expect(byMime.text).toBe(doc.text);
  });

  it('decodes escapes by the code page in force: the document’s, a font’s, double-byte pairs', async () => {
    const cyrillic = await parseDocument({
      data: strToU8(String.raw`{\rtf1\ansi\ansicpg1251 \'cf\'f0\'e8\'e2\'e5\'f2}`),
      filename: 'a.rtf',
    });
    expect(cyrillic.text).toBe('Привет');
    const fonts = String.raw`{\fonttbl{\f0\fcharset0 Arial;}{\f1\fcharset128 MS Mincho;}}`;
    const japanese = await rtf(String.raw`${fonts}\f0 caf\'e9 {\f1 \'93\'8c\'8b\'9e}`);
    expect(japanese.text).toBe('café 東京');
  });

  it('a \\u character replaces its fallback (\\uc), of one or more characters', async () => {
    expect((await rtf(String.raw` \u8364\'80 and \uc2\u26481??x`)).text).toBe('€ and 東x');
  });

  it('leaves out what is not text: tables of fonts and styles, {\\*…} destinations, pictures, headers, field codes', async () => {
    const doc = await rtf(
      String.raw`{\colortbl;\red0\green0\blue0;}{\stylesheet{\s1 Heading 1;}}{\info{\title Secret title}}` +
        String.raw`{\header Page header}{\*\generator Writer}{\pict\pngblip 89504e47}` +
        String.raw`Visit {\field{\*\fldinst HYPERLINK "https://example.com"}{\fldrslt our site}}.\par ` +
        String.raw`Symbols: \{braces\} \\ \endash\~\emdash \ldblquote q\rdblquote\par`,
    );
    expect(doc.sections?.map((s) => s.text)).toEqual(['Visit our site.', 'Symbols: {braces} \\ – —“q”']);
  });

  it('a footnote goes after the text, not inside its sentence; a line break stays in its paragraph', async () => {
    const doc = await rtf(
      String.raw`The rule applies{\super\chftn}{\footnote\pard\plain {\super\chftn} Since 2024.} to everyone.\line Even managers.\par`,
    );
    expect(doc.sections?.map((s) => s.text)).toEqual([
      'The rule applies to everyone.\nEven managers.',
      'Since 2024.',
    ]);
  });

  it('a .rtf that is not RTF is refused (422)', async () => {
    const err = await refusal({ data: strToU8('Dear customer'), filename: 'letter.rtf' });
    expect(err.toJSON()).toMatchObject({ status: 422, code: 'unreadable_document' });
    expect(err.detail).toContain('does not start with {\\rtf');
  });
});
