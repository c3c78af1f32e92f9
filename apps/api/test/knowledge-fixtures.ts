import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { request } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { call, fakeModel, type Org } from './helpers';

export interface UploadFile {
  filename: string;
  content: string | Buffer;
  mimeType?: string;
}

/** A multipart/form-data body of `file` parts, then form fields, for inject. */
export function multipart(
  files: UploadFile[],
  fields: Record<string, string> = {},
): { payload: Buffer; contentType: string } {
  const boundary = `atelier-${randomBytes(8).toString('hex')}`;
  const parts = files.flatMap((f) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.filename}"\r\n` +
        `Content-Type: ${f.mimeType ?? 'text/plain'}\r\n\r\n`,
    ),
    Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content),
    Buffer.from('\r\n'),
  ]);
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  return {
    payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** Uploads files to a collection through inject; answers status and JSON body. */
export async function upload(
  app: FastifyInstance,
  token: string,
  collectionId: string,
  files: UploadFile[],
  fields?: Record<string, string>,
) {
  const { payload, contentType } = multipart(files, fields);
  const res = await app.inject({
    method: 'POST',
    url: `/rag_collections/${collectionId}/documents`,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload,
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

/**
 * Streams one generated text file of `size` bytes to a listening server over real HTTP, as a browser
 * would, never holding it whole; stops sending once the server has answered (e.g. 413 mid-way).
 */
export function streamUpload(
  baseUrl: string,
  token: string,
  collectionId: string,
  filename: string,
  size: number,
): Promise<{ status: number; body: any }> {
  const boundary = `atelier-${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
      'Content-Type: text/plain\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const line = Buffer.from('Atelier streams uploads to disk, a chunk at a time.\n');
  const block = Buffer.concat(Array.from({ length: Math.ceil(65_536 / line.length) }, () => line));
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(`${baseUrl}/rag_collections/${collectionId}/documents`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + size + tail.length,
      },
    });
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) });
      });
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    void (async () => {
      req.write(head);
      let left = size;
      while (left > 0 && !answered) {
        const piece = left >= block.length ? block : block.subarray(0, left);
        left -= piece.length;
        if (!req.write(piece)) await once(req, 'drain');
      }
      if (!answered) req.end(tail);
    })().catch(() => undefined);
  });
}

/** An embeddings model on the fake provider and a built-in RAG collection using it. */
export async function builtinCollection(
  app: FastifyInstance,
  org: Org,
  workspaceId: string,
  fakeUrl: string,
  name = 'Handbook',
): Promise<{ collectionId: string; modelId: string }> {
  const { modelId } = await fakeModel(app, org, workspaceId, fakeUrl, {
    name: 'text-embedding-3-small',
    type: 'text-embeddings',
  });
  const res = await call(app, 'POST', '/rag_collections', {
    token: org.admin.token,
    body: { workspace_id: workspaceId, name, embeddings_model_id: modelId },
  });
  if (res.status !== 201)
    throw new Error(`create collection failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { collectionId: res.body.id as string, modelId };
}

/** Embeddings of texts by a workspace model, through the API. */
export async function embed(app: FastifyInstance, token: string, modelId: string, texts: string[]) {
  const res = await call(app, 'POST', `/models/${modelId}/invoke`, { token, body: { input: texts } });
  if (res.status !== 200) throw new Error(`embed failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.output.embeddings as number[][];
}
