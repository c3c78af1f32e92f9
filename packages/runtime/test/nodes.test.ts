import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import {
  creditLedger,
  creditPlans,
  inferenceLogs,
  models,
  organizations,
  providers,
  workspaces,
  type Db,
} from '@atelier/db';
import { runFlow, type RunResult } from '@atelier/engine';
import type { FileValue, FlowEdge, FlowNode, FlowRunEvent, ModelType, ProviderKind } from '@atelier/schemas';
import { edgeId, TOOLS_HANDLE } from '@atelier/schemas';
import {
  sharedTestDatabase,
  startFakeJira,
  startFakeProvider,
  textOfAdf,
  type FakeJira,
  type FakeProvider,
} from '@atelier/testkit';
import { and, asc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModelAccess, createSecretBox } from '@atelier/metering';
import type { UrlPolicy } from '@atelier/net';
import { createEngineServices } from '../src';

/*
 * Real flows on the real engine, with the runtime's services on a real database: the workspace's
 * providers point at the fake OpenAI-compatible provider (keys sealed like the API seals them), HTTP
 * nodes reach local servers through the SSRF guard, and Jira is the fake Jira Cloud.
 */

const PROVIDER_KEY = 'sk-fake-nodes-0001';
/** Seals the provider keys as the API does, bound to the provider row's id. */
const box = createSecretBox(randomBytes(32));
const JIRA = { email: 'bot@acme.test', apiToken: 'jira-token-1' };

let db: Db;
let fake: FakeProvider;
let jira: FakeJira;
let api: Server;
let apiUrl = '';
/** Requests the local API server received. */
const apiHits: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
let organizationId = '';
let workspaceId = '';
let access: ReturnType<typeof createModelAccess>;
/** Model ids by role in these tests. */
const M: Record<string, string> = {};

const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const PNG_DATA_URL = `data:image/png;base64,${PNG_1X1.toString('base64')}`;

