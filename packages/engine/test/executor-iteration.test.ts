import { describe, expect, it } from 'vitest';
import { runFlow } from '../src';
import {
  chatStub,
  edge,
  eventLog,
  flow,
  inputNode,
  lastUserText,
  node,
  reply,
  stubServices,
  textNode,
} from './helpers';

type Mode = {
  mode?: 'sequential' | 'parallel';
  concurrency?: number;
  error_mode?: 'stop' | 'continue' | 'drop';
};

/** input(items: string[]) -> iteration [ llm -> text ] -> output; each item gives the text node's content. */
function iterationFlow(settings: Mode = {}, outputSelector = 'text_tool_ch02.content') {
  const input = inputNode([
    { name: 'items', type: 'string[]', isMandatory: true },
    { name: 'prefix', type: 'string', isMandatory: false },
  ]);
  const iteration = node('iteration', 'it01', {
    items: '{{#input_in01.items#}}',
    output_selector: outputSelector,
    ...settings,
  });
  const inside = { parentId: iteration.id, extent: 'parent' as const };
  const llm = node('llm', 'ch01', { modelId: 'm', prompt: '{{#iteration_it01.item#}}' }, inside);
  const text = textNode(
    'ch02',
    '{{#input_in01.prefix#}}{{#iteration_it01.index#}}:{{#llm_ch01.response#}}',
    inside,
  );
  const out = node('output', 'ou01', {
    response: 'done',
    structured_output: { results: '{{#iteration_it01.results#}}' },
  });
  return flow(
    [input, iteration, llm, text, out],
    [edge(input, iteration), edge(llm, text), edge(iteration, out)],
  );
}

/** A chat stub that upper-cases the prompt after a short wait, tracking how many calls overlap. */
function trackingChat(fail: (prompt: string) => boolean = () => false) {
  let active = 0;
  let maxActive = 0;
  const order: string[] = [];
  const stub = chatStub(async (req) => {
    const prompt = lastUserText(req);
    order.push(prompt);
    active++;
    maxActive = Math.max(maxActive, active);
    try {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (fail(prompt)) throw new Error(`cannot handle ${prompt}`);
      return reply(prompt.toUpperCase());
    } finally {
      active--;
    }
  });
  return { ...stub, order, maxActive: () => maxActive };
}

