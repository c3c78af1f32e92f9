// Test helpers for chatflows and workflows: small graphs built as the editor would save them, and a
// reader for a run's server-sent events.
import type { FlowStreamEvent } from '@atelier/schemas';
import type { FastifyInstance } from 'fastify';
import { call, type Org } from './helpers';

export interface Seen {
  id: string | null;
  event: FlowStreamEvent;
}

const node = (id: string, type: string, fields: unknown, x: number) => ({
  id,
  type,
  data: { label: id, fields },
  position: { x, y: 0 },
});
const edge = (source: string, target: string) => ({ id: `${source}-${target}`, source, target });

/** input (one custom field, `topic`) -> LLM (prompt with a reference) -> output. */
export function storyFlow(modelId: string, options: { mandatoryTopic?: boolean } = {}) {
  return {
    nodes: [
      node(
        'input_in01',
        'input',
        [{ name: 'topic', type: 'string', isMandatory: options.mandatoryTopic ?? true }],
        0,
      ),
      node(
        'llm_ab12',
        'llm',
        {
          modelId,
          systemPrompt: 'You tell stories.',
          prompt: 'Write about {{#input_in01.topic#}}{{#input_in01.query#}}',
        },
        200,
      ),
      node('output_ou01', 'output', { response: '{{#llm_ab12.response#}}' }, 400),
    ],
    edges: [edge('input_in01', 'llm_ab12'), edge('llm_ab12', 'output_ou01')],
  };
}

/** input -> output: the cheapest flow there is. */
export function echoFlow() {
  return {
    nodes: [
      node('input_in01', 'input', [], 0),
      node('output_ou01', 'output', { response: 'You said: {{#input_in01.query#}}' }, 200),
    ],
    edges: [edge('input_in01', 'output_ou01')],
  };
}

export async function flowBot(
  app: FastifyInstance,
  org: Org,
  workspaceId: string,
  type: 'chatflow' | 'workflow',
  configuration: unknown,
  publish = true,
): Promise<string> {
  const id = (
    await call(app, 'POST', '/chatbots', {
      token: org.admin.token,
      body: { workspace_id: workspaceId, name: `${type} bot`, type },
    })
  ).body.id as string;
  const saved = await call(app, 'PUT', `/chatbots/${id}/chatflow/config`, {
    token: org.admin.token,
    body: { configuration },
  });
  if (saved.status !== 200) throw new Error(`save failed: ${saved.status} ${JSON.stringify(saved.body)}`);
  if (publish) {
    const res = await call(app, 'POST', `/chatbots/${id}/publish`, { token: org.admin.token });
    if (res.status !== 200) throw new Error(`publish failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return id;
}

/**
 * Reads an SSE response: each event with its id, until [DONE] or until `stop` says so (then the
 * connection is closed, as a client leaving would).
 */
export async function readEvents(
  res: Response,
  stop: (seen: Seen[]) => boolean = () => false,
): Promise<{ events: Seen[]; done: boolean }> {
  if (!res.ok || !res.body) throw new Error(`stream refused: ${res.status} ${await res.text()}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const events: Seen[] = [];
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { events, done: false };
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let id: string | null = null;
        let data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith('id: ')) id = line.slice(4);
          if (line.startsWith('data: ')) data = line.slice(6);
        }
        if (data === '[DONE]') return { events, done: true };
        const event = JSON.parse(data) as FlowStreamEvent;
        if (event.type === 'heartbeat') continue;
        events.push({ id, event });
        if (stop(events)) return { events, done: false };
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

export const types = (seen: Seen[]) => seen.map((s) => s.event.type);

/** Polls a run until it has ended. */
export async function finished(app: FastifyInstance, token: string, runId: string, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(app, 'GET', `/runs/${runId}`, { token });
    if (['succeeded', 'failed', 'cancelled'].includes(res.body.status as string)) return res.body;
    if (Date.now() > until) throw new Error(`run ${runId} still ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
