import { createHash, randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { PRIVATE_FILE_MODE } from '@atelier/db';
import { DEFAULT_LIMITS, DocumentError, ZipArchive } from '@atelier/knowledge';
import type { SkippedFile } from '@atelier/schemas';
import {
  ARCHIVE_EXTENSIONS,
  ARCHIVE_MIME_TYPES,
  isFolderClutter,
  KNOWLEDGE_LIMITS,
} from '@atelier/schemas/constants';
import { AppError } from '../errors';
import { cleanFilename, discard, type FileRefusal, type StagedFile } from './staged-files';

/** A file an upload takes as a folder: a .zip (by its name, or its MIME type). */
export const isArchive = (filename: string, mimeType: string) =>
  ARCHIVE_EXTENSIONS.includes(extname(filename).toLowerCase()) ||
  ARCHIVE_MIME_TYPES.includes(mimeType.toLowerCase());

const LIMITS = {
  ...DEFAULT_LIMITS,
  maxUncompressedBytes: KNOWLEDGE_LIMITS.maxArchiveExpandedBytes,
  maxEntries: 20_000,
};
const MEGABYTES = KNOWLEDGE_LIMITS.maxDocumentBytes / (1024 * 1024);

/** An archive's file: the name its document gets, or why it is left out. */
type Planned = { entry: string; name: string } | SkippedFile;

/**
 * Where an archive's files go: under a folder named as the archive (`policies.zip` gives
 * `policies/leave.pdf`), or, when every file already sits in one top folder (as a zipped folder
 * holds), under that folder. An archive inside a folder upload keeps that folder before.
 */
function folderOf(archiveName: string, entries: readonly string[]): string {
  const ext = extname(archiveName);
  const base = ext ? archiveName.slice(0, -ext.length) : archiveName;
  const tops = new Set(entries.map((name) => (name.includes('/') ? name.split('/')[0] : '')));
  if (tops.size === 1 && !tops.has('')) return base.slice(0, base.lastIndexOf('/') + 1);
  return `${base}/`;
}

/** The checked name of an archive's file, or undefined when it cannot be a document's. */
function nameOf(path: string): string | undefined {
  try {
    return cleanFilename(path);
  } catch (error) {
    if (error instanceof AppError) return undefined;
    throw error;
  }
}

/** The refusal's reason without the list of every accepted ending a refused type's detail ends with. */
const shortReason = (refusal: FileRefusal) => refusal.reason.replace(/; accepted: .*$/, '');

/**
 * An uploaded archive's files, each staged as an upload of its own (named by its path, as a folder's
 * files are), and those left out with why: a type not read, an image without an OCR model, over the
 * size limit, an archive inside it, a damaged or encrypted entry. Hidden files and macOS or Windows
 * bookkeeping are left out without a word. Refused whole (nothing staged) when it is no readable ZIP,
 * expands beyond `maxArchiveExpandedBytes` or would give more than `maxArchiveDocuments` documents.
 * The archive is read into memory (it is at most `maxDocumentBytes`), its files inflated one by one.
 */
export async function expandArchive(
  archive: StagedFile,
  dir: string,
  refusal: (filename: string) => Promise<FileRefusal | undefined>,
): Promise<{ files: StagedFile[]; skipped: SkippedFile[] }> {
  const what = `"${archive.filename}"`;
  let zip: ZipArchive;
  try {
    zip = ZipArchive.open(new Uint8Array(await readFile(archive.tempPath)), LIMITS);
  } catch (error) {
    if (!(error instanceof DocumentError)) throw error;
    // Too many entries (413), or no readable ZIP (422).
    if (error.status === 413) throw new AppError(413, 'archive_too_large', `${what}: ${error.detail}.`);
    throw new AppError(422, 'unreadable_archive', `${what}: ${error.detail}.`);
  }
  const entries = [...zip.entries.keys()].filter((name) => !isFolderClutter(name));
  const folder = folderOf(archive.filename, entries);
  const names = new Set<string>();
  const planned: Planned[] = [];
  for (const entry of entries) {
    const name = nameOf(`${folder}${entry}`);
    const size = zip.entries.get(entry)!.size;
    const skip = (code: SkippedFile['code'], detail: string) =>
      planned.push({ filename: name ?? entry, code, detail });
    if (name === undefined) {
      skip('invalid_filename', 'its name is longer than 255 characters or holds control characters');
      continue;
    }
    const seen = names.has(name);
    names.add(name);
    if (isArchive(entry, '')) {
      skip('nested_archive', 'an archive inside an archive is not opened; upload it on its own');
      continue;
    }
    if (seen) skip('duplicate_name', 'the archive holds another file of this name');
    else if (size > KNOWLEDGE_LIMITS.maxDocumentBytes) skip('file_too_large', `larger than ${MEGABYTES} MB`);
    else {
      // Only a file that passed the checks above is asked about its type.
      const refused = await refusal(name);
      if (refused) skip(refused.code, shortReason(refused));
      else planned.push({ entry, name });
    }
  }
  const taken = planned.filter((p) => 'entry' in p).length;
  if (taken > KNOWLEDGE_LIMITS.maxArchiveDocuments) {
    throw new AppError(
      413,
      'archive_too_large',
      `${what} holds ${taken} documents; an archive may give at most ${KNOWLEDGE_LIMITS.maxArchiveDocuments}: upload its folders one by one.`,
    );
  }
  const files: StagedFile[] = [];
  const skipped: SkippedFile[] = [];
  try {
    for (const plan of planned) {
      if (!('entry' in plan)) {
        skipped.push(plan);
        continue;
      }
      let bytes: Uint8Array;
      try {
        bytes = (await zip.read(plan.entry))!;
      } catch (error) {
        if (!(error instanceof DocumentError)) throw error;
        // Beyond the archive's limit nothing more can be read: the upload is refused whole.
        if (error.code === 'document_too_large') {
          throw new AppError(413, 'archive_too_large', `${what}: ${error.detail}.`);
        }
        skipped.push({ filename: plan.name, code: 'damaged', detail: 'damaged or encrypted in the archive' });
        continue;
      }
      const tempPath = join(dir, `.upload-${randomUUID()}`);
      await writeFile(tempPath, bytes, { flag: 'wx', mode: PRIVATE_FILE_MODE });
      files.push({
        tempPath,
        filename: plan.name,
        // The name tells the type (and the content, when parsed).
        mimeType: 'application/octet-stream',
        sizeBytes: bytes.byteLength,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      });
    }
  } catch (error) {
    await discard(files);
    throw error;
  }
  return { files, skipped };
}
