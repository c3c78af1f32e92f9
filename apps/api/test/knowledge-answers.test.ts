// A new user's path: documents uploaded to a collection are ingested by the API's own worker, found by a
// query with their source, and used by a simple chatbot, which streams its sources and keeps them.
import type { AddressInfo } from 'node:net';
import { inferenceLogs } from '@atelier/db';
import { startFakeProvider, type FakeProvider } from '@atelier/testkit';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createOrg, fakeModel, startTestApp, type Org, type TestApp } from './helpers';
import { builtinCollection, upload } from './knowledge-fixtures';

let t: TestApp;
let fake: FakeProvider;
let org: Org;
let ws: string;
let base: string;
let collectionId: string;

const REFUNDS = [
  '# Refund policy',
  '',
  'Customers of Atelier Coffee may return unopened bags of beans within 45 days of delivery for a full refund.',
  'Opened bags are refunded as store credit only.',
].join('\n');
const SHIPPING = [
  '# Shipping',
  '',
  'Orders ship from our roastery in Lyon every Tuesday and Thursday; delivery in France takes two days.',
].join('\n');

beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  fake = await startFakeProvider();
  org = await createOrg(t.app);
  ws = await org.workspace(org.admin, 'Answers');
  ({ collectionId } = await builtinCollection(t.app, org, ws, fake.url, 'Policies'));
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const token = () => org.admin.token;

