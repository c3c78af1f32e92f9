import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { privateDir, PRIVATE_FILE_MODE } from '@atelier/db';
import { DEFAULT_LIMITS, DocumentError, detectType } from '@atelier/knowledge';
import { documentMetadata, type DocumentMetadata } from '@atelier/schemas';
import { KNOWLEDGE_EXTENSIONS, KNOWLEDGE_LIMITS } from '@atelier/schemas/constants';
import { AppError } from '../errors';

/** One part of a multipart upload, as @fastify/multipart yields it: a file, or a form field. */
export type UploadPart =
  | { type: 'file'; fieldname: string; filename: string; mimetype: string; file: Readable }
  | { type: 'field'; fieldname: string; value: unknown };

/** What an upload carries: its files, staged on disk, and the metadata fields given for all of them. */
export interface StagedUpload {
  files: StagedFile[];
  /** The `metadata` form field (a JSON object), when one was sent: each file's document gets these fields. */
  metadata: DocumentMetadata | undefined;
}

/** A file written to disk under a temporary name, with its sha256. */
export interface StagedFile {
  tempPath: string;
  filename: string;
  mimeType: string;
  sizeBytes: number;
  sha256: string;
}

const MAX_FILENAME = 255;

/**
 * The document's name, checked: the file's own name, or its path inside a folder that was uploaded
 * (`policies/2024/leave.pdf`, as a browser gives the files of a picked or dropped folder), so that two
 * files of one name in two folders are two documents. An absolute path (a client sending where the file
 * was on its disk) keeps only the file's name; empty, `.` and `..` segments are dropped. The name is
 * never a path on the server: an upload is stored under its document's id.
 */
function cleanFilename(raw: string): string {
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

/** Refuses early, by name and MIME type, what ingestion could never parse (415 unsupported_type). */
async function assertAccepted(filename: string, mimeType: string) {
  try {
    // No content yet: only the name and the MIME type decide (the content is checked when parsed).
    await detectType(new Uint8Array(0), filename, mimeType, DEFAULT_LIMITS);
  } catch (error) {
    if (error instanceof DocumentError && error.code === 'unsupported_document') {
      throw new AppError(415, 'unsupported_type', `"${filename}": ${error.detail}.`);
    }
  }
}

/** An image is read by the collection's OCR model only: without one it is refused at once, not failed later. */
function assertReadable(filename: string, mimeType: string, images: boolean) {
  const image =
    KNOWLEDGE_EXTENSIONS[extname(filename).toLowerCase()] === 'image' || mimeType.startsWith('image/');
  if (image && !images) {
    throw new AppError(
      422,
      'ocr_model_missing',
      `"${filename}": an image is read by the collection's OCR model; choose one in the collection's settings first.`,
    );
  }
}

/** The `metadata` form field: a JSON object of the documents' own fields, checked as a PATCH's would be. */
function metadataField(value: unknown): DocumentMetadata {
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(value));
  } catch {
    throw new AppError(
      422,
      'invalid_metadata',
      'The "metadata" field is a JSON object, such as {"department": "HR"}.',
    );
  }
  const checked = documentMetadata.safeParse(parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    const where = issue.path.length ? `"${issue.path.map(String).join('.')}": ` : '';
    throw new AppError(422, 'invalid_metadata', `The "metadata" field: ${where}${issue.message}.`);
  }
  return checked.data;
}

const MEGABYTES = KNOWLEDGE_LIMITS.maxDocumentBytes / (1024 * 1024);

/** The multipart plugin's limit errors as the API answers them. */
function limitError(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return new AppError(413, 'file_too_large', `Each file may be at most ${MEGABYTES} MB.`);
  }
  if (code === 'FST_FILES_LIMIT') {
    return new AppError(
      413,
      'too_many_files',
      `An upload carries at most ${KNOWLEDGE_LIMITS.maxFilesPerUpload} files.`,
    );
  }
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new AppError(413, 'too_many_parts', 'The upload has too many parts.');
  }
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
    return new AppError(415, 'unsupported_media_type', 'Send the files as multipart/form-data.');
  }
  return error;
}

/**
 * Streams every file part to `dir` under a temporary name while its sha256 is computed: nothing is
 * held whole in memory; a `metadata` field (anywhere in the body) is read and checked. On any refusal (a file over the limit, a refused type, an image where the
 * collection has no OCR model: `images` false) every file written so far is removed, so a refused
 * upload leaves nothing on disk.
 */
export async function stageFiles(
  parts: AsyncIterable<UploadPart>,
  dir: string,
  options: { images: boolean },
): Promise<StagedUpload> {
  privateDir(dir);
  const staged: StagedFile[] = [];
  let metadata: DocumentMetadata | undefined;
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldname !== 'metadata') {
          throw new AppError(
            422,
            'unknown_field',
            `An upload takes "file" parts and one "metadata" field, not "${part.fieldname}".`,
          );
        }
        metadata = metadataField(part.value);
        continue;
      }
      const filename = cleanFilename(part.filename);
      await assertAccepted(filename, part.mimetype);
      assertReadable(filename, part.mimetype, options.images);
      const tempPath = join(dir, `.upload-${randomUUID()}`);
      const hash = createHash('sha256');
      let sizeBytes = 0;
      const file = { tempPath, filename, mimeType: part.mimetype, sizeBytes, sha256: '' };
      staged.push(file);
      await pipeline(
        part.file,
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            hash.update(chunk);
            sizeBytes += chunk.length;
            yield chunk;
          }
        },
        createWriteStream(tempPath, { flags: 'wx', mode: PRIVATE_FILE_MODE }),
      );
      file.sizeBytes = sizeBytes;
      file.sha256 = hash.digest('hex');
    }
  } catch (error) {
    await discard(staged);
    throw limitError(error);
  }
  if (staged.length === 0) {
    throw new AppError(
      422,
      'no_files',
      'Send one or more files in "file" parts of a multipart/form-data body.',
    );
  }
  return { files: staged, metadata };
}

/** Removes staged files that were not kept. */
export async function discard(files: readonly StagedFile[]) {
  await Promise.all(files.map((f) => unlink(f.tempPath).catch(() => undefined)));
}

/** Puts a staged file in its place (replacing the previous upload of the same document). */
export const keep = (file: StagedFile, path: string) => rename(file.tempPath, path);
