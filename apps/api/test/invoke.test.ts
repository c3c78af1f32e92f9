import { Writable } from 'node:stream';
import { creditLedger, creditPlans, inferenceLogs } from '@atelier/db';
import { sharedTestDatabase, startFakeProvider, type FakeProvider } from '@atelier/testkit';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { call, createOrg, testConfig, type Org } from './helpers';

/**
 * Every model type through the API, against the fake provider, with the server's own logger
 * captured so that we can look for the API key in every log line too.
 */
const KEY = 'test-key';
const logLines: string[] = [];
let fake: FakeProvider;
let app: FastifyInstance;
let org: Org;
let ws: string;
let providerId: string;
const modelIds: Record<string, string> = {};

beforeAll(async () => {
  fake = await startFakeProvider({ apiKey: KEY });
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  app = await buildApp({
    config: testConfig({ PROVIDER_TIMEOUT_MS: '1500' }),
    database: await sharedTestDatabase(),
    logger: { level: 'trace', stream },
  });
  org = await createOrg(app);
  ws = await org.workspace(org.admin, 'Invoke');
  providerId = (
    await call(app, 'POST', '/providers', {
      token: org.admin.token,
      body: {
        workspace_id: ws,
        name: 'Fake',
        kind: 'openai_compatible',
        base_url: `${fake.url}/v1`,
        api_key: KEY,
      },
    })
  ).body.provider_id;
  const add = async (model_name: string, model_type: string, pricing = {}, key = model_name) => {
    const res = await call(app, 'POST', '/models', {
      token: org.admin.token,
      body: { workspace_id: ws, provider_id: providerId, model_name, model_type, pricing },
    });
    modelIds[key] = res.body.model_id;
  };
  await add('gpt-4o-mini', 'llm', { input_per_1k: 10, output_per_1k: 20 });
  await add('gpt-4o', 'llm-multimodal');
  await add('text-embedding-3-small', 'text-embeddings', { input_per_1k: 1 });
  await add('dall-e-3', 'text-to-image', { per_image: 4 });
  await add('tts-1', 'text-to-speech');
  await add('whisper-1', 'speech-to-text', { per_call: 1 });
  await add('gpt-4o', 'ocr', {}, 'ocr');
  await add('sora-2', 'text-to-video', { per_second: 2 });
  await add('fail-500', 'llm');
  await add('stall', 'llm');
  const rerankProvider = (
    await call(app, 'POST', '/providers', {
      token: org.admin.token,
      body: { workspace_id: ws, name: 'Rerank', kind: 'rerank', base_url: `${fake.url}/v1`, api_key: KEY },
    })
  ).body.provider_id;
  const rerank = await call(app, 'POST', '/models', {
    token: org.admin.token,
    body: {
      workspace_id: ws,
      provider_id: rerankProvider,
      model_name: 'rerank-v3.5',
      model_type: 'rerank',
      pricing: { per_call: 0.5 },
    },
  });
  modelIds['rerank-v3.5'] = rerank.body.model_id;
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

const invoke = (model: string, body: object, id = modelIds[model]) =>
  call(app, 'POST', `/models/${id}/invoke`, { token: org.admin.token, body });

describe('model calls through the API', () => {
  it('test connection and the remote model list work with the stored key', async () => {
    const test = await call(app, 'POST', `/providers/${providerId}/test`, { token: org.admin.token });
    expect(test.body).toMatchObject({ ok: true, latency_ms: expect.any(Number) });
    const remote = await call(app, 'GET', `/providers/${providerId}/remote-models`, {
      token: org.admin.token,
    });
    expect(remote.body.models).toContainEqual({
      name: 'text-embedding-3-small',
      suggested_type: 'text-embeddings',
    });
  });

  it('a wrong key makes the connection test fail with a clear reason', async () => {
    const bad = await call(app, 'POST', '/providers', {
      token: org.admin.token,
      body: {
        workspace_id: ws,
        name: 'Bad',
        kind: 'openai_compatible',
        base_url: `${fake.url}/v1`,
        api_key: 'wrong-key',
      },
    });
    const test = await call(app, 'POST', `/providers/${bad.body.provider_id}/test`, {
      token: org.admin.token,
    });
    expect(test.body.ok).toBe(false);
    expect(test.body.detail).toMatch(/API key/);
  });

  it('chat: text, usage, first-token time, and credits charged', async () => {
    const before = (await call(app, 'GET', '/credits/plan', { token: org.admin.token })).body
      .remaining_monthly_credits;
    const res = await invoke('gpt-4o-mini', {
      messages: [{ role: 'user', content: 'hello world' }],
      system: 'Be brief',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      model_type: 'llm',
      fallback: false,
      output: { text: 'Echo: hello world' },
    });
    expect(res.body.usage.output_tokens).toBeGreaterThan(0);
    expect(res.body.timings.first_token_ms).toBeGreaterThanOrEqual(0);
    expect(res.body.credits).toBeGreaterThan(0);
    const after = (await call(app, 'GET', '/credits/plan', { token: org.admin.token })).body
      .remaining_monthly_credits;
    expect(before - after).toBeCloseTo(res.body.credits, 4);
  });

  it('multimodal, embeddings, images, speech both ways, OCR and video', async () => {
    const vision = await invoke('gpt-4o', {
      messages: [{ role: 'user', content: 'describe' }],
      images: ['data:image/png;base64,AAAA'],
    });
    expect(vision.body.output.text).toBe('Echo: describe [1 image(s)]');

    const emb = await invoke('text-embedding-3-small', { input: ['a cat', 'a dog'] });
    expect(emb.body.output.embeddings).toHaveLength(2);
    expect(emb.body.output.dimensions).toBe(64);

    const image = await invoke('dall-e-3', {
      prompt: 'a fox',
      size: '1024x1024',
      quality: 'standard',
      style: 'vivid',
    });
    expect(image.body.output.images).toHaveLength(1);
    expect(image.body.credits).toBe(4);

    const speech = await invoke('tts-1', {
      input: 'Bonjour',
      voice: 'alloy',
      response_format: 'mp3',
      speed: 1,
    });
    expect(speech.body.output.audio).toMatch(/^data:audio\/mpeg;base64,/);

    const transcript = await invoke('whisper-1', {
      audio: speech.body.output.audio,
      filename: 'bonjour.mp3',
      language: 'fr',
      temperature: 0,
    });
    expect(transcript.body.output.text).toMatch(/^Transcript of bonjour\.mp3/);
    expect(transcript.body.credits).toBe(1);

    const ocr = await invoke('ocr', { image: 'data:image/png;base64,AAAA' });
    expect(ocr.body.model_type).toBe('ocr');
    expect(ocr.body.output.text).toMatch(/Transcribe/);

    const video = await invoke('sora-2', { prompt: 'waves', seconds: 4 });
    expect(video.body.output.video).toMatch(/^data:video\/mp4;base64,/);
    expect(video.body.credits).toBe(8);
  }, 20_000);

  /** The organization's inference-log rows and usage ledger rows, newest first. */
  const records = async () => ({
    logs: await app.db
      .select()
      .from(inferenceLogs)
      .where(eq(inferenceLogs.organizationId, org.id))
      .orderBy(desc(inferenceLogs.createdAt)),
    charges: await app.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.organizationId, org.id), eq(creditLedger.kind, 'usage')))
      .orderBy(desc(creditLedger.createdAt)),
  });

  it('every model type invoked writes exactly one inference-log row and one ledger charge', async () => {
    const AUDIO = `data:audio/mpeg;base64,${Buffer.from([0xff, 0xfb, 0x90, 0x00]).toString('base64')}`;
    const calls: [string, string, object][] = [
      ['gpt-4o-mini', 'llm', { messages: [{ role: 'user', content: 'hello' }] }],
      [
        'gpt-4o',
        'llm-multimodal',
        { messages: [{ role: 'user', content: 'see' }], images: ['data:image/png;base64,AAAA'] },
      ],
      ['text-embedding-3-small', 'text-embeddings', { input: ['a cat', 'a dog'] }],
      ['dall-e-3', 'text-to-image', { prompt: 'a fox' }],
      ['tts-1', 'text-to-speech', { input: 'Bonjour', voice: 'alloy' }],
      ['whisper-1', 'speech-to-text', { audio: AUDIO, filename: 'a.mp3' }],
      ['ocr', 'ocr', { image: 'data:image/png;base64,AAAA' }],
      ['rerank-v3.5', 'rerank', { query: 'cat', documents: ['a cat', 'a car'] }],
      ['sora-2', 'text-to-video', { prompt: 'waves', seconds: 4 }],
    ];
    for (const [model, type, body] of calls) {
      const before = await records();
      const res = await invoke(model, body);
      expect([model, res.status]).toEqual([model, 200]);
      expect(res.body.model_type).toBe(type);
      const after = await records();
      expect([model, after.logs.length - before.logs.length]).toEqual([model, 1]);
      expect([model, after.charges.length - before.charges.length]).toEqual([model, 1]);
      const [log] = after.logs;
      const [charge] = after.charges;
      expect(log).toMatchObject({
        modelId: modelIds[model],
        chatbotId: null,
        conversationId: null,
        userId: org.admin.id,
        status: 'success',
        credits: res.body.credits,
      });
      expect(charge!.metadata).toMatchObject({ inference_log_id: log!.id, requested: res.body.credits });
    }
  }, 30_000);

  it('a failed invoke writes its error row and its charge of what it consumed', async () => {
    const before = await records();
    const res = await invoke('stall', { messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(504);
    const after = await records();
    expect(after.logs.length - before.logs.length).toBe(1);
    expect(after.charges.length - before.charges.length).toBe(1);
    expect(after.logs[0]).toMatchObject({ modelId: modelIds.stall, status: 'error', error: true });
    expect(after.logs[0]!.errorMessage).not.toBe('');
    expect(after.charges[0]!.metadata).toMatchObject({ failed: true, inference_log_id: after.logs[0]!.id });
  });

  it('missing input for the type is a clear 422', async () => {
    const res = await invoke('dall-e-3', { messages: [{ role: 'user', content: 'x' }] });
    expect([res.status, res.body.code]).toEqual([422, 'missing_input']);
  });

  it('a failing model answers with the fallback model, flagged', async () => {
    const res = await invoke('fail-500', {
      messages: [{ role: 'user', content: 'rescue' }],
      fallback_model_id: modelIds['gpt-4o-mini'],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      fallback: true,
      model_id: modelIds['gpt-4o-mini'],
      output: { text: 'Echo: rescue' },
    });
    const without = await invoke('fail-500', { messages: [{ role: 'user', content: 'x' }] });
    expect([without.status, without.body.code]).toEqual([502, 'provider_error']);
  });

  it('a stalled provider ends in a 504 timeout', async () => {
    const res = await invoke('stall', { messages: [{ role: 'user', content: 'x' }] });
    expect([res.status, res.body.code]).toEqual([504, 'timeout']);
  });

  it('out of credits: refused with 402 before the provider is called', async () => {
    await app.db
      .update(creditPlans)
      .set({ remainingMonthlyCredits: 0, extraCredits: 0 })
      .where(eq(creditPlans.organizationId, org.id));
    const calls = fake.requests.length;
    const res = await invoke('gpt-4o-mini', { messages: [{ role: 'user', content: 'x' }] });
    expect([res.status, res.body.code]).toEqual([402, 'insufficient_credits']);
    expect(fake.requests.length).toBe(calls);
    const usage = await app.db.select().from(creditLedger).where(eq(creditLedger.organizationId, org.id));
    expect(usage.filter((r) => r.kind === 'usage').length).toBeGreaterThan(3);
  });

  it('the API key appears in no answer and no log line', async () => {
    const answers = [
      await call(app, 'GET', `/providers?workspace_id=${ws}`, { token: org.admin.token }),
      await call(app, 'GET', `/models_with_partial_server?workspace_id=${ws}`, { token: org.admin.token }),
      await call(app, 'GET', `/models/${modelIds['gpt-4o-mini']}`, { token: org.admin.token }),
    ];
    for (const answer of answers) expect(JSON.stringify(answer.body)).not.toContain(KEY);
    expect(logLines.length).toBeGreaterThan(10);
    expect(logLines.join('\n')).not.toContain(KEY);
  });
});
