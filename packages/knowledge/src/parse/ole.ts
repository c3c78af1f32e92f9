import CFB from 'cfb';
import { unreadable, unsupported } from './errors';
import type { DocumentType } from './types';

/** An OLE compound file (Office 97-2003, Outlook .msg) starts with this signature. */
const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

export const isOle = (data: Uint8Array) => OLE_SIGNATURE.every((b, i) => data[i] === b);

/** The compound file's directory, read with `cfb`. */
export function readContainer(data: Uint8Array): CFB.CFB$Container {
  try {
    return CFB.read(data, { type: 'buffer' });
  } catch (err) {
    throw unreadable(
      `not a readable OLE compound file (${err instanceof Error ? err.message : String(err)})`,
      err,
    );
  }
}

/** The streams and storages at a compound file's root. */
function rootNames(container: CFB.CFB$Container): Set<string> {
  const root = container.FullPaths[0] ?? '';
  return new Set(
    container.FullPaths.filter((path) => path.startsWith(root) && path !== root)
      .map((path) => path.slice(root.length))
      .filter((name) => name && !name.slice(0, -1).includes('/'))
      .map((name) => name.replace(/\/$/, '')),
  );
}

/**
 * Which legacy Office file an OLE compound file is, from the streams at its root: a Word 97-2003
 * document (`WordDocument`), an Excel 97-2003 workbook (`Workbook`, or `Book` for Excel 5), a
 * PowerPoint 97-2003 presentation (`PowerPoint Document`) or an Outlook message (`__substg1.0_…`).
 */
export function oleKind(data: Uint8Array): DocumentType {
  const container = readContainer(data);
  const names = rootNames(container);
  if ([...names].some((n) => n.startsWith('__substg1.0_') || n === '__properties_version1.0')) return 'email';
  if (names.has('WordDocument')) {
    // The File Information Block's fEncrypted flag (MS-DOC 2.5.2): the text would read as noise.
    const fib = CFB.find(container, 'WordDocument')?.content;
    if (fib && fib.length > 11 && (fib[11]! & 0x01) !== 0) {
      throw unreadable('a password-protected Word document cannot be read; save it without a password');
    }
    return 'doc';
  }
  if (names.has('Workbook') || names.has('Book')) return 'xls';
  if (names.has('PowerPoint Document')) return 'ppt';
  throw unsupported(
    'an OLE compound file that is not a Word, Excel or PowerPoint 97-2003 file nor an Outlook message (.msg)',
  );
}
