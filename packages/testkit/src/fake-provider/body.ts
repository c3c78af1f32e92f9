import type { IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { invalid, type ApiError } from './errors';

export interface ParsedBody {
  json: unknown;
  form: FormData | undefined;
  /** What `requests` records: JSON as parsed, multipart as a plain object, other text as is. */
  recorded: unknown;
  /** A body that claimed to be JSON or multipart but is not; reported after authentication. */
  error: ApiError | undefined;
}

const DECODERS: Record<string, (bytes: Buffer) => Buffer> = {
  gzip: gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const decode = DECODERS[String(req.headers['content-encoding'] ?? '')];
  return decode && raw.length > 0 ? decode(raw) : raw;
}

function formRecord(form: FormData): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [name, value] of form) {
    record[name] =
      typeof value === 'string' ? value : { filename: value.name, type: value.type, size: value.size };
  }
  return record;
}

export async function parseBody(req: IncomingMessage, raw: Buffer): Promise<ParsedBody> {
  const none = { json: undefined, form: undefined, error: undefined };
  if (raw.length === 0) return { ...none, recorded: undefined };
  const type = String(req.headers['content-type'] ?? '');
  if (type.startsWith('multipart/form-data')) {
    try {
      // undici's Request already implements multipart parsing; no hand-written parser needed.
      const request = new Request('http://fake-provider/', {
        method: 'POST',
        headers: { 'content-type': type },
        body: new Uint8Array(raw),
      });
      const form = await request.formData();
      return { ...none, form, recorded: formRecord(form) };
    } catch {
      return { ...none, recorded: raw.toString('latin1'), error: invalid('Could not parse multipart form.') };
    }
  }
  const text = raw.toString('utf8');
  if (!type.includes('json') && !/^\s*[{[]/.test(text)) return { ...none, recorded: text };
  try {
    const json: unknown = JSON.parse(text);
    return { ...none, json, recorded: json };
  } catch {
    return { ...none, recorded: text, error: invalid('We could not parse the JSON body of your request.') };
  }
}
