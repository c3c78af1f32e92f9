import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import CFB from 'cfb';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument, type ParsedDocument } from '../src/index';
import { cellText } from '../src/parse/spreadsheet';
import { bytes, fixture, refusal, SENTENCE } from './parse-helpers';

/** Offsets of the central-directory records of a ZIP (signature PK\1\2). */
function centralRecords(zip: Uint8Array): number[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const found: number[] = [];
  for (let i = 0; i + 4 <= zip.byteLength; i++) if (view.getUint32(i, true) === 0x02014b50) found.push(i);
  return found;
}

/** A copy of a ZIP whose central directory declares `size` as the uncompressed size of `entry`. */
function declareSize(zip: Uint8Array, entry: string, size: number): Uint8Array {
  const copy = new Uint8Array(zip);
  const view = new DataView(copy.buffer);
  for (const at of centralRecords(copy)) {
    const name = new TextDecoder().decode(copy.subarray(at + 46, at + 46 + view.getUint16(at + 28, true)));
    if (name === entry) view.setUint32(at + 24, size, true);
  }
  return copy;
}

/** The parts of the DOCX fixture, to rebuild it with extra entries. */
const docxParts = () => {
  const files: Record<string, Uint8Array> = {};
  const source = bytes('sample.docx');
  for (const name of ['[Content_Types].xml', '_rels/.rels', 'word/document.xml'])
    files[name] = extract(source, name);
  return files;
};

/** An entry of one of the test's own, trusted fixtures (fflate's unzipSync is fine for those). */
const extract = (zip: Uint8Array, entry: string): Uint8Array => unzipSync(zip)[entry] ?? new Uint8Array();

