import { afterEach, describe, expect, it, vi } from 'vitest';
import { embedClient, type EmbedMessage } from '../src/embed/embed-client';

const SOURCE = {
  collection_id: 'col-1',
  collection_name: 'Handbook',
  document_id: 'doc-1',
  filename: 'handbook.md',
  chunk_index: 2,
  score: 0.82,
  excerpt: 'Every employee has 27 days of paid annual leave.',
};

function sse(events: unknown[]): Response {
  const text = events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');
  return new Response(new TextEncoder().encode(text), { headers: { 'content-type': 'text/event-stream' } });
}

afterEach(() => vi.unstubAllGlobals());

async function send(events: unknown[]) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => sse(events)),
  );
  const got = { conversation: '', text: '', final: '', sources: [] as unknown[][] };
  await embedClient('tok', 'http://api.test/embed/tok').send(
    'How many days of leave?',
    null,
    {
      onConversation: (id) => (got.conversation = id),
      onText: (t) => (got.text += t),
      onSources: (s) => got.sources.push(s),
      onFinal: (t) => (got.final = t),
    },
    new AbortController().signal,
  );
  return got;
}

describe('the embed widget client', () => {
  it("hands a simple chatbot's sources to the widget with the answer", async () => {
    const got = await send([
      { type: 'start', conversation_id: 'conv-1', message_id: 'm' },
      { type: 'sources', sources: [SOURCE] },
      { type: 'text', text: '27 days.' },
      { type: 'end' },
      '[DONE]',
    ]);
    expect(got).toEqual({ conversation: 'conv-1', text: '27 days.', final: '', sources: [[SOURCE]] });
  });

  it("hands a chatflow's sources over, and drops entries without the shape it shows", async () => {
    const got = await send([
      { type: 'run_started', conversation_id: 'conv-2', run_id: 'r' },
      { type: 'sources', node_id: 'kr', sources: [SOURCE, { filename: 'no-score.md' }, null] },
      { type: 'execution_completed', final_output: '27 days.' },
      '[DONE]',
    ]);
    expect(got.sources).toEqual([[SOURCE]]);
    expect(got.final).toBe('27 days.');
  });

  it("reads an answer's stored sources back from the history", async () => {
    const history = [
      { id: 'u', role: 'user', content: [{ type: 'text', text: 'How many days?' }], error: false },
      {
        id: 'a',
        role: 'assistant',
        content: [
          { type: 'text', text: '27 days.' },
          { type: 'sources', sources: [SOURCE] },
        ],
        error: false,
      },
    ];
    const fetch = vi.fn(async (url: string) => {
      expect(url).toMatch(
        /^http:\/\/api\.test\/embed\/tok\/conversations\/conv-1\/messages\?user=[\w-]{8,}$/,
      );
      return Response.json({ history });
    });
    vi.stubGlobal('fetch', fetch);
    const messages = await embedClient('tok', 'http://api.test/embed/tok').history('conv-1');
    expect(messages).toEqual<EmbedMessage[]>([
      { id: 'u', role: 'user', text: 'How many days?' },
      { id: 'a', role: 'assistant', text: '27 days.', sources: [SOURCE] },
    ]);
  });
});
