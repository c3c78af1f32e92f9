import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { extname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { privateDir, PRIVATE_FILE_MODE } from '@atelier/db';
import { DEFAULT_LIMITS, DocumentError, detectType } from '@atelier/knowledge';
import { documentMetadata, type DocumentMetadata, type SkippedFile } from '@atelier/schemas';
import { KNOWLEDGE_EXTENSIONS, KNOWLEDGE_LIMITS } from '@atelier/schemas/constants';
import { AppError } from '../errors';
import { expandArchive, isArchive } from './upload-archive';
import { cleanFilename, discard, type FileRefusal, type StagedFile } from './staged-files';

/** One part of a multipart upload, as @fastify/multipart yields it: a file, or a form field. */
export type UploadPart =
  | { type: 'file'; fieldname: string; filename: string; mimetype: string; file: Readable }
  | { type: 'field'; fieldname: string; value: unknown };

/** What an upload carries: its files, staged on disk, and the metadata fields given for all of them. */
export interface StagedUpload {
  files: StagedFile[];
  /** Files of its archives (.zip) that were not taken, and why. */
  skipped: SkippedFile[];
  /** The `metadata` form field (a JSON object), when one was sent: each file's document gets these fields. */
  metadata: DocumentMetadata | undefined;
}

/**
 * What ingestion could never read, known by name and MIME type before any byte arrives: a type not read
 * (415 unsupported_type), an image where the collection has no OCR model to read it (422).
 */
export async function refusalOf(
  filename: string,
  mimeType: string,
  images: boolean,
): Promise<FileRefusal | undefined> {
  try {
    // No content yet: only the name and the MIME type decide (the content is checked when parsed).
    await detectType(new Uint8Array(0), filename, mimeType, DEFAULT_LIMITS);
  } catch (error) {
    if (error instanceof DocumentError && error.code === 'unsupported_document') {
      return { status: 415, code: 'unsupported_type', reason: error.detail };
    }
  }
  const image =
    KNOWLEDGE_EXTENSIONS[extname(filename).toLowerCase()] === 'image' || mimeType.startsWith('image/');
  if (image && !images) {
    return {
      status: 422,
      code: 'ocr_model_missing',
      reason: "an image is read by the collection's OCR model; choose one in the collection's settings first",
    };
  }
  return undefined;
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
 * held whole in memory; a `metadata` field (anywhere in the body) is read and checked; an archive (.zip)
 * gives its files as a folder would (upload-archive.ts), those it could not give listed in `skipped`. On
 * any refusal (a file over the limit, a refused type, an image where the collection has no OCR model:
 * `images` false) every file written so far is removed, so a refused upload leaves nothing on disk.
 */
export async function stageFiles(
  parts: AsyncIterable<UploadPart>,
  dir: string,
  options: { images: boolean },
): Promise<StagedUpload> {
  privateDir(dir);
  const staged: StagedFile[] = [];
  const skipped: SkippedFile[] = [];
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
      const archive = isArchive(filename, part.mimetype);
      const refused = archive ? undefined : await refusalOf(filename, part.mimetype, options.images);
      if (refused) throw new AppError(refused.status, refused.code, `"${filename}": ${refused.reason}.`);
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
      if (archive) {
        // The archive gives its files (each staged as an upload of its own) and goes.
        staged.pop();
        const expanded = await expandArchive(file, dir, (name) =>
          refusalOf(name, '', options.images),
        ).finally(() => discard([file]));
        staged.push(...expanded.files);
        skipped.push(...expanded.skipped);
        if (staged.length > KNOWLEDGE_LIMITS.maxArchiveDocuments) {
          throw new AppError(
            413,
            'archive_too_large',
            `An upload's archives may give at most ${KNOWLEDGE_LIMITS.maxArchiveDocuments} documents together: send them one by one.`,
          );
        }
      }
    }
  } catch (error) {
    await discard(staged);
    throw limitError(error);
  }
  if (staged.length === 0 && skipped.length > 0) {
    const some = skipped.slice(0, 3).map((f) => `"${f.filename}": ${f.detail}`);
    throw new AppError(
      422,
      'no_documents',
      `The archive holds no document Atelier reads (${some.join('; ')}${skipped.length > 3 ? '; …' : ''}).`,
    );
  }
  if (staged.length === 0) {
    throw new AppError(
      422,
      'no_files',
      'Send one or more files in "file" parts of a multipart/form-data body.',
    );
  }
  return { files: staged, metadata, skipped };
}