describe('parseDocument: every type', () => {
  const parse = (name: string) => parseDocument({ path: fixture(name), filename: name });

  it('pdf: text per page, page count and title', async () => {
    const doc = await parse('sample.pdf');
    expect(doc.type).toBe('pdf');
    expect(doc.metadata.pages).toBe(2);
    expect(doc.pages).toEqual([SENTENCE, 'Second page text.']);
    expect(doc.text).toContain(SENTENCE);
    expect(doc.metadata.title).toBe('Fixture PDF');
  });

  it('docx: paragraphs in order', async () => {
    const doc = await parse('sample.docx');
    expect(doc.type).toBe('docx');
    expect(doc.sections?.map((s) => s.text)).toEqual(['Docx first paragraph.', SENTENCE]);
    expect(doc.metadata.paragraphs).toBe(2);
    expect(doc.text).toBe(`Docx first paragraph.\n\n${SENTENCE}`);
  });

  it('docx: a heading, a table a line per row, a list; images left out', async () => {
    const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
    const p = (text: string, style?: string) =>
      `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
    const row = (...cells: string[]) => `<w:tr>${cells.map((c) => `<w:tc>${p(c)}</w:tc>`).join('')}</w:tr>`;
    const files = docxParts();
    files['word/document.xml'] = strToU8(
      `<w:document xmlns:w="${W}"><w:body>${p('Pricing', 'Heading1')}${p('Our plans:')}` +
        `<w:tbl>${row('Plan', 'Price')}${row('Team', '12 €')}${row('Pro', '30 €')}</w:tbl>${p('Final words.')}</w:body></w:document>`,
    );
    const doc = await parseDocument({ data: zipSync(files), filename: 'pricing.docx' });
    expect(doc.sections?.map((s) => s.text)).toEqual([
      'Pricing',
      'Our plans:',
      'Plan | Price\nTeam | 12 €\nPro | 30 €',
      'Final words.',
    ]);
  });

  it('pictures inside DOCX, ODT, PPTX and ODP (as LibreOffice writes them): a picture of text listed, with its slide; an icon left out', async () => {
    expect((await parse('pictures.docx')).pictures).toEqual([{ part: 'word/media/image1.png' }]);
    expect((await parse('pictures.odt')).pictures).toEqual([
      { part: expect.stringMatching(/^Pictures\/\w+\.png$/) },
    ]);
    expect((await parse('pictures.pptx')).pictures).toEqual([{ part: 'ppt/media/image1.png', slide: 2 }]);
    expect((await parse('pictures.odp')).pictures).toEqual([
      { part: expect.stringMatching(/^Pictures\/\w+\.png$/), slide: 2 },
    ]);
    // The text around is read as before.
    expect((await parse('pictures.docx')).text).toBe('Before the picture.\n\nAfter.');
    expect((await parse('sample.docx')).pictures).toBeUndefined();
  });

  it('a picture shown twice is listed once; a drawing (EMF) and a linked picture are left out', async () => {
    const files = unzipSync(bytes('pictures.docx'));
    const blip = (id: string) =>
      `<w:p><w:r><w:drawing><wp:inline><a:graphic><a:graphicData><pic:pic><pic:blipFill><a:blip r:embed="${id}"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
    const body = new TextDecoder().decode(files['word/document.xml']);
    files['word/document.xml'] = strToU8(
      body.replace('<w:sectPr>', `${blip('rIdEmf')}${blip('rIdWeb')}${blip('rId2')}<w:sectPr>`),
    );
    const rels = new TextDecoder().decode(files['word/_rels/document.xml.rels']);
    const IMAGE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';
    files['word/_rels/document.xml.rels'] = strToU8(
      rels.replace(
        '</Relationships>',
        `<Relationship Id="rIdEmf" Type="${IMAGE}" Target="media/image9.emf"/>` +
          `<Relationship Id="rIdWeb" Type="${IMAGE}" Target="https://example.com/a.png" TargetMode="External"/></Relationships>`,
      ),
    );
    // An EMF drawing: its header record, the " EMF" signature at byte 40.
    const emf = new Uint8Array(120);
    emf.set([1, 0, 0, 0, 108], 0);
    emf.set(strToU8(' EMF'), 40);
    files['word/media/image9.emf'] = emf;
    const doc = await parseDocument({ data: zipSync(files), filename: 'pictures.docx' });
    expect(doc.pictures).toEqual([{ part: 'word/media/image1.png' }]);
  });

  it('pptx: slides in presentation order (sldIdLst), not file order, with their speaker notes; entities decoded', async () => {
    const doc = await parse('sample.pptx');
    expect(doc.type).toBe('pptx');
    expect(doc.metadata.slides).toBe(3);
    expect(doc.sections).toEqual([
      { title: 'Slide 1', text: 'Slide one title\nOpening & welcome' },
      // The notes' slide-number field ("2") is left out.
      { title: 'Slide 2', text: `Slide two title\n${SENTENCE}\nNotes:\nMention the second quarter figures.` },
      { title: 'Slide 3', text: 'Slide three title' },
    ]);
    expect(doc.text.indexOf('Slide one')).toBeLessThan(doc.text.indexOf('Slide two'));
  });

  it('odt: heading and paragraph from content.xml (text:s is a space), title from meta.xml', async () => {
    const doc = await parse('sample.odt');
    expect(doc.type).toBe('odt');
    expect(doc.text).toBe(`Odt heading\n\n${SENTENCE}`);
    expect(doc.sections?.[0]).toEqual({ title: 'Odt heading', text: 'Odt heading' });
    expect(doc.metadata).toMatchObject({ title: 'Fixture ODT', paragraphs: 2 });
  });

  it('pptx and odt: character references (&#39;, &#x2019;, &#128512;) decoded; an escaped one stays text', async () => {
    const refs = 'it&#39;s &#x2019;quoted&#x2019; &#128512; &amp;#39;';
    const decoded = "it's \u2019quoted\u2019 \u{1F600} &#39;";
    const pptx = unzipSync(bytes('sample.pptx'));
    const slide = new TextDecoder().decode(pptx['ppt/slides/slide3.xml']);
    pptx['ppt/slides/slide3.xml'] = strToU8(slide.replace('Opening &amp; welcome', refs));
    const slides = await parseDocument({ data: zipSync(pptx), filename: 'refs.pptx' });
    expect(slides.sections?.[0]).toEqual({ title: 'Slide 1', text: `Slide one title\n${decoded}` });
    const odt = unzipSync(bytes('sample.odt'));
    const content = new TextDecoder().decode(odt['content.xml']);
    const paragraph = /<text:p>.*?<\/text:p>/;
    expect(content).toMatch(paragraph);
    odt['content.xml'] = strToU8(content.replace(paragraph, `<text:p>${refs}</text:p>`));
    const text = await parseDocument({ data: zipSync(odt), filename: 'refs.odt' });
    expect(text.text).toBe(`Odt heading\n\n${decoded}`);
  });

  it('pptx and odt tables: a line per row, cells between |, a cell of paragraphs as blocks', async () => {
    const cell = (...paragraphs: string[]) =>
      `<a:tc><a:txBody>${paragraphs.map((p) => `<a:p><a:r><a:t>${p}</a:t></a:r></a:p>`).join('')}</a:txBody></a:tc>`;
    const table = (rows: string[][]) =>
      `<p:graphicFrame><a:graphic><a:graphicData><a:tbl><a:tblGrid/>${rows
        .map((r) => `<a:tr>${r.join('')}</a:tr>`)
        .join('')}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
    const pptx = unzipSync(bytes('sample.pptx'));
    const slide = new TextDecoder().decode(pptx['ppt/slides/slide3.xml']);
    const rows = table([
      [cell('Plan'), cell('Price')],
      [cell('Team'), cell('12 €')],
      [cell(), cell()],
      [cell('Pro'), cell('30 €')],
    ]);
    pptx['ppt/slides/slide3.xml'] = strToU8(slide.replace('</p:spTree>', `${rows}</p:spTree>`));
    const slides = await parseDocument({ data: zipSync(pptx), filename: 'prices.pptx' });
    expect(slides.sections?.[0]).toEqual({
      title: 'Slide 1',
      text: 'Slide one title\nOpening & welcome\nPlan | Price\nTeam | 12 €\nPro | 30 €',
    });

    const odt = unzipSync(bytes('sample.odt'));
    const content = new TextDecoder().decode(odt['content.xml']);
    const odfCell = (...paragraphs: string[]) =>
      `<table:table-cell>${paragraphs.map((p) => `<text:p>${p}</text:p>`).join('')}</table:table-cell>`;
    const odfTable = (rows: string[][]) =>
      `<table:table table:name="T"><table:table-column table:number-columns-repeated="2"/>${rows
        .map((r) => `<table:table-row>${r.join('')}</table:table-row>`)
        .join('')}</table:table>`;
    const data = odfTable([
      [odfCell('Ville'), odfCell('Jours')],
      [odfCell('Tokyo'), odfCell('4')],
    ]);
    const layout = odfTable([[odfCell('Bienvenue', 'Premier paragraphe.'), odfCell('Encadré')]]);
    odt['content.xml'] = strToU8(content.replace('</office:text>', `${data}${layout}</office:text>`));
    const text = await parseDocument({ data: zipSync(odt), filename: 'trip.odt' });
    expect(text.text).toBe(
      `Odt heading\n\n${SENTENCE}\n\nVille | Jours\nTokyo | 4\n\nBienvenue\nPremier paragraphe.\n\nEncadré`,
    );
  });

  it('markdown: kept as written, sections at headings, title from the first heading', async () => {
    const doc = await parse('sample.md');
    expect(doc.type).toBe('markdown');
    expect(doc.text).toBe(readFileSync(fixture('sample.md'), 'utf8').trim());
    expect(doc.sections?.map((s) => s.title)).toEqual(['Fixture Markdown', 'Details']);
    expect(doc.sections?.[1]?.text).toBe(`## Details\n\n${SENTENCE}`);
    expect(doc.metadata.title).toBe('Fixture Markdown');
  });

  it('csv: one "header: value" block per row, rows counted without the header, quoted commas kept', async () => {
    const doc = await parse('sample.csv');
    expect(doc.type).toBe('csv');
    expect(doc.metadata.rows).toBe(3);
    expect(doc.metadata.columns).toEqual(['name', 'sentence', 'count']);
    expect(doc.sections?.[0]?.text).toBe(`name: alpha\nsentence: ${SENTENCE}\ncount: 1`);
    expect(doc.text).toContain('sentence: Comma, inside quotes');
  });

  it('csv: semicolon-separated files are read too', async () => {
    const doc = await parseDocument({ data: strToU8('a;b\n1;x y\n2;z\n'), filename: 'semi.csv' });
    expect(doc.metadata.rows).toBe(2);
    expect(doc.sections?.[0]?.text).toBe('a: 1\nb: x y');
  });

  it('csv: tab-separated files (.tsv, or by their MIME type) are read as CSV', async () => {
    const tsv = strToU8('name\tcity\nAda\tLondon\nLin\tParis, France\n');
    for (const input of [
      { data: tsv, filename: 'people.tsv' },
      { data: tsv, filename: 'people', mimeType: 'text/tab-separated-values' },
    ]) {
      const doc = await parseDocument(input);
      expect(doc.type).toBe('csv');
      expect(doc.sections?.map((s) => s.text)).toEqual([
        'name: Ada\ncity: London',
        'name: Lin\ncity: Paris, France',
      ]);
    }
  });

  it('xlsx: every sheet in workbook order, rows as "header: value" blocks with typed cells shown as a spreadsheet does', async () => {
    const doc = await parse('sample.xlsx');
    expect(doc.type).toBe('xlsx');
    expect(doc.metadata).toMatchObject({ title: 'Fixture XLSX', sheets: 2, rows: 3 });
    // The workbook lists "Orders" first, though its part is sheet1 behind relationship rId2.
    expect(doc.sheets?.map((s) => s.name)).toEqual(['Orders', 'Notes & remarks']);
    expect(doc.sections?.map((s) => [s.title, s.text])).toEqual([
      // Shared string, a date (number with date format 14), number, boolean, formula's cached value.
      ['Orders, row 1', 'Product: Lantern\nShipped on: 2024-03-01\nQuantity: 3\nPaid: true\nTotal: 13.5'],
      // An inline string; the blank cells are left out.
      ['Orders, row 2', 'Product: Compass\nQuantity: 12\nPaid: false'],
      ['Notes & remarks, row 1', `Remark: ${SENTENCE}`],
    ]);
    expect(doc.text.startsWith('Orders\n\nProduct: Lantern')).toBe(true);
    expect(doc.text).toContain(`Notes & remarks\n\nRemark: ${SENTENCE}`);
  });

  it('xlsx cells: numbers to 15 significant digits, dates with their time when they have one, times alone', () => {
    expect(cellText(0.1 + 0.2)).toBe('0.3');
    expect(cellText(1234567.125)).toBe('1234567.125');
    expect(cellText(new Date(Date.UTC(2024, 2, 1, 14, 30)))).toBe('2024-03-01 14:30');
    expect(cellText(new Date(Date.UTC(2024, 2, 1, 14, 30, 5)))).toBe('2024-03-01 14:30:05');
    // 09:30 read back from its fraction of a day.
    expect(cellText(new Date(Date.UTC(2026, 1, 15, 9, 29, 59, 999)))).toBe('2026-02-15 09:30');
    expect(cellText(new Date(Date.UTC(1899, 11, 30, 9, 15)))).toBe('09:15');
    expect(cellText(null)).toBe('');
    expect(cellText(false)).toBe('false');
  });

  it('ods: every sheet in order, rows as "header: value" blocks, cells as shown, dates as ISO, repeats expanded', async () => {
    const doc = await parse('sample.ods');
    expect(doc.type).toBe('ods');
    expect(doc.metadata).toMatchObject({ title: 'Fixture ODS', sheets: 2, rows: 4 });
    expect(doc.sheets?.map((s) => s.name)).toEqual(['Orders', 'Notes & remarks']);
    const compass = 'Product: Compass (brass)\nQuantity: 12';
    expect(doc.sections?.map((s) => [s.title, s.text])).toEqual([
      // The header sits in table:table-header-rows; the comment is left out; the date shown as
      // 01/03/2024 is read from its value; currency and percentage as shown; a value with no text.
      [
        'Orders, row 1',
        'Product: Lantern\nShipped on: 2024-03-01\nPrice: 1 234,50 €\nDiscount: 12,5 %\nQuantity: 3',
      ],
      // A merged cell of two paragraphs, its covered cell and two empty ones keep the columns in
      // place; the row is repeated twice; the million empty rows after it cost nothing.
      ['Orders, row 2', compass],
      ['Orders, row 3', compass],
      ['Notes & remarks, row 1', `Remark: ${SENTENCE}`],
    ]);
    expect(doc.text).not.toContain('Check the stock');
    expect(doc.text).toContain(`Notes & remarks\n\nRemark: ${SENTENCE}`);
  });

  it('ods: a row or a cell repeated past the limit is refused, not expanded', async () => {
    const parts = unzipSync(bytes('sample.ods'));
    const content = new TextDecoder().decode(parts['content.xml']);
    const remark = '<table:table-row><table:table-cell office:value-type="string"><text:p>Remark</text:p>';
    expect(content).toContain(remark);
    for (const repeat of [
      remark.replace('<table:table-row>', '<table:table-row table:number-rows-repeated="2000000">'),
      remark.replace('<table:table-cell', '<table:table-cell table:number-columns-repeated="2000000"'),
    ]) {
      parts['content.xml'] = strToU8(content.replace(remark, repeat));
      const err = await refusal({ data: zipSync(parts), filename: 'bomb.ods' });
      expect(err).toMatchObject({ status: 422, code: 'unreadable_document' });
      expect(err.detail).toMatch(/repeats cells more than 1,000,000 times/);
    }
  });

  it('odp: slides in order with their lists and tables, speaker notes without their page number', async () => {
    const doc = await parse('sample.odp');
    expect(doc.type).toBe('odp');
    expect(doc.metadata).toMatchObject({ title: 'Fixture ODP', slides: 2 });
    expect(doc.sections).toEqual([
      {
        title: 'Slide 1',
        text: `Odp slide one\n${SENTENCE}\nOpening & welcome\nNotes:\nThank the hosts.`,
      },
      { title: 'Slide 2', text: 'Odp slide two\nRegion | Sales\nNorth | 120' },
    ]);
  });

  it('OpenDocument kinds: by their mimetype, else the manifest; a template as its document', async () => {
    expect((await parseDocument({ data: bytes('sample.ods'), filename: 'sheet.odt' })).type).toBe('ods');
    expect((await parseDocument({ data: bytes('sample.odp'), filename: 'upload' })).type).toBe('odp');
    const parts = unzipSync(bytes('sample.ods'));
    delete parts.mimetype;
    expect((await parseDocument({ data: zipSync(parts), filename: 'no-mimetype.zip' })).type).toBe('ods');
    const template = unzipSync(bytes('sample.odp'));
    template.mimetype = strToU8('application/vnd.oasis.opendocument.presentation-template');
    expect((await parseDocument({ data: zipSync(template), filename: 'deck.otp' })).type).toBe('odp');
    const typed = await parseDocument({
      data: bytes('sample.ods'),
      filename: 'export',
      mimeType: 'application/vnd.oasis.opendocument.spreadsheet',
    });
    expect(typed.metadata.rows).toBe(4);
  });

  it('epub: the chapters of the reading order, titled by their first heading; cover and contents left out', async () => {
    const doc = await parse('sample.epub');
    expect(doc.type).toBe('epub');
    expect(doc.metadata).toMatchObject({ title: 'Fixture EPUB', chapters: 2 });
    expect(doc.sections).toEqual([
      { title: 'The Beginning', text: `The Beginning\n\n${SENTENCE}` },
      { title: 'Second Chapter', text: 'Second Chapter\n\nEpub chapter two & its ending.' },
    ]);
    expect(doc.text).not.toMatch(/COVER_TEXT|NAV_TEXT/);
    // Named otherwise, or with no name at all, its content decides.
    expect((await parseDocument({ data: bytes('sample.epub'), filename: 'book.zip' })).type).toBe('epub');
  });

  it('epub: encrypted chapters (DRM) are refused; a package found without container.xml is read', async () => {
    const parts = unzipSync(bytes('sample.epub'));
    parts['META-INF/encryption.xml'] = strToU8(
      '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">' +
        '<enc:EncryptedData><enc:CipherData><enc:CipherReference URI="OEBPS/Text/a-second.xhtml"/>' +
        '</enc:CipherData></enc:EncryptedData></encryption>',
    );
    const drm = await refusal({ data: zipSync(parts), filename: 'drm.epub' });
    expect(drm).toMatchObject({ status: 422, code: 'unreadable_document' });
    expect(drm.detail).toMatch(/DRM/);

    const bare = unzipSync(bytes('sample.epub'));
    delete bare['META-INF/container.xml'];
    delete bare['META-INF/encryption.xml'];
    const doc = await parseDocument({ data: zipSync(bare), filename: 'bare.epub' });
    expect(doc.sections?.map((s) => s.title)).toEqual(['The Beginning', 'Second Chapter']);
  });

  it('email: headers, the text body, a text attachment read after it, others named; inline images left out', async () => {
    const doc = await parse('sample.eml');
    expect(doc.type).toBe('email');
    expect(doc.metadata).toMatchObject({ title: 'Réunion de lancement', attachments: 2 });
    expect(doc.sections).toEqual([
      {
        title: 'Réunion de lancement',
        text: [
          'Subject: Réunion de lancement',
          'From: Ana Lima <ana@example.com>',
          'To: team@example.com, Bo <bo@example.com>',
          'Date: Fri, 01 Mar 2024 09:30:00 +0100',
          'Attachments: agenda.txt, chart.png',
          '',
          'Hello team,',
          '',
          SENTENCE,
        ].join('\n'),
      },
      { title: 'agenda.txt', text: 'Agenda: budget review at ten.' },
    ]);
    expect(doc.text).toContain('Attachment: agenda.txt\n\nAgenda: budget review at ten.');
    expect(doc.text).not.toContain('logo.png');
    expect(doc.metadata.warnings).toBeUndefined();
  });

  it('email: an HTML-only body is read as text; an attached email is read, its own attachments only named', async () => {
    const message = (body: string[], ...parts: string[][]) =>
      [
        'From: a@example.com',
        'Subject: Outer',
        'MIME-Version: 1.0',
        'Content-Type: multipart/mixed; boundary="b"',
        '',
        '--b',
        ...body,
        ...parts.flatMap((part) => ['--b', ...part]),
        '--b--',
        '',
      ].join('\r\n');
    const inner = [
      'From: c@example.com',
      'Subject: Inner',
      'Content-Type: multipart/mixed; boundary="i"',
      '',
      '--i',
      'Content-Type: text/plain',
      '',
      'Inner body.',
      '--i',
      'Content-Type: text/plain; name="deep.txt"',
      'Content-Disposition: attachment; filename="deep.txt"',
      '',
      'DEEP_TEXT',
      '--i--',
    ].join('\r\n');
    const eml = message(
      ['Content-Type: text/html', '', '<h1>Hello</h1><p>Only <b>HTML</b> here.</p><script>x()</script>'],
      [
        'Content-Type: message/rfc822; name="fwd.eml"',
        'Content-Disposition: attachment; filename="fwd.eml"',
        '',
        inner,
      ],
      [
        'Content-Type: application/pdf; name="broken.pdf"',
        'Content-Disposition: attachment; filename="broken.pdf"',
        '',
        'not a pdf',
      ],
    );
    const doc = await parseDocument({ data: strToU8(eml), filename: 'outer.eml' });
    expect(doc.sections?.[0]?.text).toBe(
      'Subject: Outer\nFrom: a@example.com\nAttachments: fwd.eml, broken.pdf\n\nHello\n\nOnly HTML here.',
    );
    expect(doc.sections?.[1]).toMatchObject({ title: 'fwd.eml' });
    expect(doc.sections?.[1]?.text).toContain('Inner body.');
    expect(doc.sections?.[1]?.text).toContain('Attachments: deep.txt');
    expect(doc.text).not.toContain('DEEP_TEXT');
    expect(doc.metadata.warnings).toEqual(['attachments that could not be read: broken.pdf']);
  });

  it('doc (Word 97-2003): paragraphs in order, a table a line per row, accents and € kept', async () => {
    const doc = await parse('sample.doc');
    expect(doc.type).toBe('doc');
    expect(doc.sections?.map((s) => s.text)).toEqual([
      'Travel policy',
      SENTENCE,
      'Trains are refunded up to 120 € per journey; café receipts too.',
      'Plan | Price\nTeam | 20 €',
      'Last paragraph after the table.',
    ]);
    expect(doc.text).toContain(`${SENTENCE}\n\nTrains`);
    expect(doc.metadata).toMatchObject({ paragraphs: 5, bytes: bytes('sample.doc').byteLength });
    // By its content under another name, and by its MIME type alone.
    expect((await parseDocument({ data: bytes('sample.doc'), filename: 'report.txt' })).type).toBe('doc');
    const byMime = await parseDocument({
      data: bytes('sample.doc'),
      filename: 'report',
      mimeType: 'application/msword',
    });
    expect(byMime.text).toBe(doc.text);
  });

  it('msg (Outlook): read as an email: headers, body, attachments read or named, an attached message read', async () => {
    const doc = await parse('sample.msg');
    expect(doc.type).toBe('email');
    expect(doc.metadata).toMatchObject({ title: 'Réunion de lancement', attachments: 3 });
    expect(doc.sections?.[0]).toEqual({
      title: 'Réunion de lancement',
      text: [
        'Subject: Réunion de lancement',
        'From: Ana Lima <ana@example.com>',
        'To: team@example.com, Bo <bo@example.com>',
        'Cc: Cy <cy@example.com>',
        'Date: Fri, 01 Mar 2024 08:30:00 GMT',
        'Attachments: agenda.txt, chart.png, Budget figures.msg',
        '',
        'Hello team,',
        '',
        SENTENCE,
      ].join('\n'),
    });
    expect(doc.sections?.[1]).toEqual({ title: 'agenda.txt', text: 'Agenda: budget review at ten.' });
    expect(doc.sections?.[2]?.title).toBe('Budget figures.msg');
    expect(doc.sections?.[2]?.text).toContain('Subject: Budget figures\nFrom: Bo <bo@example.com>');
    expect(doc.sections?.[2]?.text).toContain('The budget is 4,200 euros.');
    // The logo the HTML body shows by its content id is no attachment.
    expect(doc.text).not.toContain('logo.png');
    expect(doc.metadata.warnings).toBeUndefined();
  });

  it('msg: an HTML body alone is read in its code page; an attachment kept elsewhere is named and warned of', async () => {
    const doc = await parse('html-only.msg');
    expect(doc.text).toBe('Subject: Отчёт\nFrom: Ivan <ivan@example.com>\nAttachments: report.pdf\n\nПривет');
    expect(doc.metadata.warnings).toEqual(['attachments that could not be read: report.pdf']);
  });

  it('json lines: one record per line, a blank line between records', async () => {
    const doc = await parseDocument({
      data: strToU8('{"q":"first","n":1}\r\n{"q":"second","tags":["a"]}\n\n'),
      filename: 'set.jsonl',
    });
    expect(doc).toMatchObject({
      type: 'json',
      text: '[0].q: first\n[0].n: 1\n\n[1].q: second\n[1].tags[0]: a',
    });
    expect(doc.metadata.rows).toBe(2);
    const broken = await refusal({ data: strToU8('{"q":1}\n{"q":\n'), filename: 'broken.jsonl' });
    expect(broken).toMatchObject({
      code: 'unreadable_document',
      detail: expect.stringMatching(/not valid JSON/),
    });
  });

  it('plain-text markups (.rst, .adoc, .yaml, .log, .tex) are read as text, .mdx as markdown', async () => {
    for (const name of ['notes.rst', 'guide.adoc', 'config.yaml', 'server.log', 'paper.tex']) {
      const doc = await parseDocument({ data: strToU8(`Title\n=====\n${SENTENCE}\n`), filename: name });
      expect(doc).toMatchObject({ type: 'txt', text: `Title\n=====\n${SENTENCE}` });
    }
    const mdx = await parseDocument({
      data: strToU8(`# Intro\n\n<Note>${SENTENCE}</Note>\n`),
      filename: 'page.mdx',
    });
    expect(mdx).toMatchObject({ type: 'markdown', metadata: { title: 'Intro' } });
  });

  it('json: every value present as a path: value line', async () => {
    const doc = await parse('sample.json');
    expect(doc.type).toBe('json');
    expect(doc.text.split('\n')).toEqual([
      'title: Fixture JSON',
      'items[0].id: 1',
      `items[0].text: ${SENTENCE}`,
      'items[1].id: 2',
      'items[1].text: second item',
    ]);
    expect(doc.metadata.title).toBe('Fixture JSON');
  });

  it('html: readable text without script, style or noscript content; title from <title>', async () => {
    const doc = await parse('sample.html');
    expect(doc.type).toBe('html');
    expect(doc.text).toBe(`Html heading\n\n${SENTENCE}`);
    expect(doc.text).not.toMatch(/SCRIPT_TEXT|NOSCRIPT_TEXT|color: red/);
    expect(doc.metadata.title).toBe('Fixture HTML');
  });

  it('html tables: a data table a line per row (cells between |), a layout table as blocks, never glued', async () => {
    const html = (body: string) =>
      parseDocument({ data: strToU8(`<html><body>${body}</body></html>`), filename: 't.html' });
    const data = await html(
      '<p>Prices</p><table><thead><tr><th>Plan</th><th>Price</th></tr></thead>' +
        '<tbody><tr><td>Team</td><td>12 €</td></tr><tr><td></td><td></td></tr><tr><td>Pro</td><td>30 €</td></tr></tbody></table><p>After</p>',
    );
    expect(data.text).toBe('Prices\n\nPlan | Price\nTeam | 12 €\nPro | 30 €\n\nAfter');
    const layout = await html(
      '<table><tr><td><h2>Welcome</h2><p>First paragraph.</p></td><td>Sidebar</td></tr></table>',
    );
    expect(layout.text).toBe('Welcome\n\nFirst paragraph.\n\nSidebar');
  });

  it('txt: as written', async () => {
    const doc = await parse('sample.txt');
    expect(doc).toEqual({
      type: 'txt',
      text: `Plain text fixture.\n${SENTENCE}`,
      metadata: { bytes: readFileSync(fixture('sample.txt')).byteLength },
    });
  });

  it('the same result from a path, a stream and bytes', async () => {
    const fromPath = await parse('sample.pptx');
    const fromStream = await parseDocument({
      stream: Readable.from([bytes('sample.pptx')]),
      filename: 'x.pptx',
    });
    const fromData = await parseDocument({ data: bytes('sample.pptx'), filename: 'x.pptx' });
    expect(fromStream).toEqual(fromPath);
    expect(fromData).toEqual(fromPath);
  });

  it('text in Windows-1252 (not valid UTF-8) is still read', async () => {
    const doc = await parseDocument({
      data: new Uint8Array([0x63, 0x61, 0x66, 0xe9]),
      filename: 'latin.txt',
    });
    expect(doc.text).toBe('café');
  });
});