async function settledDocuments(timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(t.app, 'GET', `/rag_collections/${collectionId}/documents`, { token: token() });
    const docs = res.body.documents as { status: string; filename: string; error: string | null }[];
    if (docs.every((d) => d.status === 'ready' || d.status === 'failed')) return docs;
    if (Date.now() > until) throw new Error(`still ingesting: ${JSON.stringify(docs)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('answers from uploaded documents', () => {
  it('ingests uploads in the API, then a query finds the passage with its source', async () => {
    const collection = async () =>
      (await call(t.app, 'GET', `/rag_collections/${collectionId}`, { token: token() })).body.rag_collection;
    // The vector index waits for the first ingestion to be written.
    expect((await collection()).vector_indexed).toBe(false);
    const res = await upload(t.app, token(), collectionId, [
      { filename: 'refunds.md', content: REFUNDS, mimeType: 'text/markdown' },
      { filename: 'shipping.txt', content: SHIPPING },
    ]);
    expect(res.status).toBe(202);
    const docs = await settledDocuments();
    expect(docs.map((d) => [d.filename, d.status, d.error]).sort()).toEqual([
      ['refunds.md', 'ready', null],
      ['shipping.txt', 'ready', null],
    ]);
    const shown = (await call(t.app, 'GET', `/rag_collections/${collectionId}`, { token: token() })).body
      .rag_collection;
    expect(shown.document_count).toBe(2);
    expect(shown.chunk_count).toBeGreaterThanOrEqual(2);
    await expect.poll(async () => (await collection()).vector_indexed, { timeout: 15_000 }).toBe(true);

    const answer = await call(t.app, 'POST', `/rag_collections/${collectionId}/query`, {
      token: token(),
      body: { query: 'How many days do customers have to return unopened bags?', top_k: 1 },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.documents).toHaveLength(1);
    expect(answer.body.documents[0]).toMatchObject({
      source: { collection_id: collectionId, filename: 'refunds.md', chunk_index: 0 },
    });
    expect(answer.body.documents[0].content).toContain('45 days');
  });

  it('a simple chatbot with the collection puts the passage in its prompt and streams and stores its sources', async () => {
    const { modelId } = await fakeModel(t.app, org, ws, fake.url, { name: 'gpt-4o-mini' });
    const botId = (
      await call(t.app, 'POST', '/chatbots', {
        token: token(),
        body: { workspace_id: ws, name: 'Coffee help', type: 'simple' },
      })
    ).body.id as string;
    const saved = await call(t.app, 'PUT', `/chatbots/${botId}/simple/config`, {
      token: token(),
      body: {
        instruction: 'Answer from the context.',
        model_id: modelId,
        knowledge_collection_ids: [collectionId],
      },
    });
    expect(saved.status).toBe(200);
    await call(t.app, 'POST', `/chatbots/${botId}/publish`, { token: token() });
    const conversationId = (
      await call(t.app, 'POST', '/chat-interface/conversations', {
        token: token(),
        body: { chatbot_id: botId, title: '' },
      })
    ).body.conversation_id as string;

    const question = 'Can I return an unopened bag of beans?';
    const res = await fetch(`${base}/chat-interface/conversations/${conversationId}/simple/message`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: question }] }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const events = (await res.text())
      .split('\n\n')
      .filter((block) => block.startsWith('data: ') && block !== 'data: [DONE]')
      .map((block) => JSON.parse(block.slice(6)) as { type: string; sources?: { filename: string }[] });
    const types = events.map((e) => e.type).filter((type) => type !== 'heartbeat');
    expect(types[0]).toBe('start');
    expect(types[1]).toBe('sources');
    expect(types.at(-1)).toBe('end');
    const sources = events.find((e) => e.type === 'sources')!.sources!;
    expect(sources[0]!.filename).toBe('refunds.md');

    const [log] = await t.app.db
      .select({ prompt: inferenceLogs.completePrompt })
      .from(inferenceLogs)
      .where(and(eq(inferenceLogs.organizationId, org.id), eq(inferenceLogs.streamed, true)))
      .orderBy(desc(inferenceLogs.createdAt))
      .limit(1);
    expect(log!.prompt).toContain('within 45 days of delivery');
    expect(log!.prompt).toContain('(refunds.md)');

    const history = await call(t.app, 'GET', `/chat-interface/conversations/${conversationId}/history`, {
      token: token(),
    });
    const stored = history.body.history.at(-1);
    expect(stored.role).toBe('assistant');
    expect(stored.content.find((p: { type: string }) => p.type === 'sources').sources[0].filename).toBe(
      'refunds.md',
    );

    // An integrator's blocking call gets the sources with the answer.
    const key = await call(t.app, 'POST', `/chatbots/${botId}/api_keys`, {
      token: token(),
      body: { name: 'Site' },
    });
    expect(key.status).toBe(201);
    const blocking = await call(t.app, 'POST', '/v1/chat-messages', {
      token: key.body.key as string,
      body: { user: 'visitor-1', message: question, stream: false },
    });
    expect(blocking.status).toBe(200);
    expect(blocking.body.status).toBe('succeeded');
    expect(blocking.body.sources[0]).toMatchObject({
      filename: 'refunds.md',
      collection_id: collectionId,
      collection_name: 'Policies',
    });
    expect(blocking.body.sources[0].excerpt).toContain('within 45 days');

    // An OpenAI client gets them as Azure OpenAI's "On your data" citations: with the message, or in a
    // chunk before the text.
    const completion = await call(t.app, 'POST', '/v1/chat/completions', {
      token: key.body.key as string,
      body: { model: botId, messages: [{ role: 'user', content: question }] },
    });
    expect(completion.status).toBe(200);
    const citations = completion.body.choices[0].message.context.citations;
    expect(citations[0]).toMatchObject({
      title: 'refunds.md',
      filepath: 'refunds.md',
      chunk_id: '0',
      url: null,
      collection_id: collectionId,
      collection_name: 'Policies',
    });
    expect(citations[0].content).toContain('within 45 days');
    expect(citations).toHaveLength(blocking.body.sources.length);
    const streamed = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.body.key as string}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: botId, stream: true, messages: [{ role: 'user', content: question }] }),
    });
    expect(streamed.status).toBe(200);
    const deltas = (await streamed.text())
      .split('\n\n')
      .filter((block) => block.startsWith('data: {'))
      .map((block) => JSON.parse(block.slice(6)).choices[0]?.delta ?? {});
    const cited = deltas.findIndex((d) => d.context);
    expect(cited).toBeGreaterThan(-1);
    expect(cited).toBeLessThan(deltas.findIndex((d) => d.content));
    expect(deltas[cited].context.citations).toEqual(citations);
    expect(deltas.map((d) => d.content ?? '').join('')).toBe(completion.body.choices[0].message.content);
  });

  it('a follow-up question is searched with the questions before it, and alone', async () => {
    // One passage a search: what each search finds is what the chatbot is given.
    const faq = await call(t.app, 'POST', '/rag_collections', {
      token: token(),
      body: {
        workspace_id: ws,
        name: 'FAQ',
        embeddings_model_id: (
          await call(t.app, 'GET', `/rag_collections/${collectionId}`, { token: token() })
        ).body.rag_collection.embeddings_model_id,
        top_k: 1,
      },
    });
    expect(faq.status).toBe(201);
    const faqId = faq.body.id as string;
    await upload(t.app, token(), faqId, [
      { filename: 'refunds.md', content: REFUNDS, mimeType: 'text/markdown' },
      { filename: 'shipping.txt', content: SHIPPING },
    ]);
    await expect
      .poll(
        async () =>
          (await call(t.app, 'GET', `/rag_collections/${faqId}/documents`, { token: token() })).body.documents
            .map((d: { status: string }) => d.status)
            .join(),
        { timeout: 60_000 },
      )
      .toBe('ready,ready');
    const first = 'When do orders ship from the roastery in Lyon?';
    const followUp = 'Within how many days?';
    // Alone, the follow-up finds the refund delay: it names nothing of shipping.
    const alone = await call(t.app, 'POST', `/rag_collections/${faqId}/query`, {
      token: token(),
      body: { query: followUp },
    });
    expect(alone.body.documents.map((d: { source: { filename: string } }) => d.source.filename)).toEqual([
      'refunds.md',
    ]);

    const { modelId } = await fakeModel(t.app, org, ws, fake.url, { name: 'gpt-4o-mini' });
    const botId = (
      await call(t.app, 'POST', '/chatbots', {
        token: token(),
        body: { workspace_id: ws, name: 'Coffee FAQ', type: 'simple' },
      })
    ).body.id as string;
    await call(t.app, 'PUT', `/chatbots/${botId}/simple/config`, {
      token: token(),
      body: { instruction: 'Answer from the context.', model_id: modelId, knowledge_collection_ids: [faqId] },
    });
    await call(t.app, 'POST', `/chatbots/${botId}/publish`, { token: token() });
    const key = await call(t.app, 'POST', `/chatbots/${botId}/api_keys`, {
      token: token(),
      body: { name: 'F' },
    });
    const completion = await call(t.app, 'POST', '/v1/chat/completions', {
      token: key.body.key as string,
      body: {
        model: botId,
        messages: [
          { role: 'user', content: first },
          { role: 'assistant', content: 'Every Tuesday and Thursday.' },
          { role: 'user', content: followUp },
        ],
      },
    });
    expect(completion.status).toBe(200);
    // Searched with the first question, it finds the shipping passage first; alone, the refund delay.
    const citations = completion.body.choices[0].message.context.citations as { title: string }[];
    expect(citations.map((c) => c.title)).toEqual(['shipping.txt', 'refunds.md']);
  });

  it('an OpenAI client of a chatbot without knowledge gets no context', async () => {
    const { modelId } = await fakeModel(t.app, org, ws, fake.url, { name: 'gpt-4o-mini' });
    const botId = (
      await call(t.app, 'POST', '/chatbots', {
        token: token(),
        body: { workspace_id: ws, name: 'Plain', type: 'simple' },
      })
    ).body.id as string;
    await call(t.app, 'PUT', `/chatbots/${botId}/simple/config`, {
      token: token(),
      body: { instruction: 'Be brief.', model_id: modelId },
    });
    await call(t.app, 'POST', `/chatbots/${botId}/publish`, { token: token() });
    const key = await call(t.app, 'POST', `/chatbots/${botId}/api_keys`, {
      token: token(),
      body: { name: 'K' },
    });
    const completion = await call(t.app, 'POST', '/v1/chat/completions', {
      token: key.body.key as string,
      body: { model: botId, messages: [{ role: 'user', content: 'Hello' }] },
    });
    expect(completion.status).toBe(200);
    expect(completion.body.choices[0].message).toEqual({
      role: 'assistant',
      content: 'Echo: Hello',
      refusal: null,
    });
  });

  it('refuses a collection of another workspace in a chatbot', async () => {
    const otherWs = await org.workspace(org.admin, 'Elsewhere');
    const { modelId } = await fakeModel(t.app, org, otherWs, fake.url, { name: 'gpt-4o-mini' });
    const botId = (
      await call(t.app, 'POST', '/chatbots', {
        token: token(),
        body: { workspace_id: otherWs, name: 'Other', type: 'simple' },
      })
    ).body.id as string;
    const res = await call(t.app, 'PUT', `/chatbots/${botId}/simple/config`, {
      token: token(),
      body: { instruction: 'x', model_id: modelId, knowledge_collection_ids: [collectionId] },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('collection_not_found');
  });
});
