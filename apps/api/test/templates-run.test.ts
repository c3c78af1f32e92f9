// All ten flow templates, as a new user would take them: fetched from GET /templates, given only the
// choices a user must make (models of the right types, a knowledge collection, Notion and Figma
// credentials), saved, published and run through the API against local stand-ins of every outside
// service (the fake provider, a web site with a sitemap, Notion's and Figma's REST APIs).
import { inferenceLogs } from '@atelier/db';
import type { AnswerSource, MessagePart } from '@atelier/schemas';
import {
  sitemapXml,
  startFakeFigma,
  startFakeNotion,
  startFakeProvider,
  startFakeWeb,
  type FakeNotion,
  type FakeProvider,
  type FakeServer,
  type FakeWeb,
} from '@atelier/testkit';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finished } from './flows';
import { call, createOrg, fakeModel, startTestApp, type Org, type TestApp } from './helpers';
import { upload } from './knowledge-fixtures';

interface TemplateNode {
  id: string;
  type: string;
  data: { label: string; fields: Record<string, unknown> | unknown[] };
}
interface Template {
  id: string;
  type: 'chatflow' | 'workflow';
  configuration: { nodes: TemplateNode[]; edges: unknown[] };
}
interface NodeExecution {
  node_id: string;
  status: string;
  error: string | null;
  parameters: any;
  outputs: any;
}
interface RunDetail {
  status: string;
  error: string | null;
  outputs: Record<string, unknown> | null;
  final_output: string | null;
  node_executions: NodeExecution[];
}

const NOTION_TOKEN = 'secret_notion-integration-token';
const NOTION_DB = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';
const FIGMA_TOKEN = 'figd_figma-personal-access-token';
const FIGMA_KEY = 'AbCdEfGhIj0123456789';

const REFUNDS = [
  '# Refund policy',
  '',
  'Customers of Atelier Coffee may return unopened bags of beans within 45 days of delivery for a full refund.',
  'Opened bags are refunded as store credit only.',
].join('\n');
const GUIDE_TEXT = 'The espresso grinder must be purged with seven grams of beans before every shift.';
const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${body}</p></main></body></html>`;

let t: TestApp;
let fake: FakeProvider;
let web: FakeWeb;
let notion: FakeNotion;
let figma: FakeServer;
let org: Org;
let ws: string;
let templates: Template[];
const models: Record<'llm' | 'embeddings' | 'image' | 'speech' | 'transcription', string> = {
  llm: '',
  embeddings: '',
  image: '',
  speech: '',
  transcription: '',
};
/** The collection holding the uploaded refund policy (qa-chatbot, agent). */
let policies: string;

const token = () => org.admin.token;

async function model(name: string, type: string): Promise<string> {
  const { modelId } = await fakeModel(t.app, org, ws, fake.url, { name, type });
  if (!modelId) throw new Error(`no ${type} model`);
  return modelId;
}

async function collection(name: string): Promise<string> {
  const res = await call(t.app, 'POST', '/rag_collections', {
    token: token(),
    body: { workspace_id: ws, name, embeddings_model_id: models.embeddings },
  });
  if (res.status !== 201) throw new Error(`create collection: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