describe('parseDocument: type detection by content', () => {
  it('a PDF named .txt is parsed as a PDF', async () => {
    const doc = await parseDocument({
      data: bytes('sample.pdf'),
      filename: 'notes.txt',
      mimeType: 'text/plain',
    });
    expect(doc.type).toBe('pdf');
    expect(doc.pages?.[0]).toBe(SENTENCE);
  });

  it('a text that merely mentions %PDF- stays text; a PDF behind a little junk is still a PDF', async () => {
    const note = await parseDocument({
      data: strToU8('Headers look like %PDF-1.7 in a PDF.'),
      filename: 'note.txt',
    });
    expect(note.type).toBe('txt');
    const junk = new Uint8Array([...strToU8('junk\n'), ...bytes('sample.pdf')]);
    expect((await parseDocument({ data: junk, filename: 'scan.pdf' })).metadata.pages).toBe(2);
  });

  it('a PPTX named .docx is parsed as a PPTX (the inner parts decide)', async () => {
    const doc = await parseDocument({ data: bytes('sample.pptx'), filename: 'deck.docx' });
    expect(doc.type).toBe('pptx');
    expect(doc.metadata.slides).toBe(3);
  });

  it('an XLSX named .docx is parsed as an XLSX; an XLSX by its MIME type alone too', async () => {
    expect((await parseDocument({ data: bytes('sample.xlsx'), filename: 'sheet.docx' })).type).toBe('xlsx');
    const typed = await parseDocument({
      data: bytes('sample.xlsx'),
      filename: 'export',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    expect(typed.metadata.rows).toBe(3);
  });

  it('a document without a known extension is typed by its MIME type', async () => {
    const doc = await parseDocument({
      data: bytes('sample.csv'),
      filename: 'export',
      mimeType: 'text/csv; charset=utf-8',
    });
    expect(doc.type).toBe('csv');
    expect(doc.metadata.rows).toBe(3);
  });
});

describe('parseDocument: images (read later by an OCR model)', () => {
  const png = async (width: number, height: number) => {
    const { createCanvas } = await import('@napi-rs/canvas');
    return new Uint8Array(await createCanvas(width, height).encode('png'));
  };

  it('an image, whatever its name, is one empty page sized from its header', async () => {
    const data = await png(640, 480);
    for (const filename of ['scan.png', 'scan.txt', 'scan']) {
      const doc = await parseDocument({ data, filename });
      expect(doc).toMatchObject({ type: 'image', text: '', pages: [''] });
      expect(doc.metadata).toMatchObject({ width: 640, height: 480, bytes: data.byteLength });
    }
    const { createCanvas } = await import('@napi-rs/canvas');
    const webp = new Uint8Array(await createCanvas(20, 10).encode('webp'));
    expect((await parseDocument({ data: webp, filename: 'photo.webp' })).metadata).toMatchObject({
      width: 20,
    });
  });

  it('a picture over 50 megapixels is refused from its header, before it is decoded', async () => {
    const data = await png(10, 10);
    // The PNG header's width and height (IHDR) claim 10,000 × 10,000 pixels.
    const view = new DataView(data.buffer);
    view.setUint32(16, 10_000);
    view.setUint32(20, 10_000);
    const err = await refusal({ data, filename: 'huge.png' });
    expect(err.toJSON()).toMatchObject({ status: 413, code: 'document_too_large' });
    expect(err.detail).toContain('10000 × 10000 pixels');
  });

  it('HEIC photos, TIFF scans and a .png that is no image are refused with advice', async () => {
    const heic = new Uint8Array([0, 0, 0, 24, ...strToU8('ftypheic'), 0, 0, 0, 0]);
    expect((await refusal({ data: heic, filename: 'IMG_0001.HEIC' })).detail).toContain(
      'save a photo as JPEG',
    );
    const tiff = new Uint8Array([0x49, 0x49, 0x2a, 0, 8, 0, 0, 0]);
    expect((await refusal({ data: tiff, filename: 'scan.tif' })).detail).toContain('save it as PNG or JPEG');
    const text = await refusal({ data: strToU8('not a picture'), filename: 'photo.png' });
    expect(text.toJSON()).toMatchObject({ status: 422, code: 'unreadable_document' });
    const broken = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    expect((await refusal({ data: broken, filename: 'a.txt' })).code).toBe('unreadable_document');
  });
});

describe('parseDocument: refusals are typed errors', () => {
  it('unknown type: 415 unsupported_document', async () => {
    const err = await refusal({ data: strToU8('hello'), filename: 'data.xyz' });
    expect(err.toJSON()).toMatchObject({ status: 415, code: 'unsupported_document' });
    expect(err.detail).toContain('.xyz');
  });

  it('a ZIP that is no office document: 415', async () => {
    const zip = zipSync({ 'readme.txt': strToU8('hi') });
    expect((await refusal({ data: zip, filename: 'archive.zip' })).code).toBe('unsupported_document');
  });

  it('other OLE files, and Apple and old word processor formats, are refused with how to make them readable', async () => {
    const other = CFB.utils.cfb_new();
    CFB.utils.cfb_add(other, '/Contents', Buffer.from('not office'));
    const unknown = await refusal({
      data: CFB.write(other, { type: 'buffer' }) as Uint8Array,
      filename: 'x.doc',
    });
    expect(unknown.toJSON()).toMatchObject({ status: 415, code: 'unsupported_document' });
    expect(unknown.detail).toContain('not a Word, Excel or PowerPoint 97-2003 file nor an Outlook message');
    // Pages, Numbers and Keynote files are ZIP archives.
    const pages = await refusal({
      data: zipSync({ 'Index/Document.iwa': strToU8('x') }),
      filename: 'Plan.pages',
    });
    expect(pages.toJSON()).toMatchObject({
      status: 415,
      detail: 'Apple Pages documents are not supported documents; save it as .docx',
    });
    const works = await refusal({
      data: new Uint8Array([0xff, 0x57, 0x50, 0x43, 0, 1]),
      filename: 'old.wpd',
    });
    expect(works.detail).toBe('WordPerfect documents are not supported documents; save it as .docx');
  });

  it('a password-protected .doc is refused (422), not read as noise', async () => {
    const container = CFB.read(bytes('sample.doc'), { type: 'buffer' });
    const fib = CFB.find(container, 'WordDocument')?.content as Uint8Array;
    fib[11] = fib[11]! | 0x01; // fEncrypted
    const err = await refusal({
      data: CFB.write(container, { type: 'buffer' }) as Uint8Array,
      filename: 'secret.doc',
    });
    expect(err.toJSON()).toMatchObject({ status: 422, code: 'unreadable_document' });
    expect(err.detail).toContain('password-protected');
  });

  it('an OLE file cut short, and a .doc that is no OLE file: 422', async () => {
    const cut = await refusal({ data: bytes('sample.doc').subarray(0, 1500), filename: 'report.doc' });
    expect(cut.toJSON()).toMatchObject({ status: 422, code: 'unreadable_document' });
    const text = await refusal({ data: strToU8('\u0000plain'), filename: 'report.doc' });
    expect(text.toJSON()).toMatchObject({ status: 422, code: 'unreadable_document' });
    expect(text.detail).toContain('not a readable DOC (its content is not an OLE compound file)');
  });

  it('an XLSX without its workbook part: 422 unreadable_document', async () => {
    const parts = unzipSync(bytes('sample.xlsx'));
    delete parts['xl/workbook.xml'];
    const err = await refusal({ data: zipSync(parts), filename: 'broken.xlsx' });
    expect(err.toJSON()).toMatchObject({ status: 422, code: 'unreadable_document' });
  });

  it('garbage named .pdf: 422 unreadable_document', async () => {
    const err = await refusal({ data: strToU8('this is not a pdf at all'), filename: 'report.pdf' });
    expect(err.toJSON()).toMatchObject({ status: 422, code: 'unreadable_document' });
  });

  it('a PDF header followed by garbage: 422', async () => {
    const err = await refusal({ data: strToU8('%PDF-1.7\n' + 'x'.repeat(200)), filename: 'broken.pdf' });
    expect(err.code).toBe('unreadable_document');
  });

  it('a truncated DOCX: 422', async () => {
    const docx = bytes('sample.docx');
    const err = await refusal({
      data: docx.subarray(0, Math.floor(docx.byteLength / 2)),
      filename: 'cut.docx',
    });
    expect(err.toJSON()).toMatchObject({ status: 422, code: 'unreadable_document' });
  });

  it('a DOCX with a corrupted deflate stream: 422', async () => {
    const docx = new Uint8Array(bytes('sample.docx'));
    const view = new DataView(docx.buffer);
    // Overwrite the first entry's compressed data (after its local header) with junk.
    const start = 30 + view.getUint16(26, true) + view.getUint16(28, true);
    docx.fill(0xff, start, start + 20);
    expect((await refusal({ data: docx, filename: 'bad.docx' })).code).toBe('unreadable_document');
  });

  it('invalid JSON and an empty file: 422', async () => {
    expect((await refusal({ data: strToU8('{"a": '), filename: 'x.json' })).status).toBe(422);
    expect((await refusal({ data: new Uint8Array(), filename: 'x.txt' })).status).toBe(422);
  });

  it('a missing file: 422, not a crash', async () => {
    expect((await refusal({ path: fixture('no-such-file.txt'), filename: 'no-such-file.txt' })).status).toBe(
      422,
    );
  });
});

describe('parseDocument: size limit (413), checked while reading', () => {
  const limits = { maxBytes: 100 * 1024 };
  const CHUNK = 16 * 1024;

  it('a stream larger than the limit is not read whole', async () => {
    let produced = 0;
    let closed = false;
    async function* endless() {
      try {
        for (let i = 0; i < 1000; i++) {
          produced += CHUNK;
          yield new Uint8Array(CHUNK).fill(0x61);
        }
      } finally {
        closed = true;
      }
    }
    const err = await refusal({ stream: endless(), filename: 'big.txt', limits });
    expect(err.toJSON()).toMatchObject({ status: 413, code: 'document_too_large' });
    // Stopped at the first chunk past the limit, out of 16 MB on offer, and the source was closed.
    expect(produced).toBe(Math.ceil((limits.maxBytes + 1) / CHUNK) * CHUNK);
    expect(closed).toBe(true);
  });

  it('a Node stream past the limit is destroyed', async () => {
    let pulled = 0;
    const stream = new Readable({
      highWaterMark: CHUNK,
      read() {
        pulled += CHUNK;
        this.push(new Uint8Array(CHUNK).fill(0x61));
      },
    });
    expect((await refusal({ stream, filename: 'big.txt', limits })).status).toBe(413);
    expect(stream.destroyed).toBe(true);
    // Node reads ahead a little (its buffer), not the unbounded rest.
    expect(pulled).toBeLessThanOrEqual(limits.maxBytes + 4 * CHUNK);
  });

  describe('files on disk', () => {
    let dir = '';
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'kn-parse-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('a file over the limit is refused; one at the limit is read', async () => {
      const path = join(dir, 'big.txt');
      await writeFile(path, 'a'.repeat(limits.maxBytes + 1));
      expect((await refusal({ path, filename: 'big.txt', limits })).code).toBe('document_too_large');
      await writeFile(path, 'a'.repeat(limits.maxBytes));
      expect((await parseDocument({ path, filename: 'big.txt', limits })).text).toHaveLength(limits.maxBytes);
    });
  });

  it('bytes over the limit are refused', async () => {
    expect(
      (await refusal({ data: bytes('sample.pdf'), filename: 'a.pdf', limits: { maxBytes: 100 } })).status,
    ).toBe(413);
  });
});

