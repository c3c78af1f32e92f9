import { getDocumentProxy } from 'unpdf';
import { unreadable } from './errors';

export type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

type Transferable = ArrayBuffer & { transferToFixedLength?: (length?: number) => ArrayBuffer };

/**
 * pdf.js hands a page's fonts to its drawing side with `ArrayBuffer.prototype.transferToFixedLength`,
 * which Node has from 22 only. On Node 20 the call throws, pdf.js drops the rest of the page's drawing
 * list (it is told not to stop at errors), and whatever a page draws after its first text is lost: the
 * scan under a stamped "Page 3", the picture under a caption. Given here as the standard says: the
 * bytes move to a new buffer of that length, the old one is detached.
 */
function ensureTransferToFixedLength(): void {
  const proto = ArrayBuffer.prototype as Transferable;
  if (typeof proto.transferToFixedLength === 'function') return;
  Object.defineProperty(proto, 'transferToFixedLength', {
    configurable: true,
    writable: true,
    value(this: ArrayBuffer, length: number = this.byteLength): ArrayBuffer {
      const moved = structuredClone(this, { transfer: [this] });
      if (length === moved.byteLength) return moved;
      const sized = new Uint8Array(length);
      sized.set(new Uint8Array(moved, 0, Math.min(length, moved.byteLength)));
      return sized.buffer;
    },
  });
}

/**
 * Opens a PDF with pdf.js (the serverless build inside `unpdf`: no worker file, no downloads) over the
 * bytes given, which it takes over (it detaches a buffer they fill). `drawing`: the options a page
 * drawing needs (a canvas factory); without them no font is loaded (text and pictures are found all the
 * same). An encrypted or broken file is an unreadable document (422).
 */
export async function openPdf(data: Uint8Array, drawing?: object): Promise<PdfDocument> {
  ensureTransferToFixedLength();
  try {
    return await getDocumentProxy(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), {
      isEvalSupported: false,
      stopAtErrors: false,
      verbosity: 0,
      ...(drawing ?? { disableFontFace: true, useSystemFonts: false }),
    } as Parameters<typeof getDocumentProxy>[1]);
  } catch (err) {
    const name = err instanceof Error ? err.name : '';
    if (name === 'PasswordException') throw unreadable('encrypted PDF (password required)', err);
    throw unreadable(`not a readable PDF (${err instanceof Error ? err.message : String(err)})`, err);
  }
}
