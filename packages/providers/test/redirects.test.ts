import { createServer, type Server } from 'node:http';
import type { UrlPolicy } from '@atelier/net';
import { startFakeProvider, type FakeProvider } from '@atelier/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapters, ProviderError, type ProviderConfig } from '../src';

// The fake provider is the forbidden target: reached through 0.0.0.0 (which Linux connects to the
// loopback listener) or named by the metadata address. A second local server redirects every request
// there, as a hostile base_url would.
let fake: FakeProvider;
let redirector: Server;
let redirectorUrl = '';
let redirectTo = '';
let redirectStatus = 302;
let redirects = 0;

beforeAll(async () => {
  fake = await startFakeProvider();
  redirector = createServer((req, res) => {
    redirects += 1;
    req.resume();
    res.writeHead(redirectStatus, { location: `${redirectTo}${req.url ?? '/'}` }).end();
  });
  await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
  redirectorUrl = `http://127.0.0.1:${(redirector.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => redirector.close(() => r()));
  await fake.close();
});

const fakePort = () => new URL(fake.url).port;
const user = (content: string) => ({ role: 'user' as const, content });

/** Every provider call that a base_url reaches, by kind; each must be refused. */
const calls: [string, ProviderConfig['kind'], string, (config: ProviderConfig) => Promise<unknown>][] = [
  [
    'chat (SDK)',
    'openai_compatible',
    '/v1',
    (c) => createAdapters(c).chat!.complete({ model: 'gpt-4o-mini', messages: [user('hi')] }),
  ],
  [
    'streamed chat (node:http SSE)',
    'openai_compatible',
    '/v1',
    async (c) => {
      for await (const event of createAdapters(c).chat!.stream({
        model: 'gpt-4o-mini',
        messages: [user('hi')],
      }))
        void event;
    },
  ],
  [
    'embeddings (providerPost)',
    'openai_compatible',
    '/v1',
    (c) => createAdapters(c).embeddings!.embed('e', ['x']),
  ],
  [
    'text-to-speech (SDK)',
    'openai',
    '/v1',
    (c) =>
      createAdapters(c).textToSpeech!.speak({
        model: 'tts-1',
        input: 'Hello',
        voice: 'alloy',
        format: 'mp3',
      }),
  ],
  ['models list (SDK)', 'openai_compatible', '/v1', (c) => createAdapters(c).listModels()],
  [
    'Anthropic chat (providerFetch)',
    'anthropic',
    '',
    (c) => createAdapters(c).chat!.complete({ model: 'claude-sonnet-4-5', messages: [user('hi')] }),
  ],
  ['Anthropic models (providerFetch)', 'anthropic', '', (c) => createAdapters(c).listModels()],
  ['Ollama models (providerFetch)', 'ollama', '/v1', (c) => createAdapters(c).listModels()],
  [
    'rerank (providerFetch)',
    'rerank',
    '/v2',
    (c) => createAdapters(c).rerank!.rerank({ model: 'rerank-v3.5', query: 'q', documents: ['a', 'b'] }),
  ],
  [
    'Mistral OCR (providerFetch)',
    'mistral',
    '/v1',
    (c) => createAdapters(c).ocr!.read('mistral-ocr-latest', 'data:image/png;base64,AAAA'),
  ],
];

const policies: [string, UrlPolicy][] = [
  ['any', { mode: 'any' }],
  ['public-only, the redirecting server allowed', { mode: 'public-only', allow: ['127.0.0.1'] }],
];

describe('provider calls follow no redirect to a refused address', () => {
  it('(the redirecting server does lead to the provider, for a client that follows blindly)', async () => {
    redirectTo = `http://0.0.0.0:${fakePort()}`;
    const before = fake.requests.length;
    const res = await fetch(`${redirectorUrl}/v1/models`);
    expect(res.url).toBe(`http://0.0.0.0:${fakePort()}/v1/models`);
    expect(fake.requests.slice(before).map((r) => r.path)).toEqual(['/v1/models']);
  });

  for (const [policyName, urlPolicy] of policies) {
    it(`refuses every kind of call under ${policyName}, and the target never answers`, async () => {
      const statuses = [301, 302, 303, 307, 308];
      let turn = 0;
      for (const target of [
        `http://0.0.0.0:${fakePort()}`,
        'http://169.254.169.254',
        'http://[::ffff:0:0]:1',
      ]) {
        for (const [name, kind, path, run] of calls) {
          redirectTo = target;
          redirectStatus = statuses[turn++ % statuses.length]!;
          const before = { hits: fake.requests.length, redirects };
          const config: ProviderConfig = {
            urlPolicy,
            kind,
            baseUrl: `${redirectorUrl}${path}`,
            apiKey: 'test-key',
            timeoutMs: 3000,
            maxRetries: 0,
          };
          const outcome = await run(config).then(
            (value) => ({ value }),
            (error: unknown) => ({ error }),
          );
          const label = `${name} → ${redirectTo} (${redirectStatus})`;
          expect(outcome, label).toHaveProperty('error');
          const error = (outcome as { error: unknown }).error;
          expect(error, label).toBeInstanceOf(ProviderError);
          expect(error, label).toMatchObject({ code: 'unsafe_redirect', status: 502 });
          expect((error as ProviderError).detail).toMatch(
            /^The provider URL redirected to a private or reserved address/,
          );
          expect(redirects - before.redirects, label).toBeGreaterThan(0);
          expect(fake.requests.length - before.hits, label).toBe(0);
        }
      }
    });
  }

  it('SDK retries change nothing: still refused, still never at the target', async () => {
    redirectTo = `http://0.0.0.0:${fakePort()}`;
    redirectStatus = 307;
    const before = fake.requests.length;
    const error = await createAdapters({
      urlPolicy: { mode: 'any' },
      kind: 'openai_compatible',
      baseUrl: `${redirectorUrl}/v1`,
      apiKey: 'test-key',
      timeoutMs: 3000,
      maxRetries: 1,
    })
      .embeddings!.embed('e', ['x'])
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'unsafe_redirect' });
    expect(fake.requests.length - before).toBe(0);
  });

  it('a base URL that is itself refused fails as unsafe_url before any request', async () => {
    const before = { hits: fake.requests.length, redirects };
    for (const [, kind, path, run] of calls) {
      const error = await run({
        urlPolicy: { mode: 'public-only' },
        kind,
        baseUrl: `${fake.url}${path}`,
        apiKey: 'test-key',
        maxRetries: 0,
      }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'unsafe_url', status: 422 });
    }
    expect(fake.requests.length - before.hits).toBe(0);
  });

  it('follows a redirect the policy allows, without the key: it was for the first origin only', async () => {
    redirectTo = fake.url;
    redirectStatus = 307;
    const before = fake.requests.length;
    const chat = createAdapters({
      urlPolicy: { mode: 'any' },
      kind: 'openai_compatible',
      baseUrl: `${redirectorUrl}/v1`,
      apiKey: 'test-key',
      maxRetries: 0,
    }).chat!;
    const error = await chat
      .complete({ model: 'gpt-4o-mini', messages: [user('hello')] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'bad_credentials' });
    const seen = fake.requests.slice(before);
    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/chat/completions']);
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[0]!.body).toMatchObject({ model: 'gpt-4o-mini' });
  });
});