/** A short 8 kHz mono WAV of silence. */
function wav(samples: number): Buffer {
  const data = Buffer.alloc(samples * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
const MEMO = wav(800);

async function addProvider(kind: ProviderKind, name: string): Promise<string> {
  const id = randomUUID();
  await db.insert(providers).values({
    id,
    organizationId,
    workspaceId,
    name,
    kind,
    baseUrl: `${fake.url}/v1`,
    apiKeyEncrypted: box.seal(PROVIDER_KEY, id),
    apiKeyLast4: PROVIDER_KEY.slice(-4),
  });
  return id;
}

async function addModel(
  providerId: string,
  name: string,
  modelName: string,
  modelType: ModelType,
  pricing: Partial<
    Pick<typeof models.$inferInsert, 'inputPer1k' | 'outputPer1k' | 'perCall' | 'perImage' | 'perSecond'>
  > = {},
): Promise<string> {
  const [row] = await db
    .insert(models)
    .values({ organizationId, workspaceId, providerId, name, modelName, modelType, ...pricing })
    .returning({ id: models.id });
  return row!.id;
}

beforeAll(async () => {
  db = (await sharedTestDatabase()).db;
  fake = await startFakeProvider({ apiKey: PROVIDER_KEY });
  jira = await startFakeJira({
    ...JIRA,
    projects: ['OPS'],
    issues: [
      {
        key: 'OPS-1',
        summary: 'Printer on fire',
        description: 'Smoke from tray 2.\nUrgent.',
        issueType: 'Bug',
        priority: 'High',
        assignee: 'Ada',
        comments: [{ author: 'Bob', body: 'On it' }],
      },
      { key: 'OPS-2', summary: 'Order toner for the printer' },
      { key: 'OPS-3', summary: 'Badge reader broken' },
    ],
  });
  api = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const url = req.url ?? '/';
      apiHits.push({ method: req.method ?? '', url, headers: req.headers, body });
      const path = url.split('?')[0];
      if (path === '/items') {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req-42' });
        return res.end(JSON.stringify({ items: [{ id: 1, name: 'first' }], query: url.split('?')[1] ?? '' }));
      }
      if (path === '/orders' && req.method === 'POST') {
        res.writeHead(201, { 'content-type': 'application/vnd.api+json', location: '/orders/7' });
        return res.end(
          JSON.stringify({
            id: 7,
            received: JSON.parse(body) as unknown,
            contentType: req.headers['content-type'],
            apiKey: req.headers['x-api-key'],
          }),
        );
      }
      if (path === '/plain') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('{"looks":"like json"}');
      }
      if (path === '/memo.wav') {
        res.writeHead(200, { 'content-type': 'audio/wav' });
        return res.end(MEMO);
      }
      if (path === '/moved') {
        // Same server, another origin (localhost rather than 127.0.0.1).
        const port = (api.address() as { port: number }).port;
        res.writeHead(307, { location: `http://localhost:${port}/orders` });
        return res.end();
      }
      if (path === '/renamed') {
        res.writeHead(307, { location: '/orders' });
        return res.end();
      }
      if (path === '/to-metadata') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam/' });
        return res.end();
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: `no ${path}` }));
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as { port: number }).port}`;

  const [org] = await db
    .insert(organizations)
    .values({ name: 'Nodes test org' })
    .returning({ id: organizations.id });
  organizationId = org!.id;
  const [ws] = await db
    .insert(workspaces)
    .values({ organizationId, name: 'Nodes' })
    .returning({ id: workspaces.id });
  workspaceId = ws!.id;
  await db.insert(creditPlans).values({
    organizationId,
    monthlyCredits: 10_000,
    remainingMonthlyCredits: 10_000,
    periodStart: new Date(),
  });

  const openai = await addProvider('openai_compatible', 'Fake OpenAI');
  const mistral = await addProvider('mistral', 'Fake Mistral');
  M.gpt = await addModel(openai, 'GPT mini', 'gpt-4o-mini', 'llm', { inputPer1k: 10, outputPer1k: 20 });
  M.broken = await addModel(openai, 'Broken GPT', 'fail-401', 'llm', { inputPer1k: 10, outputPer1k: 20 });
  M.vision = await addModel(openai, 'GPT vision', 'gpt-4o', 'llm-multimodal', { perCall: 0.5 });
  M.dalle3 = await addModel(openai, 'DALL-E 3', 'dall-e-3', 'text-to-image', { perImage: 4 });
  M.dalle2 = await addModel(openai, 'DALL-E 2', 'dall-e-2', 'text-to-image', { perImage: 2 });
  M.tts = await addModel(openai, 'TTS', 'tts-1', 'text-to-speech', { perCall: 1.5 });
  M.whisper = await addModel(openai, 'Whisper', 'whisper-1', 'speech-to-text', { perCall: 0.25 });
  M.ocr = await addModel(mistral, 'Mistral OCR', 'mistral-ocr-latest', 'ocr', { perCall: 0.75 });
  M.sora = await addModel(openai, 'Sora', 'sora-2', 'text-to-video', { perSecond: 3 });
  access = createModelAccess({ db, box, timeoutMs: 10_000, urlPolicy: { mode: 'any' } });
});

afterAll(async () => {
  await fake?.close();
  await jira?.close();
  await new Promise<void>((resolve) => (api ? api.close(() => resolve()) : resolve()));
});

// ---- Flow building ---------------------------------------------------------------------------------

function node(type: string, suffix: string, fields: unknown, data: Partial<FlowNode['data']> = {}): FlowNode {
  return {
    id: `${type}_${suffix}`,
    type,
    position: { x: 0, y: 0 },
    data: { label: `${type} ${suffix}`, fields: fields as Record<string, unknown>, ...data },
  };
}

const edge = (source: FlowNode, target: FlowNode): FlowEdge => ({
  id: edgeId(source.id, target.id),
  source: source.id,
  target: target.id,
});

const ref = (n: FlowNode, output: string) => `{{#${n.id}.${output}#}}`;

interface Run {
  result: RunResult;
  events: FlowRunEvent[];
  /** The execution record's outputs of a node. */
  outputs(n: FlowNode): Record<string, unknown>;
}

/** Runs input → steps (in a chain) → output, on the runtime's services for a "chatbot" named `name`. */
async function run(
  name: string,
  steps: FlowNode[],
  response: string,
  options: {
    inputs?: Record<string, unknown>;
    inputFields?: unknown[];
    policy?: UrlPolicy;
    extraNodes?: FlowNode[];
    extraEdges?: FlowEdge[];
    signal?: AbortSignal;
    onEvent?: (event: FlowRunEvent) => void;
  } = {},
): Promise<Run> {
  const input = node('input', 'in01', options.inputFields ?? []);
  const output = node('output', 'ou01', { response });
  const chain = [input, ...steps, output];
  const events: FlowRunEvent[] = [];
  const services = createEngineServices({
    db,
    models: access,
    httpPolicy: options.policy ?? { mode: 'any' },
    scope: {
      organizationId,
      workspaceId,
      userId: null,
      chatbotId: null,
      chatbotName: name,
      conversationId: null,
      storeContent: true,
    },
  });
  const result = await runFlow({
    config: {
      nodes: [...chain, ...(options.extraNodes ?? [])],
      edges: [...chain.slice(1).map((n, i) => edge(chain[i]!, n)), ...(options.extraEdges ?? [])],
    },
    inputs: options.inputs ?? {},
    services,
    ...(options.signal ? { signal: options.signal } : {}),
    onEvent: (event) => {
      events.push(event);
      options.onEvent?.(event);
    },
  });
  return {
    result,
    events,
    outputs: (n) => {
      const record = result.executions.find((e) => e.nodeId === n.id);
      expect(record, `${n.id} ran`).toBeDefined();
      return record!.outputs ?? {};
    },
  };
}

const logsOf = (name: string) =>
  db
    .select()
    .from(inferenceLogs)
    .where(and(eq(inferenceLogs.organizationId, organizationId), eq(inferenceLogs.chatbotName, name)))
    .orderBy(asc(inferenceLogs.createdAt));

const chargesOf = (name: string) =>
  db
    .select()
    .from(creditLedger)
    .where(
      and(
        eq(creditLedger.organizationId, organizationId),
        eq(creditLedger.kind, 'usage'),
        like(creditLedger.description, `% in ${name}`),
      ),
    )
    .orderBy(asc(creditLedger.createdAt));

/** The chat requests the fake provider received since `from`. */
const chatRequestsSince = (from: number) =>
  fake.requests.slice(from).filter((r) => r.path === '/v1/chat/completions') as {
    body: { model: string; messages: any[]; tools?: any[]; stream?: boolean };
  }[];

const bytesOf = (file: FileValue): Buffer => {
  const m = /^data:([^;,]*);base64,(.*)$/s.exec(file.dataUrl ?? '');
  expect(m, 'a base64 data: URL').not.toBeNull();
  return Buffer.from(m![2]!, 'base64');
};

/** Waits (a bounded while) for something that happens after the run has returned. */
async function eventually(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 500 && !(await condition()); i++) await new Promise((r) => setTimeout(r, 10));
  expect(await condition(), what).toBe(true);
}

// ---- Language models -------------------------------------------------------------------------------

describe('llm on the workspace provider', () => {
  it('streams text chunks before the run ends, reaches the output, logs the call and charges credits', async () => {
    const llm = node('llm', 'ab12', {
      modelId: M.gpt,
      systemPrompt: 'Be brief.',
      prompt: 'Summarise: {{#input_in01.query#}}',
      temperature: 0.2,
    });
    const from = fake.requests.length;
    const { result, events, outputs } = await run('llm-basic', [llm], `Answer: ${ref(llm, 'response')}`, {
      inputs: { query: 'the quarterly numbers look good' },
    });
    expect(result.status).toBe('succeeded');
    const answer = 'Echo: Summarise: the quarterly numbers look good';
    expect(result.text).toBe(`Answer: ${answer}`);
    expect(outputs(llm).response).toBe(answer);

    // Word by word, every chunk before the node completes and before the run ends.
    const types = events.map((e) => e.type);
    const chunks = events.flatMap((e) => (e.type === 'text_chunk' ? [e] : []));
    expect(chunks.length).toBeGreaterThanOrEqual(6);
    expect(chunks.every((c) => c.nodeId === llm.id)).toBe(true);
    expect(chunks.map((c) => c.text).join('')).toBe(answer);
    const llmDone = events.findIndex((e) => e.type === 'node_completed' && e.nodeId === llm.id);
    expect(types.lastIndexOf('text_chunk')).toBeLessThan(llmDone);
    expect(types.at(-1)).toBe('execution_completed');

    // The provider got the system prompt, the temperature and the key (sealed in the database).
    const [sent] = chatRequestsSince(from);
    expect(sent!.body).toMatchObject({ model: 'gpt-4o-mini', stream: true, temperature: 0.2 });
    expect(sent!.body.messages.map((m: any) => m.role)).toEqual(['system', 'user']);
    expect(fake.requests[from]!.headers.authorization).toBe(`Bearer ${PROVIDER_KEY}`);

    const [log, ...more] = await logsOf('llm-basic');
    expect(more).toHaveLength(0);
    expect(log).toMatchObject({
      modelId: M.gpt,
      modelName: 'GPT mini',
      providerModelName: 'gpt-4o-mini',
      providerType: 'openai_compatible',
      response: answer,
      userMessage: 'Summarise: the quarterly numbers look good',
      streamed: true,
      fallback: false,
      status: 'success',
      error: false,
    });
    const usage = outputs(llm).usage as { inputTokens: number; outputTokens: number };
    expect(usage.outputTokens).toBeGreaterThan(0);
    expect(log!.inputTokens).toBe(usage.inputTokens);
    expect(log!.outputTokens).toBe(usage.outputTokens);
    expect(log!.firstTokenMs).not.toBeNull();
    const expected =
      Math.round(((usage.inputTokens * 10 + usage.outputTokens * 20) / 1000) * 10_000) / 10_000;
    expect(log!.credits).toBeCloseTo(expected, 4);

    const charges = await chargesOf('llm-basic');
    expect(charges).toHaveLength(1);
    expect(charges[0]!.description).toBe('Flow model call with GPT mini in llm-basic');
    expect(charges[0]!.monthlyDelta).toBeCloseTo(-expected, 4);
    expect(charges[0]!.metadata).toMatchObject({
      model_id: M.gpt,
      requested: expected,
      inference_log_id: log!.id,
    });
  });

  it('answers with the fallback model when the primary fails, and fails clearly without one', async () => {
    const withFallback = node('llm', 'fb01', { modelId: M.broken, fallbackModelId: M.gpt, prompt: 'hello' });
    const from = fake.requests.length;
    const ok = await run('llm-fallback', [withFallback], ref(withFallback, 'response'));
    expect(ok.result.status).toBe('succeeded');
    expect(ok.result.text).toBe('Echo: hello');
    expect(chatRequestsSince(from).map((r) => r.body.model)).toEqual(['fail-401', 'gpt-4o-mini']);
    const [log, ...others] = await logsOf('llm-fallback');
    expect(others).toHaveLength(0);
    expect(log).toMatchObject({ modelId: M.gpt, fallback: true, status: 'success', response: 'Echo: hello' });
    const charges = await chargesOf('llm-fallback');
    expect(charges.map((c) => c.description)).toEqual(['Flow model call with GPT mini in llm-fallback']);

    const alone = node('llm', 'fb02', { modelId: M.broken, prompt: 'hello' });
    const failed = await run('llm-no-fallback', [alone], ref(alone, 'response'));
    expect(failed.result.status).toBe('failed');
    expect(failed.result.failedNodeId).toBe(alone.id);
    expect(failed.result.error).toMatch(
      /^llm fb02 failed: The provider refused the credentials; check the API key\. The provider said: Incorrect API key provided/,
    );
    const [errorLog] = await logsOf('llm-no-fallback');
    expect(errorLog).toMatchObject({ modelId: M.broken, status: 'error', error: true, fallback: false });
    expect(errorLog!.errorMessage).toMatch(/refused the credentials/);
  });

  it('refuses model ids outside the workspace clearly; a missing fallback does not stop a working model', async () => {
    // A model of another workspace of the same organization.
    const [other] = await db
      .insert(workspaces)
      .values({ organizationId, name: 'Other' })
      .returning({ id: workspaces.id });
    const providerId = randomUUID();
    await db.insert(providers).values({
      id: providerId,
      organizationId,
      workspaceId: other!.id,
      name: 'Other provider',
      kind: 'openai_compatible',
      baseUrl: `${fake.url}/v1`,
      apiKeyEncrypted: box.seal(PROVIDER_KEY, providerId),
    });
    const [foreign] = await db
      .insert(models)
      .values({
        organizationId,
        workspaceId: other!.id,
        providerId,
        name: 'Foreign',
        modelName: 'gpt-4o-mini',
        modelType: 'llm',
      })
      .returning({ id: models.id });
    const from = fake.requests.length;
    for (const [suffix, modelId] of [
      ['mi01', 'gpt-4o-mini'],
      ['mi02', randomUUID()],
      ['mi03', foreign!.id],
    ] as const) {
      const llm = node('llm', suffix, { modelId, prompt: 'hello' });
      const { result } = await run('llm-missing-model', [llm], ref(llm, 'response'));
      expect(result.error).toBe(
        `llm ${suffix} failed: The model ${modelId} does not exist in this workspace; choose another model.`,
      );
    }
    expect(fake.requests).toHaveLength(from);

    const llm = node('llm', 'mi04', { modelId: M.gpt, fallbackModelId: randomUUID(), prompt: 'still here' });
    const ok = await run('llm-deleted-fallback', [llm], ref(llm, 'response'));
    expect(ok.result.status).toBe('succeeded');
    expect(ok.result.text).toBe('Echo: still here');
  });

  it('sends the image to a multimodal model as a data URL', async () => {
    const mm = node('multimodal_llm', 'mm01', {
      modelId: M.vision,
      prompt: 'What is in {{#input_in01.query#}}?',
      images: '{{#input_in01.photo#}}',
    });
    const from = fake.requests.length;
    const { result, outputs } = await run('multimodal', [mm], ref(mm, 'response'), {
      inputFields: [{ name: 'photo', type: 'image', isMandatory: true }],
      inputs: { query: 'the picture', photo: PNG_DATA_URL },
    });
    expect(result.status).toBe('succeeded');
    expect(outputs(mm).response).toBe('Echo: What is in the picture? [1 image(s)]');
    const user = chatRequestsSince(from)[0]!.body.messages.at(-1);
    expect(user.content).toEqual([
      { type: 'text', text: 'What is in the picture?' },
      { type: 'image_url', image_url: { url: PNG_DATA_URL } },
    ]);
    const [log] = await logsOf('multimodal');
    expect(log).toMatchObject({ modelId: M.vision, status: 'success' });
    expect((await chargesOf('multimodal'))[0]!.monthlyDelta).toBeLessThanOrEqual(-0.5);
  });
});

// ---- Media models ----------------------------------------------------------------------------------

describe('media nodes on the workspace provider', () => {
  it('dalle3 gives a PNG image and the revised prompt, charged per image', async () => {
    const d3 = node('dalle3', 'd301', {
      modelId: M.dalle3,
      prompt: 'a red bicycle',
      quality: 'hd',
      style: 'natural',
      size: '1024x1024',
    });
    const from = fake.requests.length;
    const { result, outputs } = await run('dalle3', [d3], ref(d3, 'revised_prompt'));
    expect(result.status).toBe('succeeded');
    expect(result.text).toBe('A picture of: a red bicycle');
    const out = outputs(d3);
    expect(out.images).toEqual([out.image]);
    const png = Buffer.from(String(out.image).replace(/^data:image\/png;base64,/, ''), 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(1024);
    expect(fake.requests[from]!.body).toMatchObject({
      model: 'dall-e-3',
      prompt: 'a red bicycle',
      quality: 'hd',
      style: 'natural',
      n: 1,
    });
    const charges = await chargesOf('dalle3');
    expect(charges.map((c) => [c.description, c.monthlyDelta])).toEqual([
      ['Image generation with DALL-E 3 in dalle3', -4],
    ]);
  });

  it('dalle2 gives n distinct images of the chosen size', async () => {
    const d2 = node('dalle2', 'd201', { modelId: M.dalle2, prompt: 'a cat', n: 2, size: '256x256' });
    const from = fake.requests.length;
    const { result, outputs } = await run('dalle2', [d2], 'made');
    expect(result.status).toBe('succeeded');
    const images = outputs(d2).images as string[];
    expect(images).toHaveLength(2);
    expect(new Set(images).size).toBe(2);
    for (const image of images) {
      const png = Buffer.from(image.replace(/^data:image\/png;base64,/, ''), 'base64');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([256, 256]);
    }
    const sent = fake.requests[from]!.body as Record<string, unknown>;
    expect(sent).toMatchObject({ model: 'dall-e-2', n: 2, size: '256x256' });
    expect(sent).not.toHaveProperty('quality');
    expect(sent).not.toHaveProperty('style');
    expect((await chargesOf('dalle2')).map((c) => c.monthlyDelta)).toEqual([-4]);
  });

  it('text_to_speech gives audio bytes, and speech_to_text transcribes them in the same flow', async () => {
    const tts = node('text_to_speech', 'ts01', {
      modelId: M.tts,
      input: '{{#input_in01.query#}}',
      voice: 'nova',
      response_format: 'mp3',
    });
    const stt = node('speech_to_text', 'st01', {
      modelId: M.whisper,
      file: ref(tts, 'audio'),
      language: 'en',
    });
    const from = fake.requests.length;
    const { result, outputs } = await run('tts-stt', [tts, stt], ref(stt, 'text'), {
      inputs: { query: 'Hello from the flow' },
    });
    expect(result.status).toBe('succeeded');
    const audio = outputs(tts).audio as FileValue;
    expect(audio).toMatchObject({ name: 'speech.mp3', mimeType: 'audio/mpeg' });
    const bytes = bytesOf(audio);
    expect(audio.size).toBe(bytes.length);
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xfb]); // an MPEG audio frame
    expect(fake.requests[from]!.body).toMatchObject({
      model: 'tts-1',
      input: 'Hello from the flow',
      voice: 'nova',
    });

    expect(result.text).toBe(`Transcript of speech.mp3 (${bytes.length} bytes)`);
    const upload = fake.requests.find((r, i) => i > from && r.path === '/v1/audio/transcriptions')!;
    expect(upload.body).toMatchObject({
      model: 'whisper-1',
      language: 'en',
      file: { filename: 'speech.mp3', size: bytes.length },
    });
    expect((await chargesOf('tts-stt')).map((c) => [c.description, c.monthlyDelta])).toEqual([
      ['Text to speech with TTS in tts-stt', -1.5],
      ['Speech to text with Whisper in tts-stt', -0.25],
    ]);
    // Each call also wrote exactly one inference-log row, which its charge names.
    const logs = await logsOf('tts-stt');
    expect(logs.map((l) => [l.modelId, l.status, l.credits])).toEqual([
      [M.tts, 'success', 1.5],
      [M.whisper, 'success', 0.25],
    ]);
    expect(logs[1]!.response).toBe(result.text);
    expect(
      (await chargesOf('tts-stt')).map((c) => (c.metadata as { inference_log_id?: string }).inference_log_id),
    ).toEqual(logs.map((l) => l.id));
  });

  it('speech_to_text reads an audio input given as a file value or fetched from a URL', async () => {
    const stt = node('speech_to_text', 'st02', { modelId: M.whisper, file: '{{#input_in01.recording#}}' });
    const asFile = await run('stt-file', [stt], ref(stt, 'text'), {
      inputFields: [{ name: 'recording', type: 'audio', isMandatory: true }],
      inputs: {
        recording: {
          name: 'memo.wav',
          mimeType: 'audio/wav',
          dataUrl: `data:audio/wav;base64,${MEMO.toString('base64')}`,
          size: MEMO.length,
        },
      },
    });
    expect(asFile.result.status).toBe('succeeded');
    expect(asFile.result.text).toBe(`Transcript of memo.wav (${MEMO.length} bytes)`);

    // A bare data: URL has no file name; the upload still needs an extension the API knows.
    const asDataUrl = await run('stt-data-url', [stt], ref(stt, 'text'), {
      inputFields: [{ name: 'recording', type: 'audio', isMandatory: true }],
      inputs: { recording: `data:audio/wav;base64,${MEMO.toString('base64')}` },
    });
    expect(asDataUrl.result.error).toBeUndefined();
    expect(asDataUrl.result.text).toBe(`Transcript of audio.wav (${MEMO.length} bytes)`);

    const before = apiHits.length;
    const fetched = await run('stt-url', [stt], ref(stt, 'text'), {
      inputFields: [{ name: 'recording', type: 'audio', isMandatory: true }],
      inputs: { recording: `${apiUrl}/memo.wav` },
    });
    expect(fetched.result.status).toBe('succeeded');
    expect(fetched.result.text).toBe(`Transcript of memo.wav (${MEMO.length} bytes)`);
    expect(apiHits.slice(before).map((h) => h.url)).toEqual(['/memo.wav']);

    // The fetch goes through the SSRF guard as well.
    const refused = await run('stt-url-public', [stt], ref(stt, 'text'), {
      inputFields: [{ name: 'recording', type: 'audio', isMandatory: true }],
      inputs: { recording: `${apiUrl}/memo.wav` },
      policy: { mode: 'public-only' },
    });
    expect(refused.result.status).toBe('failed');
    expect(refused.result.error).toMatch(/points to a private or reserved address \(127\.0\.0\.1\)/);
    expect(apiHits).toHaveLength(before + 1);
  });

  it('ocr reads an image through the OCR model', async () => {
    const ocr = node('ocr', 'oc01', { modelId: M.ocr, file: '{{#input_in01.scan#}}' });
    const from = fake.requests.length;
    const { result, outputs } = await run('ocr', [ocr], ref(ocr, 'text'), {
      inputFields: [{ name: 'scan', type: 'image', isMandatory: true }],
      inputs: { scan: PNG_DATA_URL },
    });
    expect(result.status).toBe('succeeded');
    expect(outputs(ocr).text).toBe(`OCR text of ${PNG_1X1.length} bytes`);
    expect(fake.requests[from]).toMatchObject({
      path: '/v1/ocr',
      body: { model: 'mistral-ocr-latest', document: { type: 'image_url', image_url: PNG_DATA_URL } },
    });
    expect((await chargesOf('ocr')).map((c) => c.description)).toEqual(['OCR with Mistral OCR in ocr']);
  });

  it('sora_video polls the job and gives the MP4, charged per second', async () => {
    const sora = node('sora_video', 'so01', {
      modelId: M.sora,
      prompt: 'waves',
      seconds: '4',
      size: '1280x720',
    });
    const from = fake.requests.length;
    const { result, outputs } = await run('sora', [sora], 'done');
    expect(result.status).toBe('succeeded');
    const video = outputs(sora).video as FileValue;
    expect(video).toMatchObject({ name: 'video.mp4', mimeType: 'video/mp4' });
    const bytes = bytesOf(video);
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(video.size).toBe(bytes.length);
    const paths = fake.requests.slice(from).map((r) => `${r.method} ${r.path.replace(/video_\w+/, 'ID')}`);
    expect(paths[0]).toBe('POST /v1/videos');
    expect(paths.at(-1)).toBe('GET /v1/videos/ID/content');
    expect(paths.filter((p) => p === 'GET /v1/videos/ID').length).toBeGreaterThanOrEqual(2);
    expect(fake.requests[from]!.body).toMatchObject({
      model: 'sora-2',
      prompt: 'waves',
      seconds: '4',
      size: '1280x720',
    });
    expect((await chargesOf('sora')).map((c) => c.monthlyDelta)).toEqual([-12]);
  });
});

