import { rename, unlink } from 'node:fs/promises';
import { AppError } from '../errors';

const MAX_FILENAME = 255;

/**
 * The document's name, checked: the file's own name, or its path inside a folder that was uploaded
 * (`policies/2024/leave.pdf`, as a browser gives the files of a picked or dropped folder), so that two
 * files of one name in two folders are two documents. An absolute path (a client sending where the file
 * was on its disk) keeps only the file's name; empty, `.` and `..` segments are dropped. The name is
 * never a path on the server: an upload is stored under its document's id.
 */
export function cleanFilename(raw: string): string {
  const path = raw.replace(/\\/g, '/').trim();
  const segments = path
    .split('/')
    .map((segment) => segment.trim())
    .filter((segment) => segment !== '' && segment !== '.' && segment !== '..');
  const absolute = path.startsWith('/') || /^[a-z]:\//i.test(path);
  const name = absolute ? (segments.at(-1) ?? '') : segments.join('/');
  if (!name || name.length > MAX_FILENAME || [...name].some((c) => c.charCodeAt(0) < 0x20)) {
    throw new AppError(422, 'invalid_filename', `Each file needs a name of 1 to ${MAX_FILENAME} characters.`);
  }
  return name;
}

/** A file written to disk under a temporary name, with its sha256. */
export interface StagedFile {
  tempPath: string;
  filename: string;
  mimeType: string;
  sizeBytes: number;
  sha256: string;
}

/** Why a file would not be taken, in words that follow its name; its status and code when it is refused alone. */
export interface FileRefusal {
  status: number;
  code: 'unsupported_type' | 'ocr_model_missing';
  reason: string;
}

/** Removes staged files that were not kept. */
export async function discard(files: readonly StagedFile[]) {
  await Promise.all(files.map((f) => unlink(f.tempPath).catch(() => undefined)));
}

/** Puts a staged file in its place (replacing the previous upload of the same document). */
export const keep = (file: StagedFile, path: string) => rename(file.tempPath, path);
