import PostalMime, { type Address } from 'postal-mime';
import { DocumentError, unreadable } from './errors';
import { htmlToText } from './html';
import type { DocumentSection, FormatParser } from './types';

/** How many attachments' names a warning lists when they could not be read. */
const LISTED_WARNINGS = 5;

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

/**
 * An email (.eml, RFC 822/MIME) with postal-mime: its subject, sender, recipients and date, then its
 * text body (else its HTML body as text). Attachments of a readable type are read with their own parser
 * (`parseInner`) and follow the message, one section each titled by the file name; all are named on an
 * `Attachments:` line. Images the HTML body shows inline are not attachments.
 */
export const parseEmail: FormatParser = async ({ data, parseInner }) => {
  let email: Awaited<ReturnType<typeof PostalMime.parse>>;
  try {
    email = await PostalMime.parse(data);
  } catch (err) {
    throw unreadable(`not a readable email (${err instanceof Error ? err.message : String(err)})`, err);
  }
  const headers: [string, string | undefined][] = [
    ['Subject', email.subject],
    ['From', addresses(email.from)],
    ['To', addresses(email.to)],
    ['Cc', addresses(email.cc)],
    // As written (`Fri, 01 Mar 2024 09:30:00 +0100`): the sender's own time and offset.
    ['Date', email.headers.find((h) => h.key === 'date')?.value.trim() || email.date],
  ];
  const body = (email.text?.trim() ? email.text : email.html ? htmlToText(email.html) : '')
    .replace(/\r\n?/g, '\n')
    .trim();
  if (headers.every(([, value]) => !value) && !body && email.attachments.length === 0) {
    throw unreadable('not a readable email (no headers, body or attachments)');
  }

  const read: DocumentSection[] = [];
  const names: string[] = [];
  const failed: string[] = [];
  for (const [i, attachment] of email.attachments.entries()) {
    if (attachment.related) continue;
    const name = attachment.filename?.trim() || `attachment ${i + 1}`;
    names.push(name);
    const text = parseInner
      ? await parseInner(bytesOf(attachment.content), name, attachment.mimeType).then(
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
  const message = [lines.join('\n'), body].filter(Boolean).join('\n\n');
  const sections: DocumentSection[] = [
    { ...(email.subject ? { title: email.subject } : {}), text: message },
    ...read,
  ];
  const warnings = failed.length
    ? [`attachments that could not be read: ${failed.slice(0, LISTED_WARNINGS).join(', ')}`]
    : [];
  return {
    text: sections
      .map((s) => (s === sections[0] ? s.text : `Attachment: ${s.title}\n\n${s.text}`))
      .join('\n\n'),
    sections,
    metadata: {
      ...(email.subject ? { title: email.subject } : {}),
      attachments: names.length,
      bytes: data.byteLength,
      ...(warnings.length ? { warnings } : {}),
    },
  };
};