// ---- HTTP ------------------------------------------------------------------------------------------

describe('api_request through the guarded client', () => {
  it('GETs with query parameters and parses a JSON answer; headers come back lower-cased', async () => {
    const get = node('api_request', 'ap01', {
      method: 'GET',
      url: `${apiUrl}/items`,
      query_params: { page: 2, tag: ['a', 'b'] },
      headers: { 'X-Api-Key': 'k-1' },
    });
    const before = apiHits.length;
    const { result, outputs } = await run('api-get', [get], `{{#${get.id}.body.items.0.name#}}`);
    expect(result.status).toBe('succeeded');
    expect(result.text).toBe('first');
    const out = outputs(get);
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ items: [{ id: 1, name: 'first' }], query: 'page=2&tag=a&tag=b' });
    expect((out.headers as Record<string, string>)['x-request-id']).toBe('req-42');
    expect(apiHits[before]).toMatchObject({ method: 'GET', url: '/items?page=2&tag=a&tag=b' });
    expect(apiHits[before]!.headers['x-api-key']).toBe('k-1');
  });

  it('POSTs a JSON body with its content type; a +json answer is parsed, text is left as text', async () => {
    const post = node('api_request', 'ap02', {
      method: 'POST',
      url: `${apiUrl}/orders`,
      headers: { 'X-Api-Key': '{{#input_in01.query#}}' },
      body: '{"sku":"A-1","qty":{{#input_in01.qty#}}}',
    });
    const text = node('api_request', 'ap03', { url: `${apiUrl}/plain` });
    const { result, outputs } = await run('api-post', [post, text], 'ok', {
      inputFields: [{ name: 'qty', type: 'number', isMandatory: true }],
      inputs: { query: 'secret-key', qty: 3 },
    });
    expect(result.status).toBe('succeeded');
    expect(outputs(post)).toMatchObject({
      status: 201,
      body: {
        id: 7,
        received: { sku: 'A-1', qty: 3 },
        contentType: 'application/json',
        apiKey: 'secret-key',
      },
    });
    expect((outputs(post).headers as Record<string, string>).location).toBe('/orders/7');
    expect(outputs(text).body).toBe('{"looks":"like json"}');
  });

  it('fails on an error status unless told to give it as an output', async () => {
    const strict = node('api_request', 'ap04', { url: `${apiUrl}/nope` });
    const failed = await run('api-404', [strict], 'never');
    expect(failed.result.status).toBe('failed');
    expect(failed.result.error).toBe(
      'api_request ap04 failed: The API answered 404 Not Found: {"message":"no /nope"}',
    );

    const lenient = node('api_request', 'ap05', { url: `${apiUrl}/nope`, fail_on_error_status: false });
    const ok = await run('api-404-ok', [lenient], `{{#${lenient.id}.status#}}`);
    expect(ok.result.status).toBe('succeeded');
    expect(ok.result.text).toBe('404');
    expect(ok.outputs(lenient).body).toEqual({ message: 'no /nope' });
  });

  it('public-only refuses a loopback URL without calling it; continueOnError lets the run go on', async () => {
    const before = apiHits.length;
    const guarded = node('api_request', 'ap06', { url: `${apiUrl}/items` });
    const refused = await run('api-ssrf', [guarded], 'never', { policy: { mode: 'public-only' } });
    expect(refused.result.status).toBe('failed');
    expect(refused.result.errorCode).toBe('node_failed');
    expect(refused.result.failedNodeId).toBe(guarded.id);
    expect(refused.result.error).toBe(
      'api_request ap06 failed: The request URL points to a private or reserved address (127.0.0.1), which is not allowed here.',
    );
    const nodeError = refused.events.find((e) => e.type === 'node_error');
    expect(nodeError).toMatchObject({ nodeId: guarded.id, continued: false });

    const tolerant = node('api_request', 'ap07', { url: `${apiUrl}/items` }, { continueOnError: true });
    const goesOn = await run('api-ssrf-continue', [tolerant], `Skipped: {{#${tolerant.id}.error#}}`, {
      policy: { mode: 'public-only' },
    });
    expect(goesOn.result.status).toBe('succeeded');
    expect(goesOn.result.text).toBe(
      'Skipped: The request URL points to a private or reserved address (127.0.0.1), which is not allowed here.',
    );
    expect(apiHits).toHaveLength(before);
  });

  it('follows redirects, but never takes the credentials to another origin', async () => {
    const request = (suffix: string, path: string) =>
      node('api_request', suffix, {
        method: 'POST',
        url: `${apiUrl}${path}`,
        headers: { Authorization: 'Bearer top-secret', Cookie: 'session=1', 'X-Api-Key': 'k-9' },
        body: '{"sku":"B-2"}',
      });
    const before = apiHits.length;
    const same = request('ap09', '/renamed');
    const other = request('ap10', '/moved');
    const { result, outputs } = await run('api-redirects', [same, other], 'ok');
    expect(result.status).toBe('succeeded');
    // 307 keeps the method and the body.
    expect(outputs(same)).toMatchObject({ status: 201, body: { received: { sku: 'B-2' } } });
    expect(outputs(other)).toMatchObject({ status: 201, body: { received: { sku: 'B-2' } } });
    const hits = apiHits.slice(before);
    expect(hits.map((h) => `${h.method} ${h.headers.host?.split(':')[0]}${h.url}`)).toEqual([
      'POST 127.0.0.1/renamed',
      'POST 127.0.0.1/orders',
      'POST 127.0.0.1/moved',
      'POST localhost/orders',
    ]);
    expect(hits[1]!.headers).toMatchObject({ authorization: 'Bearer top-secret', cookie: 'session=1' });
    expect(hits[3]!.headers.authorization).toBeUndefined();
    expect(hits[3]!.headers.cookie).toBeUndefined();
    expect(hits[3]!.headers['x-api-key']).toBeUndefined();
  });

  it('refuses a redirect to the metadata address even under the any policy', async () => {
    const before = apiHits.length;
    const hop = node('api_request', 'ap08', { url: `${apiUrl}/to-metadata` });
    const { result } = await run('api-redirect', [hop], 'never', { policy: { mode: 'any' } });
    expect(result.status).toBe('failed');
    expect(result.error).toBe(
      'api_request ap08 failed: The request URL redirected to a private or reserved address (169.254.169.254), which is not allowed here.',
    );
    expect(apiHits.slice(before).map((h) => h.url)).toEqual(['/to-metadata']);

    // The same address written as an IPv4-mapped IPv6 literal.
    const mapped = node('api_request', 'ap11', { url: 'http://[::ffff:169.254.169.254]/latest/meta-data' });
    const refused = await run('api-mapped', [mapped], 'never', { policy: { mode: 'any' } });
    expect(refused.result.error).toBe(
      'api_request ap11 failed: The request URL points to a private or reserved address (::ffff:a9fe:a9fe), which is not allowed here.',
    );
  });
});