describe('iteration', () => {
  it('runs its children once per item, one after the other, reading the item, the index and upstream values', async () => {
    const chat = trackingChat();
    const log = eventLog();
    const result = await runFlow({
      config: iterationFlow(),
      inputs: { items: ['a', 'b', 'c'], prefix: '#' },
      services: stubServices({ chat: chat.chat }),
      onEvent: log.onEvent,
    });
    expect(result.status).toBe('succeeded');
    expect(result.outputs.results).toEqual(['#0:A', '#1:B', '#2:C']);
    expect(chat.order).toEqual(['a', 'b', 'c']);
    expect(chat.maxActive()).toBe(1);
    const childRecords = result.executions.filter((e) => e.nodeId === 'text_tool_ch02');
    expect(childRecords.map((e) => [e.iterationId, e.iterationIndex])).toEqual([
      ['iteration_it01', 0],
      ['iteration_it01', 1],
      ['iteration_it01', 2],
    ]);
    expect(result.executions.find((e) => e.nodeId === 'iteration_it01')!.outputs).toEqual({
      results: ['#0:A', '#1:B', '#2:C'],
      count: 3,
    });
    const started = log.events.find((e) => e.type === 'node_started' && e.nodeId === 'llm_ch01');
    expect(started).toMatchObject({ iterationId: 'iteration_it01', iterationIndex: 0 });
  });

  it('runs up to `concurrency` items at once and keeps the results in item order', async () => {
    const chat = trackingChat();
    const items = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const result = await runFlow({
      config: iterationFlow({ mode: 'parallel', concurrency: 3 }),
      inputs: { items },
      services: stubServices({ chat: chat.chat }),
    });
    expect(chat.maxActive()).toBe(3);
    expect(result.outputs.results).toEqual(items.map((x, i) => `${i}:${x.toUpperCase()}`));
  });

  it('stop: a failed item fails the iteration and the run', async () => {
    const chat = trackingChat((p) => p === 'b');
    const result = await runFlow({
      config: iterationFlow({ error_mode: 'stop' }),
      inputs: { items: ['a', 'b', 'c'] },
      services: stubServices({ chat: chat.chat }),
    });
    expect(result.status).toBe('failed');
    expect(result.failedNodeId).toBe('iteration_it01');
    expect(result.error).toBe('iteration it01 failed: Item 2 of 3 failed: cannot handle b');
    expect(chat.order).toEqual(['a', 'b']);
  });

  it('continue: a failed item leaves an error entry in its place', async () => {
    const chat = trackingChat((p) => p === 'b');
    const result = await runFlow({
      config: iterationFlow({ error_mode: 'continue' }),
      inputs: { items: ['a', 'b', 'c'] },
      services: stubServices({ chat: chat.chat }),
    });
    expect(result.status).toBe('succeeded');
    expect(result.outputs.results).toEqual(['0:A', { error: 'cannot handle b', index: 1 }, '2:C']);
  });

  it('drop: failed items are left out', async () => {
    const chat = trackingChat((p) => p !== 'b');
    const result = await runFlow({
      config: iterationFlow({ error_mode: 'drop', mode: 'parallel', concurrency: 2 }),
      inputs: { items: ['a', 'b', 'c'] },
      services: stubServices({ chat: chat.chat }),
    });
    expect(result.status).toBe('succeeded');
    expect(result.outputs.results).toEqual(['1:B']);
  });

  it("without an output selector gives each item the last child's outputs", async () => {
    const chat = trackingChat();
    const result = await runFlow({
      config: iterationFlow({}, ''),
      inputs: { items: ['x'] },
      services: stubServices({ chat: chat.chat }),
    });
    expect(result.outputs.results).toEqual([{ content: '0:X' }]);
  });

  it('gives an empty list for no items, and fails on items that are missing or not a list', async () => {
    const input = inputNode([{ name: 'thing', type: 'object', isMandatory: false }]);
    const iteration = node('iteration', 'it02', { items: '{{#input_in01.thing#}}' });
    const child = textNode('ch09', '{{#iteration_it02.item#}}', { parentId: iteration.id });
    const out = node('output', 'ou01', { structured_output: { results: '{{#iteration_it02.results#}}' } });
    const config = flow([input, iteration, child, out], [edge(input, iteration), edge(iteration, out)]);
    const notList = await runFlow({ config, inputs: { thing: { a: 1 } }, services: stubServices() });
    expect(notList.status).toBe('failed');
    expect(notList.error).toMatch(/must be a list/);
    const missing = await runFlow({ config, inputs: {}, services: stubServices() });
    expect(missing.error).toMatch(/items is required/);

    const iterate = node('iteration', 'it02', { items: '[]' });
    const ok = await runFlow({
      config: flow([input, iterate, child, out], [edge(input, iterate), edge(iterate, out)]),
      services: stubServices(),
    });
    expect(ok.outputs).toEqual({ results: [], response: '' });
  });

  it('stops the other children of an item when one of them fails, and only those', async () => {
    const input = inputNode();
    const iteration = node('iteration', 'it03', {
      items: '["x", "y"]',
      error_mode: 'continue',
      output_selector: 'llm_slow.response',
    });
    const inside = { parentId: iteration.id };
    const slow = node('llm', 'slow', { modelId: 'm', prompt: 'slow {{#iteration_it03.item#}}' }, inside);
    const fail = node('llm', 'fail', { modelId: 'm', prompt: 'fail {{#iteration_it03.item#}}' }, inside);
    const out = node('output', 'ou01', { structured_output: { results: '{{#iteration_it03.results#}}' } });
    const slowSignals: AbortSignal[] = [];
    const { chat } = chatStub(async (req) => {
      const prompt = lastUserText(req);
      if (prompt === 'fail x') throw new Error('broken x');
      if (prompt.startsWith('fail')) return reply('fine');
      slowSignals.push(req.signal);
      if (prompt === 'slow y') return reply('Y');
      return new Promise((_, reject) =>
        req.signal.addEventListener('abort', () => reject(new Error('aborted'))),
      );
    });
    const result = await runFlow({
      config: flow([input, iteration, slow, fail, out], [edge(input, iteration), edge(iteration, out)]),
      services: stubServices({ chat }),
    });
    expect(result.status).toBe('succeeded');
    expect(result.outputs.results).toEqual([{ error: 'broken x', index: 0 }, 'Y']);
    expect(slowSignals.map((s) => s.aborted)).toEqual([true, false]);
    const slowX = result.executions.find((e) => e.nodeId === 'llm_slow' && e.iterationIndex === 0)!;
    expect(slowX).toMatchObject({ status: 'failed', error: 'Stopped: broken x' });
  });
});
