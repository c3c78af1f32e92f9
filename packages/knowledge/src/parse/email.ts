import PostalMime, { type Address } from 'postal-mime';
import { DocumentError, unreadable } from './errors';
import { htmlToText } from './html';
import { readOutlookMessage } from './msg';
import { isOle } from './ole';
import { drawImage, readableSize } from './image';
import type { PageImage } from './pdf-render';
import { worthReading } from './pictures';
import type { DocumentPicture, DocumentSection, FormatParser, ParseContext, ParsedDocument } from './types';

/** How many attachments' names a warning lists when they could not be read. */
const LISTED_WARNINGS = 5;

/** A message as both email formats give it: headers as a reader writes them, the body as text. */
export interface MailMessage {
  subject?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  cc?: string | undefined;
  date?: string | undefined;
  body: string;
  /** The files attached (images shown inside the body are not). */
  attachments: { name?: string | undefined; content: Uint8Array; mimeType: string }[];
  /** The images the HTML body shows (a screenshot pasted into the message), in order. */
  inline: { content: Uint8Array }[];
}

/**
 * A message's pictures for the OCR model, numbered as `DocumentPicture.mail` says: the images its body
 * shows, then its attached images (a photographed receipt). Parsing and drawing both number them so.
 */
export const mailPictures = (message: MailMessage): { content: Uint8Array; attachment?: string }[] => [
  ...message.inline,
  ...message.attachments.flatMap((a, i) =>
    a.mimeType.startsWith('image/') ? [{ content: a.content, attachment: attachmentName(a, i) }] : [],
  ),
];

/** An attachment's name as the document gives it: its file name, else its place. */
const attachmentName = (attachment: MailMessage['attachments'][number], i: number) =>
  attachment.name?.trim() || `attachment ${i + 1}`;

const addresses = (list: readonly Address[] | Address | undefined): string => {
  const all = list === undefined ? [] : Array.isArray(list) ? list : [list as Address];
  return all
    .flatMap((a) => (a.group ? a.group : [a]))
    .map((m) => (m.name && m.address ? `${m.name} <${m.address}>` : (m.address ?? m.name)))
    .filter(Boolean)
    .join(', ');
};

const bytesOf = (content: ArrayBuffer | Uint8Array | string): Uint8Array =>
  typeof content === 'string'
    ? new TextEncoder().encode(content)
    : content instanceof Uint8Array
      ? content
      : new Uint8Array(content);

/** An .eml (RFC 822/MIME) with postal-mime. Images the HTML body shows inline are not attachments. */
async function readMime(data: Uint8Array): Promise<MailMessage> {
  let email: Awaited<ReturnType<typeof PostalMime.parse>>;
  try {
    email = await PostalMime.parse(data);
  } catch (err) {
    throw unreadable(`not a readable email (${err instanceof Error ? err.message : String(err)})`, err);
  }
  return {
    subject: email.subject,
    from: addresses(email.from),
    to: addresses(email.to),
    cc: addresses(email.cc),
    // As written (`Fri, 01 Mar 2024 09:30:00 +0100`): the sender's own time and offset.
    date: email.headers.find((h) => h.key === 'date')?.value.trim() || email.date,
    body: email.text?.trim() ? email.text : email.html ? htmlToText(email.html) : '',
    attachments: email.attachments
      .filter((a) => !a.related)
      .map((a) => ({ name: a.filename ?? undefined, content: bytesOf(a.content), mimeType: a.mimeType })),
    inline: email.attachments
      .filter((a) => a.related && a.mimeType.startsWith('image/'))
      .map((a) => ({ content: bytesOf(a.content) })),
  };
}

/** A message of either format: an .eml (MIME) or an Outlook .msg (an OLE compound file), told apart by the content. */
const readMessage = async (data: Uint8Array): Promise<MailMessage> =>
  isOle(data) ? readOutlookMessage(data) : readMime(data);

/**
 * A message as a document: its subject, sender, recipients and date, then its body. Attachments of a
 * readable type are read with their own parser (`parseInner`) and follow the message, one section each
 * titled by the file name; all are named on an `Attachments:` line.
 */
async function messageDocument(
  message: MailMessage,
  { data, parseInner }: ParseContext,
): Promise<Omit<ParsedDocument, 'type'>> {
  const headers: [string, string | undefined][] = [
    ['Subject', message.subject],
    ['From', message.from],
    ['To', message.to],
    ['Cc', message.cc],
    ['Date', message.date],
  ];
  const body = message.body.replace(/\r\n?/g, '\n').trim();
  if (headers.every(([, value]) => !value) && !body && message.attachments.length === 0) {
    throw unreadable('not a readable email (no headers, body or attachments)');
  }

  const read: DocumentSection[] = [];
  const names: string[] = [];
  const failed: string[] = [];
  for (const [i, attachment] of message.attachments.entries()) {
    const name = attachmentName(attachment, i);
    names.push(name);
    const text = parseInner
      ? await parseInner(attachment.content, name, attachment.mimeType).then(
          (inner) => inner.text.trim(),
          (err: unknown) => {
            // A type no parser reads is only named; a readable type that fails is named and warned of.
            if (!(err instanceof DocumentError && err.code === 'unsupported_document')) failed.push(name);
            return '';
          },
        )
      : '';
    if (text) read.push({ title: name, text });
  }

  const lines = headers.filter(([, value]) => value).map(([key, value]) => `${key}: ${value}`);
  if (names.length > 0) lines.push(`Attachments: ${names.join(', ')}`);
  const text = [lines.join('\n'), body].filter(Boolean).join('\n\n');
  const sections: DocumentSection[] = [
    { ...(message.subject ? { title: message.subject } : {}), text },
    ...read,
  ];
  const pictures = mailPictures(message).flatMap((picture, mail): DocumentPicture[] => {
    const size = readableSize(picture.content);
    if (!size || !worthReading(size.width, size.height)) return [];
    return [picture.attachment === undefined ? { mail } : { mail, attachment: picture.attachment }];
  });
  const warnings = failed.length
    ? [`attachments that could not be read: ${failed.slice(0, LISTED_WARNINGS).join(', ')}`]
    : [];
  return {
    text: sections
      .map((s) => (s === sections[0] ? s.text : `Attachment: ${s.title}\n\n${s.text}`))
      .join('\n\n'),
    sections,
    ...(pictures.length > 0 ? { pictures } : {}),
    metadata: {
      ...(message.subject ? { title: message.subject } : {}),
      attachments: names.length,
      bytes: data.byteLength,
      ...(warnings.length ? { warnings } : {}),
    },
  };
}

/** An email: an .eml (MIME) or an Outlook .msg (an OLE compound file), told apart by the content. */
export const parseEmail: FormatParser = async (ctx) => messageDocument(await readMessage(ctx.data), ctx);

/**
 * Draws a message's pictures (their numbers in `mailPictures`) as an image document is drawn for OCR,
 * answered numbered from 1 in the order asked; one that cannot be decoded is left out.
 */
export async function drawMailPictures(data: Uint8Array, numbers: readonly number[]): Promise<PageImage[]> {
  const all = mailPictures(await readMessage(data));
  const images: PageImage[] = [];
  for (const [i, n] of numbers.entries()) {
    const picture = all[n];
    const drawn = picture && (await drawImage(picture.content).catch(() => undefined));
    if (drawn) images.push({ ...drawn, page: i + 1 });
  }
  return images;
}