describe('parseDocument: zip bombs', () => {
  it('an entry declaring a huge uncompressed size is refused before inflating', async () => {
    const bomb = declareSize(bytes('sample.docx'), 'word/document.xml', 0xfffffff0);
    const err = await refusal({ data: bomb, filename: 'bomb.docx' });
    expect(err.toJSON()).toMatchObject({ status: 413, code: 'document_too_large' });
    expect(err.detail).toMatch(/expands beyond/);
  });

  it('too many entries is refused', async () => {
    const files = docxParts();
    for (let i = 0; i < 50; i++) files[`word/media/pad${i}.xml`] = strToU8('<x/>');
    const err = await refusal({ data: zipSync(files), filename: 'many.docx', limits: { maxEntries: 20 } });
    expect(err.status).toBe(413);
    expect(err.detail).toMatch(/53 entries/);
  });

  const zerosDocx = () => {
    const files = docxParts();
    files['word/media/zeros.bin'] = new Uint8Array(4 * 1024 * 1024); // 4 MB of zeros deflate to ~4 KB
    return zipSync(files, { level: 9 });
  };

  it('a small archive that truly inflates past the limit is stopped (and parses under a larger limit)', async () => {
    const docx = zerosDocx();
    expect(docx.byteLength).toBeLessThan(64 * 1024);
    const err = await refusal({
      data: docx,
      filename: 'zeros.docx',
      limits: { maxUncompressedBytes: 1024 * 1024 },
    });
    expect(err.code).toBe('document_too_large');
    const doc = await parseDocument({
      data: docx,
      filename: 'zeros.docx',
      limits: { maxUncompressedBytes: 8 * 1024 * 1024 },
    });
    expect(doc.text).toContain(SENTENCE);
  });

  it('an entry lying about its size (declares 100 bytes) is stopped once it inflates past it', async () => {
    const liar = declareSize(zerosDocx(), 'word/media/zeros.bin', 100);
    // Whatever the archive's limit, the entry is never held beyond the size it declares.
    for (const maxUncompressedBytes of [1024 * 1024, 8 * 1024 * 1024]) {
      const err = await refusal({ data: liar, filename: 'liar.docx', limits: { maxUncompressedBytes } });
      expect(err.toJSON()).toMatchObject({
        status: 422,
        detail: expect.stringMatching(/zeros\.bin is not the size it declares/),
      });
    }
  });

  it('pptx, xlsx, the OpenDocument formats and EPUB go through the same limits', async () => {
    for (const name of [
      'sample.pptx',
      'sample.xlsx',
      'sample.odt',
      'sample.ods',
      'sample.odp',
      'sample.epub',
    ]) {
      const err = await refusal({ data: bytes(name), filename: name, limits: { maxUncompressedBytes: 100 } });
      expect(err.code).toBe('document_too_large');
    }
  });
});

describe('parseDocument: a long PDF does not hold the event loop', () => {
  it('the loop gets turns between pages', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    for (let i = 1; i <= 30; i++)
      pdf.addPage([200, 100]).drawText(`Page ${i} text`, { x: 10, y: 50, size: 10, font });
    const data = await pdf.save();

    // Count turns of the loop's check phase while the parse runs: no timing, only interleaving.
    let turns = 0;
    let running = true;
    const tick = () => {
      if (!running) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    let doc: ParsedDocument;
    try {
      doc = await parseDocument({ data, filename: 'long.pdf' });
    } finally {
      running = false;
    }
    expect(doc.metadata.pages).toBe(30);
    expect(doc.pages?.[29]).toBe('Page 30 text');
    expect(turns).toBeGreaterThanOrEqual(30);
  });
});