// ---- Jira ------------------------------------------------------------------------------------------

describe('jira_tools against the fake Jira Cloud', () => {
  const account = () => ({ site_url: jira.url, email: JIRA.email, api_token: JIRA.apiToken });

  it('searches with JQL and reads an issue with its description and comments', async () => {
    const search = node('jira_tools', 'js01', {
      ...account(),
      operation: 'search',
      jql: 'project = OPS AND text ~ "printer" ORDER BY key ASC',
      max_results: 5,
    });
    const found = await run('jira-search', [search], 'ok');
    expect(found.result.status).toBe('succeeded');
    expect(found.outputs(search).result).toEqual([
      {
        key: 'OPS-1',
        summary: 'Printer on fire',
        status: 'To Do',
        type: 'Bug',
        priority: 'High',
        assignee: 'Ada',
        updated: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/),
      },
      expect.objectContaining({ key: 'OPS-2', summary: 'Order toner for the printer', assignee: null }),
    ]);
    const first = node('jira_tools', 'js02', {
      ...account(),
      operation: 'search',
      jql: 'project = OPS',
      max_results: 1,
    });
    expect((await run('jira-search-1', [first], 'ok')).outputs(first).result).toHaveLength(1);

    const get = node('jira_tools', 'jg01', { ...account(), operation: 'get', issue_key: 'OPS-1' });
    const read = await run('jira-get', [get], `{{#${get.id}.result.description#}}`);
    expect(read.result.status).toBe('succeeded');
    expect(read.result.text).toBe('Smoke from tray 2.\nUrgent.');
    expect(read.outputs(get).result).toMatchObject({
      key: 'OPS-1',
      status: 'To Do',
      comments: [{ author: 'Bob', body: 'On it' }],
    });
  });

  it('creates an issue and comments on it', async () => {
    const create = node('jira_tools', 'jc01', {
      ...account(),
      operation: 'create',
      project_key: 'OPS',
      summary: '{{#input_in01.query#}}',
      description: 'Seen on floor 3.\nTwice.',
      issue_type: 'Bug',
    });
    const comment = node('jira_tools', 'jm01', {
      ...account(),
      operation: 'comment',
      issue_key: `{{#${create.id}.result.key#}}`,
      comment: 'Ticket opened by the flow.',
    });
    const { result, outputs } = await run('jira-create', [create, comment], `{{#${create.id}.result.key#}}`, {
      inputs: { query: 'Coffee machine leaks' },
    });
    expect(result.status).toBe('succeeded');
    const created = outputs(create).result as { key: string; id: string };
    expect(result.text).toBe(created.key);
    expect(created.key).toMatch(/^OPS-\d+$/);
    const issue = jira.issues.find((i) => i.key === created.key)!;
    expect(issue).toMatchObject({ id: created.id, summary: 'Coffee machine leaks', issueType: 'Bug' });
    expect(textOfAdf(issue.description)).toBe('Seen on floor 3.\nTwice.');
    expect(issue.comments.map((c) => textOfAdf(c.body))).toEqual(['Ticket opened by the flow.']);
    expect(outputs(comment).result).toEqual({ id: issue.comments[0]!.id });
  });

  it('bad credentials and unknown issues give Jira’s own message as the node error', async () => {
    const wrong = node(
      'jira_tools',
      'jx01',
      { ...account(), api_token: 'wrong-token', operation: 'get', issue_key: 'OPS-1' },
      { retry: { max: 2, backoffMs: 0 } },
    );
    const sentBefore = jira.requests.length;
    const denied = await run('jira-401', [wrong], 'never');
    expect(denied.result.status).toBe('failed');
    expect(denied.result.error).toBe(
      'jira_tools jx01 failed: Jira answered 401: Client must be authenticated to access this resource. Check the account email and API token.',
    );
    // Sent once as basic auth: a refusal is permanent, so even a node with retries does not try again.
    expect(jira.requests.slice(sentBefore).map((r) => r.headers.authorization)).toEqual([
      `Basic ${Buffer.from(`${JIRA.email}:wrong-token`).toString('base64')}`,
    ]);

    const missing = node('jira_tools', 'jx02', { ...account(), operation: 'get', issue_key: 'OPS-404' });
    const notFound = await run('jira-404', [missing], 'never');
    expect(notFound.result.error).toBe(
      'jira_tools jx02 failed: Jira answered 404: Issue does not exist or you do not have permission to see it.',
    );

    // Field errors come in `errors`, not `errorMessages`.
    const before = jira.issues.length;
    const badProject = node('jira_tools', 'jx03', {
      ...account(),
      operation: 'create',
      project_key: 'NOPE',
      summary: 'x',
    });
    const refused = await run('jira-400', [badProject], 'never');
    expect(refused.result.error).toBe('jira_tools jx03 failed: Jira answered 400: valid project is required');
    expect(jira.issues).toHaveLength(before);
  });
});

