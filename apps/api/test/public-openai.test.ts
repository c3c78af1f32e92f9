import { conversations, creditLedger, inferenceLogs } from '@atelier/db';
import { and, eq } from 'drizzle-orm';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPublicWorld, type PublicWorld } from './public-api-fixtures';

/** The official `openai` client against /v1, for the three chatbot types. */
let w: PublicWorld;
const clientFor = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${w.base}/v1`, maxRetries: 0 });

beforeAll(async () => {
  w = await startPublicWorld();
});
afterAll(() => w.close());

async function streamed(client: OpenAI, params: Omit<OpenAI.ChatCompletionCreateParamsStreaming, 'stream'>) {
  const stream = await client.chat.completions.create({ ...params, stream: true });
  let text = '';
  const chunks: OpenAI.ChatCompletionChunk[] = [];
  for await (const chunk of stream) {
    chunks.push(chunk);
    text += chunk.choices[0]?.delta.content ?? '';
  }
  return { text, chunks };
}

/** The inference logs of the key's calls. */
const logsOf = (keyName: string) =>
  w.app.db.select().from(inferenceLogs).where(eq(inferenceLogs.apiKeyName, keyName));

describe('the OpenAI-compatible API with the official openai client', () => {
  it('lists the key’s chatbot as the one model', async () => {
    const { key } = await w.key(w.bots.simple);
    const page = await clientFor(key).models.list();
    expect(page.data.map((m) => m.id)).toEqual([w.bots.simple]);
    expect(page.data[0]).toMatchObject({ object: 'model', owned_by: 'atelier' });
  });

  it('a simple chatbot answers, streamed and not, charged to the organization and logged with the key name', async () => {
    const { key } = await w.key(w.bots.simple, 'Simple key');
    const client = clientFor(key);
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: 'system', content: 'Ignored: the chatbot has its own instruction.' },
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: [{ type: 'text', text: 'hello there' }] },
    ];
    const completion = await client.chat.completions.create({ model: w.bots.simple, messages, user: 'ann' });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]!.message.content).toBe('Echo: hello there');
    expect(completion.usage!.total_tokens).toBeGreaterThan(0);
    expect(completion.usage!.total_tokens).toBe(
      completion.usage!.prompt_tokens + completion.usage!.completion_tokens,
    );
    // The earlier turns reached the model.
    const sent = JSON.stringify(w.fake.requests.at(-1)!.body);
    expect(sent).toContain('first answer');

    const { text, chunks } = await streamed(client, {
      model: w.bots.simple,
      messages: [{ role: 'user', content: 'stream me' }],
      stream_options: { include_usage: true },
      user: 'ann',
    });
    expect(text).toBe('Echo: stream me');
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.at(-1)!.choices).toEqual([]);
    expect(chunks.at(-1)!.usage!.completion_tokens).toBeGreaterThan(0);

    const logs = await logsOf('Simple key');
    expect(logs).toHaveLength(2);
    expect(logs.every((l) => l.userId === null && l.chatbotId === w.bots.simple && l.credits > 0)).toBe(true);
    const charges = await w.app.db
      .select()
      .from(creditLedger)
      .where(
        and(eq(creditLedger.organizationId, w.org.id), eq(creditLedger.description, 'Chat with Support bot')),
      );
    const logIds = logs.map((l) => l.id);
    expect(
      charges.filter((c) => logIds.includes((c.metadata as { inference_log_id: string }).inference_log_id)),
    ).toHaveLength(2);
    // Each call is a conversation of the end user, made with the key.
    const stored = await w.app.db.select().from(conversations).where(eq(conversations.endUser, 'ann'));
    expect(stored).toHaveLength(2);
  });

  it('a chatflow answers with its final output, streamed and not', async () => {
    const { key } = await w.key(w.bots.chatflow, 'Flow key');
    const client = clientFor(key);
    const completion = await client.chat.completions.create({
      model: w.bots.chatflow,
      messages: [{ role: 'user', content: 'dragons' }],
    });
    expect(completion.choices[0]!.message.content).toBe('Echo: Write about dragons');
    expect(completion.usage!.prompt_tokens).toBeGreaterThan(0);
    const { text, chunks } = await streamed(client, {
      model: w.bots.chatflow,
      messages: [{ role: 'user', content: 'knights' }],
      stream_options: { include_usage: true },
    });
    expect(text).toBe('Echo: Write about knights');
    expect(chunks.at(-1)!.usage!.total_tokens).toBeGreaterThan(0);
    const logs = await logsOf('Flow key');
    expect(logs).toHaveLength(2);
    expect(logs.every((l) => l.userId === null && l.chatbotId === w.bots.chatflow)).toBe(true);
  });

  it('a workflow takes its inputs from a JSON user message or from metadata', async () => {
    const { key } = await w.key(w.bots.workflow);
    const client = clientFor(key);
    const completion = await client.chat.completions.create({
      model: w.bots.workflow,
      messages: [{ role: 'user', content: JSON.stringify({ topic: 'cats' }) }],
    });
    expect(completion.choices[0]!.message.content).toBe('Topic: cats');
    const { text } = await streamed(client, {
      model: w.bots.workflow,
      messages: [{ role: 'user', content: 'go' }],
      metadata: { topic: 'dogs' },
    });
    expect(text).toBe('Topic: dogs');
  });

  it('refusals reach OpenAI clients as their errors', async () => {
    const { key } = await w.key(w.bots.workflow);
    const client = clientFor(key);
    const wrongModel = client.chat.completions.create({
      model: w.bots.simple,
      messages: [{ role: 'user', content: 'hi' }],
    });
    await expect(wrongModel).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    // A workflow run that fails (its mandatory input is missing): 502 before any stream…
    const failed = client.chat.completions.create({
      model: w.bots.workflow,
      messages: [{ role: 'user', content: 'no topic' }],
    });
    await expect(failed).rejects.toMatchObject({ status: 502, code: 'inference_error' });
    // …and an error event inside a stream.
    await expect(
      streamed(client, { model: w.bots.workflow, messages: [{ role: 'user', content: 'no topic' }] }),
    ).rejects.toMatchObject({ code: 'execution_error' });
    const badKey = clientFor(`atl_${'B'.repeat(43)}`);
    await expect(badKey.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });
});
