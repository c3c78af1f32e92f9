import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createAdapters } from '../src';
import { ProviderError } from '../src/errors';
import { parseEmbeddingsBody } from '../src/openai/embeddings-body';
import { decodeEmbedding } from '../src/openai/media';

const base64 = (values: number[]) => Buffer.from(new Float32Array(values).buffer).toString('base64');
/** A vector whose base64 holds `/` (`////Pvvvvj8=`), which an escaping server writes `\/`. */
const slashy = [0.4999999701976776, 1.4916986227035522];

/** What the SDK's own path gives: the whole body parsed, each embedding decoded. */
function reference(text: string): unknown {
  const body = JSON.parse(text) as { data: { embedding: unknown }[] };
  for (const item of body.data) item.embedding = decodeEmbedding(item.embedding);
  return body;
}

const parse = (text: string) => parseEmbeddingsBody(Buffer.from(text), decodeEmbedding);

describe('parseEmbeddingsBody', () => {
  it('gives what parsing the whole answer gives, for compact, pretty-printed and escaped answers', () => {
    expect(base64(slashy)).toMatch(/\//);
    const answer = {
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: base64([0.5, -2, 3]) },
        { embedding: base64(slashy), index: 1, object: 'embedding' },
        { object: 'embedding', index: 2, embedding: [0.6, 0.8] },
      ],
      model: 'modèle "embedding":"AAAA" \\',
      usage: { prompt_tokens: 7, total_tokens: 7 },
    };
    const texts = [
      JSON.stringify(answer),
      JSON.stringify(answer, null, 2),
      // Some servers escape every slash, as PHP does.
      JSON.stringify(answer).replaceAll('/', '\\/'),
      JSON.stringify(answer).replaceAll('"embedding":', '"embedding" :\n '),
    ];
    for (const text of texts) {
      const parsed = parse(text);
      expect(parsed).toEqual(reference(text));
      expect((parsed as typeof answer).model).toBe(answer.model);
      expect((parsed as { data: { embedding: unknown }[] }).data[1]!.embedding).toEqual(
        slashy.map((v) => Math.fround(v)),
      );
    }
  });

  it('is not fooled by the word embedding inside another string', () => {
    const text = JSON.stringify({
      data: [{ index: 0, embedding: base64([1, 2]) }],
      note: 'an "embedding": "#0" here, and \\"embedding\\":\\"QUJD\\"',
    });
    expect(parse(text)).toEqual(reference(text));
  });

  it("a body that is not JSON, or has no data list, is the provider's error", () => {
    for (const bad of ['<html>busy</html>', '{"data": [{"embedding": "AAAA"', '{"object":"list"}', 'null']) {
      expect(() => parse(bad)).toThrow(ProviderError);
    }
  });
});

describe('embeddings read through a server', () => {
  it('a pretty-printed, slash-escaping server gives the same vectors in order', async () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const body = {
          object: 'list',
          data: [
            { object: 'embedding', index: 1, embedding: base64(slashy) },
            { object: 'embedding', index: 0, embedding: base64([0.25, 4]) },
          ],
          usage: { prompt_tokens: 9, total_tokens: 9 },
        };
        res.end(JSON.stringify(body, null, 1).replaceAll('/', '\\/'));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const adapters = createAdapters({
        urlPolicy: { mode: 'any' },
        kind: 'openai_compatible',
        apiKey: 'k',
        baseUrl: `http://127.0.0.1:${port}/v1`,
        timeoutMs: 5_000,
      });
      const { vectors, usage } = await adapters.embeddings!.embed('m', ['a', 'b']);
      expect(vectors).toEqual([[0.25, 4], slashy.map((v) => Math.fround(v))]);
      expect(usage.inputTokens).toBe(9);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