// ---- Agents ----------------------------------------------------------------------------------------

describe('agent with scripted tool calls', () => {
  it('calls the calculator attached by a tools edge, feeds the result back and answers', async () => {
    const agent = node('agent', 'ag01', {
      modelId: M.gpt,
      systemPrompt: 'Use the calculator.',
      agentPrompt: '{{#input_in01.query#}}',
    });
    const calculator = node('calculator_tool', 'ca01', {});
    fake.scriptToolCalls([{ name: 'calculator', arguments: { expression: '(12.5 * 4) / sqrt(16)' } }]);
    const from = fake.requests.length;
    const { result, outputs, events } = await run('agent-calc', [agent], ref(agent, 'response'), {
      inputs: { query: 'What is 12.5 * 4 / sqrt(16)?' },
      extraNodes: [calculator],
      extraEdges: [{ ...edge(calculator, agent), targetHandle: TOOLS_HANDLE }],
    });
    expect(result.status).toBe('succeeded');
    // The fake echoes the last tool result: the calculator's answer reached the model.
    expect(result.text).toBe('Echo: 12.5');
    expect(outputs(agent).steps).toEqual([
      { tool: 'calculator', arguments: { expression: '(12.5 * 4) / sqrt(16)' }, result: '12.5' },
    ]);
    const calls = chatRequestsSince(from);
    expect(calls).toHaveLength(2);
    expect(calls[0]!.body.tools!.map((t: any) => t.function.name)).toEqual(['calculator']);
    const [assistant, tool] = calls[1]!.body.messages.slice(-2);
    expect(assistant.tool_calls[0].function).toMatchObject({ name: 'calculator' });
    expect(tool).toEqual({ role: 'tool', tool_call_id: assistant.tool_calls[0].id, content: '12.5' });
    expect(
      events
        .filter((e) => e.type === 'text_chunk')
        .map((e) => (e as { text: string }).text)
        .join(''),
    ).toBe('Echo: 12.5');
    // Both model calls are logged and charged.
    expect(await logsOf('agent-calc')).toHaveLength(2);
    expect(await chargesOf('agent-calc')).toHaveLength(2);
  });

  it('stops an endless tool loop at max_iterations with a clear error', async () => {
    const agent = node('agent', 'ag02', {
      modelId: M.gpt,
      agentPrompt: 'Keep counting.',
      tools: ['calculator_tool_ca02'],
      max_iterations: 3,
    });
    const calculator = node('calculator_tool', 'ca02', {});
    for (let i = 0; i < 3; i++)
      fake.scriptToolCalls([{ name: 'calculator', arguments: { expression: `${i} + 1` } }]);
    const from = fake.requests.length;
    const { result } = await run('agent-loop', [agent], ref(agent, 'response'), { extraNodes: [calculator] });
    expect(result.status).toBe('failed');
    expect(result.error).toBe(
      'agent ag02 failed: The agent made 3 model calls without reaching a final answer (its step limit).',
    );
    const calls = chatRequestsSince(from);
    expect(calls).toHaveLength(3);
    // Each call carried all the tool results so far.
    expect(calls[2]!.body.messages.filter((m: any) => m.role === 'tool').map((m: any) => m.content)).toEqual([
      '1',
      '2',
    ]);
  });

  it('uses the Jira tools on the fake Jira when the model asks', async () => {
    const agent = node('agent', 'ag03', {
      modelId: M.gpt,
      agentPrompt: 'File a ticket for the broken badge reader.',
    });
    const tools = node('jira_tools', 'jt01', {
      site_url: jira.url,
      email: JIRA.email,
      api_token: JIRA.apiToken,
      project_key: 'OPS',
    });
    fake.scriptToolCalls([
      {
        name: 'jira_create_issue',
        arguments: { summary: 'Badge reader at door B', description: 'Red light.' },
      },
    ]);
    const { result, outputs } = await run('agent-jira', [agent], ref(agent, 'response'), {
      extraNodes: [tools],
      extraEdges: [{ ...edge(tools, agent), targetHandle: TOOLS_HANDLE }],
    });
    expect(result.status).toBe('succeeded');
    const issue = jira.issues.find((i) => i.summary === 'Badge reader at door B')!;
    expect(issue).toMatchObject({ project: 'OPS', issueType: 'Task' });
    expect(result.text).toBe(`Echo: ${JSON.stringify({ key: issue.key, id: issue.id })}`);
    expect(outputs(agent).steps).toMatchObject([{ tool: 'jira_create_issue' }]);
  });
});