async function settled(collectionId: string, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(t.app, 'GET', `/rag_collections/${collectionId}/documents`, { token: token() });
    const docs = res.body.documents as { status: string; filename: string; error: string | null }[];
    if (docs.every((d) => d.status === 'ready' || d.status === 'failed')) return docs;
    if (Date.now() > until) throw new Error(`still ingesting: ${JSON.stringify(docs)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** How many records the collection's store holds (flow insertions are not uploaded documents). */
async function storedCount(collectionId: string): Promise<number> {
  const { connector_id, collection_name } = (
    await call(t.app, 'GET', `/rag_collections/${collectionId}`, { token: token() })
  ).body.rag_collection;
  const res = await call(
    t.app,
    'GET',
    `/connectors/${connector_id}/collections/${encodeURIComponent(collection_name)}/metadata`,
    { token: token() },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.count as number;
}

/** The template of GET /templates with the user's choices merged into the named nodes' fields. */
function filled(id: string, choices: Record<string, Record<string, unknown>>): Template {
  const template = structuredClone(templates.find((x) => x.id === id));
  if (!template) throw new Error(`no template ${id}`);
  for (const [nodeId, fields] of Object.entries(choices)) {
    const node = template.configuration.nodes.find((n) => n.id === nodeId);
    if (!node) throw new Error(`${id} has no node ${nodeId}`);
    node.data.fields = { ...(node.data.fields as Record<string, unknown>), ...fields };
  }
  return template;
}

/** Creates the chatbot of the template's type, saves and publishes its configuration: its id. */
async function chatbotOf(template: Template): Promise<string> {
  const created = await call(t.app, 'POST', '/chatbots', {
    token: token(),
    body: { workspace_id: ws, name: template.id, type: template.type },
  });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  const saved = await call(t.app, 'PUT', `/chatbots/${id}/chatflow/config`, {
    token: token(),
    body: { configuration: template.configuration },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const published = await call(t.app, 'POST', `/chatbots/${id}/publish`, { token: token() });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  return id;
}

/** Runs a published chatbot with these inputs and waits for the end: the run, which must have succeeded. */
async function run(chatbotId: string, inputs: Record<string, unknown>): Promise<RunDetail> {
  const started = await call(t.app, 'POST', `/chatbots/${chatbotId}/runs`, {
    token: token(),
    body: { inputs },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const detail = (await finished(t.app, token(), started.body.run_id as string, 60_000)) as RunDetail;
  const failures = detail.node_executions.filter((e) => e.status !== 'succeeded');
  expect({ status: detail.status, error: detail.error, failures }).toEqual({
    status: 'succeeded',
    error: null,
    failures: [],
  });
  return detail;
}

const execution = (detail: RunDetail, nodeId: string) => {
  const found = detail.node_executions.find((e) => e.node_id === nodeId);
  if (!found) throw new Error(`no execution of ${nodeId}: ${detail.node_executions.map((e) => e.node_id)}`);
  return found;
};

/** The prompt of the latest LLM call of the organization, as the inference log kept it. */
async function lastPrompt(): Promise<string> {
  const [log] = await t.app.db
    .select({ prompt: inferenceLogs.completePrompt })
    .from(inferenceLogs)
    .where(eq(inferenceLogs.organizationId, org.id))
    .orderBy(desc(inferenceLogs.createdAt))
    .limit(1);
  return String(log?.prompt ?? '');
}

beforeAll(async () => {
  fake = await startFakeProvider();
  web = await startFakeWeb({
    routes: {
      '/guide.html': page('Barista guide', GUIDE_TEXT),
      '/docs/opening.html': page('Opening the shop', 'Unlock the front door at half past seven sharp.'),
      '/docs/closing.html': page(
        'Closing the shop',
        'Count the till twice before switching off the roaster.',
      ),
    },
  });
  web.routes.set('/sitemap.xml', {
    body: sitemapXml([`${web.url}/docs/opening.html`, `${web.url}/docs/closing.html`]),
    contentType: 'application/xml',
  });
  notion = await startFakeNotion({
    token: NOTION_TOKEN,
    databases: {
      [NOTION_DB]: [
        {
          title: 'Holiday policy',
          properties: { Team: 'People' },
          blocks: [
            { type: 'paragraph', text: 'Every employee gets twenty-seven days of paid leave a year.' },
          ],
        },
        {
          title: 'Office plants',
          blocks: [{ type: 'paragraph', text: 'The ficus in the lobby is watered on Mondays.' }],
        },
      ],
    },
  });
  figma = await startFakeFigma({
    token: FIGMA_TOKEN,
    files: {
      [FIGMA_KEY]: {
        name: 'Shop app',
        document: {
          id: '0:0',
          name: 'Document',
          type: 'DOCUMENT',
          children: [
            {
              id: '0:1',
              name: 'Screens',
              type: 'CANVAS',
              children: [
                {
                  id: '1:2',
                  name: 'Login',
                  type: 'FRAME',
                  children: [
                    { id: '1:3', name: 'Title', type: 'TEXT', characters: 'Welcome back, barista' },
                    { id: '1:4', name: 'Background', type: 'RECTANGLE' },
                  ],
                },
              ],
            },
          ],
        },
      },
    },
  });
  t = await startTestApp({
    NODE_URL_ALLOW: '127.0.0.1',
    NOTION_API_URL: notion.url,
    FIGMA_API_URL: figma.url,
  });
  org = await createOrg(t.app);
  ws = await org.workspace(org.admin, 'Templates');
  models.llm = await model('gpt-4o-mini', 'llm');
  models.embeddings = await model('text-embedding-3-small', 'text-embeddings');
  models.image = await model('dall-e-3', 'text-to-image');
  models.speech = await model('tts-1', 'text-to-speech');
  models.transcription = await model('whisper-1', 'speech-to-text');

  policies = await collection('Policies');
  const uploaded = await upload(t.app, token(), policies, [
    { filename: 'refunds.md', content: REFUNDS, mimeType: 'text/markdown' },
  ]);
  expect(uploaded.status).toBe(202);
  expect((await settled(policies)).map((d) => [d.filename, d.status, d.error])).toEqual([
    ['refunds.md', 'ready', null],
  ]);

  const listed = await call(t.app, 'GET', '/templates', { token: token() });
  expect(listed.status).toBe(200);
  templates = listed.body.templates as Template[];
}, 120_000);

afterAll(async () => {
  await t?.close();
  await Promise.all([fake, web, notion, figma].map((s) => s?.close()));
});

describe('every template runs end to end through the API', () => {
  it('serves the ten templates', () => {
    expect(templates.map((x) => x.id)).toEqual([
      'simple-chatbot',
      'qa-chatbot',
      'image-generation',
      'audio-content-creator',
      'audio-transcription',
      'figma-dev',
      'notion-chatbot',
      'agent',
      'document-indexing',
      'knowledge-base-updater',
    ]);
  });

  it('refuse to publish as they come, naming exactly the choices a user must make', async () => {
    const missing: Record<string, string[]> = {};
    for (const template of templates) {
      const created = await call(t.app, 'POST', '/chatbots', {
        token: token(),
        body: { workspace_id: ws, name: `${template.id} as it comes`, type: template.type },
      });
      const id = created.body.id as string;
      const saved = await call(t.app, 'PUT', `/chatbots/${id}/chatflow/config`, {
        token: token(),
        body: { configuration: template.configuration },
      });
      expect(saved.status).toBe(200);
      const refused = await call(t.app, 'POST', `/chatbots/${id}/publish`, { token: token() });
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('invalid_flow');
      missing[template.id] = (refused.body.problems as { node_id: string; field: string }[]).map(
        (p) => `${p.node_id}.${p.field}`,
      );
    }
    expect(missing).toEqual({
      'simple-chatbot': ['llm_qs01.modelId'],
      'qa-chatbot': ['knowledge_retrieve_qa01.collection_id', 'llm_qa01.modelId'],
      'image-generation': ['llm_ig01.modelId', 'dalle3_ig01.modelId'],
      'audio-content-creator': ['llm_ac01.modelId', 'text_to_speech_ac01.modelId'],
      'audio-transcription': ['speech_to_text_at01.modelId', 'llm_at01.modelId'],
      'figma-dev': ['llm_fd01.modelId'],
      'notion-chatbot': [
        'notion_loader_nc01.integration_token',
        'notion_loader_nc01.database_id',
        'llm_nc01.modelId',
      ],
      agent: ['agent_ag01.modelId', 'vector_store_tool_ag01.collection_id'],
      'document-indexing': ['vector_store_insert_di01.collection_id'],
      'knowledge-base-updater': [
        'vector_store_delete_ku01.collection_id',
        'vector_store_insert_ku01.collection_id',
      ],
    });
  });

  it('simple-chatbot: the model answers the user', async () => {
    const bot = await chatbotOf(filled('simple-chatbot', { llm_qs01: { modelId: models.llm } }));
    const detail = await run(bot, { query: 'What is a cortado?' });
    expect(detail.final_output).toBe('Echo: What is a cortado?');
  });

  it('qa-chatbot: the uploaded passage is retrieved into the prompt', async () => {
    const bot = await chatbotOf(
      filled('qa-chatbot', {
        knowledge_retrieve_qa01: { collection_id: policies },
        llm_qa01: { modelId: models.llm },
      }),
    );
    const question = 'How long do I have to return unopened bags of beans?';
    const detail = await run(bot, { query: question });
    expect(detail.final_output).toBe(`Echo: ${question}`);
    const retrieved = execution(detail, 'knowledge_retrieve_qa01').outputs;
    expect(retrieved.context).toContain('within 45 days of delivery');
    expect(retrieved.documents[0].metadata).toMatchObject({
      filename: 'refunds.md',
      collection_id: policies,
    });
    expect(execution(detail, 'llm_qa01').parameters.systemPrompt).toContain('within 45 days of delivery');
    const prompt = await lastPrompt();
    expect(prompt).toContain('within 45 days of delivery');
    expect(prompt).toContain(question);
  });

  it('qa-chatbot in a chat: the answer streams its sources before it ends and keeps them in the history', async () => {
    const bot = await chatbotOf(
      filled('qa-chatbot', {
        knowledge_retrieve_qa01: { collection_id: policies },
        llm_qa01: { modelId: models.llm },
      }),
    );
    const opened = await call(t.app, 'POST', '/chat-interface/conversations', {
      token: token(),
      body: { title: '', chatbot_id: bot },
    });
    expect(opened.status).toBe(201);
    const conversation = opened.body.conversation_id as string;
    // inject reads the stream whole: it ends with the run.
    const res = await t.app.inject({
      method: 'POST',
      url: `/chat-interface/conversations/${conversation}/chatflow/message`,
      headers: { authorization: `Bearer ${token()}`, accept: 'text/event-stream' },
      payload: { input_data: { query: 'Can I return unopened bags of beans?' } },
    });
    const events = res.body.split('\n\n').flatMap((block) => {
      const data = block.split('\n').find((line) => line.startsWith('data: {'));
      return data ? [JSON.parse(data.slice(6)) as { type: string; sources?: AnswerSource[] }] : [];
    });
    const kinds = events.map((e) => e.type);
    expect(kinds).toContain('sources');
    expect(kinds.indexOf('sources')).toBeLessThan(kinds.indexOf('execution_completed'));
    const streamed = events.find((e) => e.type === 'sources')!.sources!;
    expect(streamed[0]).toMatchObject({
      collection_id: policies,
      collection_name: 'Policies',
      filename: 'refunds.md',
      chunk_index: 0,
    });
    expect(streamed[0]!.excerpt).toContain('within 45 days of delivery');

    const history = await call(t.app, 'GET', `/chat-interface/conversations/${conversation}/history`, {
      token: token(),
    });
    expect(history.status).toBe(200);
    const answer = (history.body.history as { role: string; content: MessagePart[] }[]).at(-1)!;
    expect(answer.role).toBe('assistant');
    expect(answer.content).toEqual([
      { type: 'text', text: 'Echo: Can I return unopened bags of beans?' },
      { type: 'sources', sources: streamed },
    ]);

    // Asked through the public API without streaming, the answer comes with the same sources.
    const key = await call(t.app, 'POST', `/chatbots/${bot}/api_keys`, {
      token: token(),
      body: { name: 'Site' },
    });
    expect(key.status).toBe(201);
    const blocking = await call(t.app, 'POST', '/v1/chat-messages', {
      token: key.body.key as string,
      body: { user: 'visitor-1', message: 'Can I return unopened bags of beans?', stream: false },
    });
    expect(blocking.status).toBe(200);
    expect(blocking.body).toMatchObject({
      status: 'succeeded',
      answer: 'Echo: Can I return unopened bags of beans?',
    });
    expect(blocking.body.sources).toEqual(streamed);

    // An OpenAI client streaming the chatflow gets its citations with the answer's chunk.
    const completion = await t.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${key.body.key as string}` },
      payload: {
        model: bot,
        stream: true,
        messages: [{ role: 'user', content: 'Can I return unopened bags of beans?' }],
      },
    });
    expect(completion.statusCode).toBe(200);
    const answerChunk = completion.body
      .split('\n\n')
      .filter((block) => block.startsWith('data: {'))
      .map((block) => JSON.parse(block.slice(6)).choices[0]?.delta ?? {})
      .find((delta) => delta.content);
    expect(answerChunk.content).toBe('Echo: Can I return unopened bags of beans?');
    expect(answerChunk.context.citations[0]).toMatchObject({
      title: 'refunds.md',
      chunk_id: '0',
      collection_id: policies,
      content: streamed[0]!.excerpt,
    });
  });

  it('image-generation: the enhanced prompt becomes an image', async () => {
    const bot = await chatbotOf(
      filled('image-generation', {
        llm_ig01: { modelId: models.llm },
        dalle3_ig01: { modelId: models.image },
      }),
    );
    const detail = await run(bot, { query: 'a fox drinking coffee' });
    expect(execution(detail, 'dalle3_ig01').parameters.prompt).toBe('Echo: a fox drinking coffee');
    expect(detail.final_output).toMatch(/^!\[Generated image\]\(\S+\)/);
    const image = String(detail.outputs?.image);
    expect(image).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(detail.final_output).toContain(`![Generated image](${image})`);
  });

  it('audio-content-creator: the script is read aloud', async () => {
    const bot = await chatbotOf(
      filled('audio-content-creator', {
        llm_ac01: { modelId: models.llm },
        text_to_speech_ac01: { modelId: models.speech },
      }),
    );
    const detail = await run(bot, { query: 'the history of the espresso machine' });
    expect(detail.final_output).toBe('Echo: the history of the espresso machine');
    expect(execution(detail, 'text_to_speech_ac01').parameters.input).toBe(
      'Echo: the history of the espresso machine',
    );
    expect(detail.outputs?.audio).toMatchObject({
      name: 'speech.mp3',
      dataUrl: expect.stringMatching(/^data:audio\/mpeg;base64,/),
    });
  });

  it('audio-transcription: the recording is transcribed, then cleaned up', async () => {
    const bot = await chatbotOf(
      filled('audio-transcription', {
        speech_to_text_at01: { modelId: models.transcription },
        llm_at01: { modelId: models.llm },
      }),
    );
    const audio = `data:audio/mpeg;base64,${Buffer.alloc(2048, 1).toString('base64')}`;
    const detail = await run(bot, { query: 'Summarise in French', audio });
    const transcript = execution(detail, 'speech_to_text_at01').outputs.text as string;
    expect(transcript).toMatch(/^Transcript of \S+\.mp3 \(2048 bytes\)$/);
    expect(detail.outputs?.transcript).toBe(transcript);
    expect(detail.final_output).toContain(transcript);
    expect(detail.final_output).toContain('Summarise in French');
  });

  it('figma-dev: the frame’s text reaches the prompt (token in the node, then a stored Figma tool)', async () => {
    const byToken = await chatbotOf(
      filled('figma-dev', {
        llm_fd01: { modelId: models.llm },
        figma_loader_fd01: { access_token: FIGMA_TOKEN },
      }),
    );
    const detail = await run(byToken, { query: 'Write the login screen', file_key: FIGMA_KEY });
    expect(execution(detail, 'figma_loader_fd01').outputs.documents).toHaveLength(1);
    expect(detail.final_output).toContain('Welcome back, barista');
    expect(await lastPrompt()).toContain('Text: Welcome back, barista');

    const tool = await call(t.app, 'POST', '/tools', {
      token: token(),
      body: { workspace_id: ws, name: 'Design', type: 'figma', settings: { access_token: FIGMA_TOKEN } },
    });
    expect(tool.status).toBe(201);
    const byTool = await chatbotOf(
      filled('figma-dev', {
        llm_fd01: { modelId: models.llm },
        figma_loader_fd01: { toolId: tool.body.tool_id },
      }),
    );
    const again = await run(byTool, {
      query: 'Write the login screen',
      file_key: FIGMA_KEY,
      node_ids: '1:2',
    });
    expect(execution(again, 'figma_loader_fd01').parameters.toolId).toBe(tool.body.tool_id);
    expect(again.final_output).toContain('Welcome back, barista');
    const requests = figma.requests.filter((r) => r.path.startsWith(`/v1/files/${FIGMA_KEY}`));
    expect(requests).toHaveLength(2);
    expect(requests.every((r) => r.headers['x-figma-token'] === FIGMA_TOKEN)).toBe(true);
  });

  it('notion-chatbot: the database’s pages reach the prompt', async () => {
    const bot = await chatbotOf(
      filled('notion-chatbot', {
        notion_loader_nc01: { integration_token: NOTION_TOKEN, database_id: NOTION_DB },
        llm_nc01: { modelId: models.llm },
      }),
    );
    const question = 'How many days of paid leave do I get?';
    const detail = await run(bot, { query: question });
    expect(detail.final_output).toBe(`Echo: ${question}`);
    expect(execution(detail, 'notion_loader_nc01').outputs.documents).toHaveLength(2);
    const prompt = await lastPrompt();
    expect(prompt).toContain('Every employee gets twenty-seven days of paid leave a year.');
    expect(prompt).toContain('Holiday policy');
    expect(notion.requests.some((r) => r.path === `/v1/databases/${NOTION_DB}/query`)).toBe(true);
  });

  it('agent: the model calls the knowledge search tool and answers from what it found', async () => {
    const template = filled('agent', {
      agent_ag01: { modelId: models.llm },
      vector_store_tool_ag01: { collection_id: policies },
    });
    const search = template.configuration.nodes.find((n) => n.id === 'vector_store_tool_ag01')!;
    const toolName = (search.data.fields as Record<string, unknown>).name as string;
    const bot = await chatbotOf(template);
    fake.scriptToolCalls([{ name: toolName, arguments: { query: 'return unopened bags' } }]);
    const detail = await run(bot, { query: 'Can I return a bag of beans I have not opened?' });
    expect(detail.final_output).toContain('within 45 days of delivery');
    const chats = fake.requests.filter((r) => r.path.startsWith('/v1/chat/completions')).slice(-2);
    const offered = (chats[0]!.body as { tools: { function: { name: string } }[] }).tools.map(
      (x) => x.function.name,
    );
    expect(offered).toContain(toolName);
    const messages = (chats[1]!.body as { messages: { role: string; content: unknown }[] }).messages;
    const toolAnswer = messages.find((m) => m.role === 'tool');
    expect(JSON.stringify(toolAnswer?.content)).toContain('within 45 days of delivery');
  });

  it('document-indexing: a web page is split, embedded and stored, then found by a query', async () => {
    const target = await collection('Barista pages');
    const bot = await chatbotOf(
      filled('document-indexing', { vector_store_insert_di01: { collection_id: target } }),
    );
    const url = `${web.url}/guide.html`;
    const detail = await run(bot, { url });
    const inserted = execution(detail, 'vector_store_insert_di01').outputs.inserted as number;
    expect(inserted).toBeGreaterThan(0);
    expect(detail.outputs?.inserted).toBe(inserted);
    expect(detail.final_output).toBe(`Indexed ${inserted} chunks of ${url}.`);
    expect(await storedCount(target)).toBe(inserted);

    const found = await call(t.app, 'POST', `/rag_collections/${target}/query`, {
      token: token(),
      body: { query: 'How many grams of beans purge the espresso grinder?', top_k: 1 },
    });
    expect(found.status).toBe(200);
    expect(found.body.documents[0].content).toContain(GUIDE_TEXT);
  });

  it('knowledge-base-updater: a second run deletes the sitemap’s previous records and stores the new ones', async () => {
    const target = await collection('Shop manual');
    const bot = await chatbotOf(
      filled('knowledge-base-updater', {
        vector_store_delete_ku01: { collection_id: target },
        vector_store_insert_ku01: { collection_id: target },
      }),
    );
    const sitemap = `${web.url}/sitemap.xml`;
    const first = await run(bot, { sitemap_url: sitemap });
    expect(first.outputs).toMatchObject({ deleted: 0 });
    const stored = first.outputs?.inserted as number;
    expect(stored).toBeGreaterThanOrEqual(2);
    expect(await storedCount(target)).toBe(stored);

    // The site changes: one page rewritten. The next run replaces every record of the sitemap.
    web.routes.set('/docs/closing.html', page('Closing the shop', 'Lock the back door, then set the alarm.'));
    const second = await run(bot, { sitemap_url: sitemap });
    expect(second.outputs?.deleted).toBe(stored);
    expect(second.outputs?.inserted).toBeGreaterThanOrEqual(2);
    expect(second.final_output).toBe(
      `Removed ${stored} old records and stored ${second.outputs?.inserted as number} chunks.`,
    );
    expect(await storedCount(target)).toBe(second.outputs?.inserted);

    const fresh = await call(t.app, 'POST', `/rag_collections/${target}/query`, {
      token: token(),
      body: { query: 'What do I lock before setting the alarm?', top_k: 5 },
    });
    const texts = (fresh.body.documents as { content: string; metadata: Record<string, unknown> }[]).map(
      (d) => d.content,
    );
    expect(texts.join('\n')).toContain('Lock the back door');
    expect(texts.join('\n')).not.toContain('Count the till twice');
    expect(
      (fresh.body.documents as { metadata: Record<string, unknown> }[]).every(
        (d) => d.metadata.sitemap === sitemap,
      ),
    ).toBe(true);
  });
});
