import msgreader, { type FieldsData } from '@kenjiuno/msgreader';
import { unreadable } from './errors';
import { htmlToText } from './html';
import type { MailMessage } from './email';

/**
 * The reader class. The package is CommonJS with its class on `exports.default`: Node's ESM loader (the
 * built parser thread) hands the whole exports object as the default import, tsx and Vitest the class.
 */
const MsgReader = (msgreader as unknown as { default?: typeof msgreader }).default ?? msgreader;

/** An address as a reader writes it: `Name <address>`; Exchange's internal addresses (`/O=…`) left out. */
function mailbox(name: string | undefined, ...addresses: (string | undefined)[]): string | undefined {
  const address = addresses.find((a) => a?.includes('@'));
  const display = name?.trim();
  if (display && address && display !== address) return `${display} <${address}>`;
  return address ?? (display || undefined);
}

const recipients = (all: FieldsData[] | undefined, kind: 'to' | 'cc') =>
  (all ?? [])
    .filter((r) => (r.recipType ?? 'to') === kind)
    .map((r) => mailbox(r.name, r.smtpAddress, r.email))
    .filter(Boolean)
    .join(', ') || undefined;

/** Windows code pages by the names TextDecoder knows them by (the Windows-125x and ISO-8859 ones are counted). */
const CODE_PAGES: Readonly<Record<number, string>> = {
  874: 'windows-874',
  932: 'shift_jis',
  936: 'gbk',
  949: 'euc-kr',
  950: 'big5',
  20866: 'koi8-r',
  21866: 'koi8-u',
  50220: 'iso-2022-jp',
  51932: 'euc-jp',
  54936: 'gb18030',
  65001: 'utf-8',
};

const codePageLabel = (page: number | undefined): string => {
  if (page === undefined) return 'utf-8';
  if (page >= 1250 && page <= 1258) return `windows-${page}`;
  if (page >= 28591 && page <= 28606) return `iso-8859-${page - 28590}`;
  return CODE_PAGES[page] ?? 'utf-8';
};

/** The HTML body: a string, or bytes in the message's code page (UTF-8 when it names none TextDecoder knows). */
function htmlBody(fields: FieldsData): string | undefined {
  if (fields.bodyHtml) return fields.bodyHtml;
  if (!fields.html) return undefined;
  const decoder = (() => {
    try {
      return new TextDecoder(codePageLabel(fields.internetCodepage));
    } catch {
      return new TextDecoder('utf-8');
    }
  })();
  return decoder.decode(fields.html);
}

/** An attachment's bytes; none when the message only refers to a file elsewhere (then named, not read). */
function attachmentBytes(reader: InstanceType<typeof MsgReader>, attachment: FieldsData) {
  try {
    return reader.getAttachment(attachment);
  } catch {
    return { fileName: '', content: new Uint8Array(0) };
  }
}

/**
 * An Outlook message (.msg, an OLE compound file) with msgreader: its subject, sender, recipients, the
 * time it was sent, its text body (else its HTML body as text) and its attachments, an attached message
 * included (as a .msg of its own). Attachments Outlook hides, and images the HTML body shows by their
 * content id, are not attachments to a reader: the latter are the message's `inline` pictures.
 */
export function readOutlookMessage(data: Uint8Array): MailMessage {
  let reader: InstanceType<typeof MsgReader>;
  let fields: FieldsData;
  try {
    reader = new MsgReader(new DataView(data.buffer, data.byteOffset, data.byteLength));
    fields = reader.getFileData();
  } catch (err) {
    throw unreadable(
      `not a readable Outlook message (${err instanceof Error ? err.message : String(err)})`,
      err,
    );
  }
  if (fields.error) throw unreadable(`not a readable Outlook message (${fields.error})`);
  const html = htmlBody(fields);
  const body = fields.body?.trim() ? fields.body : html ? htmlToText(html) : '';
  const shownInline = (a: FieldsData) => !!a.pidContentId && !!html?.includes(`cid:${a.pidContentId}`);
  return {
    subject: fields.subject,
    from: mailbox(fields.senderName, fields.senderSmtpAddress, fields.senderEmail),
    to: recipients(fields.recipients, 'to'),
    cc: recipients(fields.recipients, 'cc'),
    date: fields.clientSubmitTime ?? fields.messageDeliveryTime,
    body,
    attachments: (fields.attachments ?? [])
      .filter((a) => !a.attachmentHidden && !shownInline(a))
      .map((a) => {
        const file = attachmentBytes(reader, a);
        return {
          name: file.fileName || a.fileName || a.fileNameShort || a.name,
          content: file.content,
          mimeType: a.innerMsgContent ? 'application/vnd.ms-outlook' : (a.attachMimeTag ?? ''),
        };
      }),
    inline: (fields.attachments ?? [])
      .filter((a) => shownInline(a) && (a.attachMimeTag ?? '').startsWith('image/'))
      .map((a) => ({ content: attachmentBytes(reader, a).content })),
  };
}