// ---- Cancellation ----------------------------------------------------------------------------------

describe('cancellation', () => {
  it('aborting mid-stream ends the run cancelled and closes the provider connection', async () => {
    const llm = node('llm', 'cx01', {
      modelId: M.gpt,
      prompt: Array.from({ length: 60 }, (_, i) => `w${i}`).join(' '),
    });
    const controller = new AbortController();
    const abortedBefore = fake.aborted();
    let chunksAtAbort = 0;
    fake.setTokenDelay(20);
    try {
      const { result, events } = await run('cancel', [llm], ref(llm, 'response'), {
        signal: controller.signal,
        onEvent: (event) => {
          if (event.type === 'text_chunk' && !controller.signal.aborted) {
            chunksAtAbort = 1;
            controller.abort();
          }
        },
      });
      expect(chunksAtAbort).toBe(1);
      expect(result.status).toBe('cancelled');
      expect(result.errorCode).toBe('cancelled');
      expect(result.error).toBe('The run was cancelled.');
      expect(result.outputs).toEqual({});
      expect(events.at(-1)).toMatchObject({ type: 'execution_error', code: 'cancelled' });
      expect(events.some((e) => e.type === 'execution_completed')).toBe(false);
      // Far fewer words than the 60+ the answer has: the stream stopped.
      expect(events.filter((e) => e.type === 'text_chunk').length).toBeLessThan(60);
      await eventually(() => fake.aborted() > abortedBefore, 'the provider saw the client leave');
    } finally {
      fake.setTokenDelay(0);
    }
    // The interrupted call is still logged, as an error, with what had streamed.
    await eventually(async () => (await logsOf('cancel')).length > 0, 'the cancelled call was logged');
    const [log] = await logsOf('cancel');
    expect(log).toMatchObject({ status: 'error', error: true, modelId: M.gpt, streamed: true });
    expect(log!.response).toMatch(/^Echo: /);
  });
});
