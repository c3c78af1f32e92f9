import { createHash } from 'node:crypto';
import { ApiError, invalid } from './errors';
import { nowSeconds, randomId, requireModel, requireObject, requireString, sendJson } from './exchange';
import { solidPng } from './media-bytes';
import { passModelSwitches } from './model-switches';
import type { Exchange } from './types';

function parseSize(size: unknown): [number, number] {
  if (size === undefined || size === 'auto') return [1024, 1024];
  const match = typeof size === 'string' ? /^(\d{1,4})x(\d{1,4})$/.exec(size) : null;
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  if (!match || width < 1 || height < 1) throw invalid(`Invalid size '${String(size)}'.`);
  return [width, height];
}

/** POST /v1/images/generations */
export async function generateImages(ex: Exchange): Promise<void> {
  const body = requireObject(ex.json);
  const model = requireModel(ex, body);
  const prompt = requireString(body, 'prompt');
  const n = body.n ?? 1;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 10) throw invalid("'n' must be 1 to 10.");
  if (model === 'dall-e-3' && n > 1) {
    throw new ApiError(400, 'invalid', 'You must provide n=1 for this model.', 'invalid_value');
  }
  const [width, height] = parseSize(body.size);
  // gpt-image models always answer base64; dall-e defaults to a URL.
  const format = model.startsWith('gpt-image') ? 'b64_json' : (body.response_format ?? 'url');
  if (format !== 'url' && format !== 'b64_json')
    throw invalid("'response_format' must be 'url' or 'b64_json'.");
  if (!(await passModelSwitches(ex, model, false))) return;

  const data = Array.from({ length: n }, (_, index) => {
    // The colour follows prompt and index, so different requests give recognisably different images.
    const hash = createHash('sha1').update(`${prompt}#${index}`).digest();
    const png = solidPng(width, height, [hash[0] ?? 0, hash[1] ?? 0, hash[2] ?? 0]);
    let image: Record<string, string>;
    if (format === 'b64_json') {
      image = { b64_json: png.toString('base64') };
    } else {
      const id = randomId('img-');
      ex.state.files.set(id, { contentType: 'image/png', bytes: png });
      image = { url: `${ex.state.baseUrl}/files/${id}` };
    }
    // dall-e-2 does not rewrite prompts, so it sends no revised_prompt.
    return model === 'dall-e-2' ? image : { ...image, revised_prompt: `A picture of: ${prompt}` };
  });
  sendJson(ex.res, 200, { created: nowSeconds(), data });
}

/** GET /files/{id}: where image URLs point (unauthenticated, like the real signed blob URLs). */
export function servedFile(ex: Exchange): void {
  const file = ex.state.files.get(decodeURIComponent(ex.params[0] ?? ''));
  if (!file) throw new ApiError(404, 'not-found', 'No such file');
  ex.res.writeHead(200, { 'content-type': file.contentType, 'content-length': file.bytes.length });
  ex.res.end(file.bytes);
}
