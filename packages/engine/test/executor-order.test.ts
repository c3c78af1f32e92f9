import type { FlowRunEvent } from '@atelier/schemas';
import { describe, expect, it, vi } from 'vitest';
import { runFlow } from '../src';
import {
  chainEdges,
  chatStub,
  deferred,
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

describe('runFlow ordering', () => {
  it('runs a node only after every node feeding it, passing outputs along', async () => {
    const input = inputNode();
    const a = textNode('aaaa', 'A({{#input_in01.query#}})');
    const b = textNode('bbbb', 'B({{#input_in01.query#}})');
    const join = textNode('join', '{{#text_tool_aaaa.content#}}+{{#text_tool_bbbb.content#}}');
    const out = node('output', 'ou01', { response: '{{#text_tool_join.content#}}' });
    const log = eventLog();
    const result = await runFlow({
      config: flow(
        [out, join, b, a, input],
        [edge(input, a), edge(input, b), edge(a, join), edge(b, join), edge(join, out)],
      ),
      inputs: { query: 'q' },
      services: stubServices(),
      onEvent: log.onEvent,
    });
    expect(result.status).toBe('succeeded');
    expect(result.text).toBe('A(q)+B(q)');
    const started = log.events
      .filter((e) => e.type === 'node_started')
      .map((e) => (e as { nodeId: string }).nodeId);
    expect(started[0]).toBe('input_in01');
    expect(started.indexOf('text_tool_join')).toBeGreaterThan(started.indexOf('text_tool_aaaa'));
    expect(started.indexOf('text_tool_join')).toBeGreaterThan(started.indexOf('text_tool_bbbb'));
    expect(started.at(-1)).toBe('output_ou01');
    expect(log.types().at(-1)).toBe('execution_completed');
    expect(result.executions.map((e) => e.status)).toEqual(Array(5).fill('succeeded'));
  });

  it('records each execution with its resolved parameters, outputs and duration', async () => {
    const input = inputNode([{ name: 'n', type: 'number', isMandatory: true }]);
    const calc = node('calculator_tool', 'ca01', { expression: '{{#input_in01.n#}} * 2' });
    const out = node('output', 'ou01', { response: 'Result: {{#calculator_tool_ca01.result#}}' });
    const result = await runFlow({
      config: flow([input, calc, out], chainEdges(input, calc, out)),
      inputs: { n: '21' },
      services: stubServices(),
    });
    expect(result.text).toBe('Result: 42');
    const record = result.executions.find((e) => e.nodeId === 'calculator_tool_ca01')!;
    expect(record).toMatchObject({
      type: 'calculator_tool',
      status: 'succeeded',
      parameters: { expression: '21 * 2' },
      outputs: { result: 42 },
    });
    expect(record.durationSeconds).toBeGreaterThanOrEqual(0);
    expect(Number.isNaN(Date.parse(record.startedAt))).toBe(false);
  });

  it('runs independent branches at the same time', async () => {
    const input = inputNode();
    const left = node('llm', 'left', { modelId: 'm', prompt: 'left' });
    const right = node('llm', 'rite', { modelId: 'm', prompt: 'right' });
    const out = node('output', 'ou01', { response: '{{#llm_left.response#}} {{#llm_rite.response#}}' });
    const gates = { left: deferred<void>(), right: deferred<void>() };
    const { chat, requests } = chatStub(async (req) => {
      const which = lastUserText(req) as 'left' | 'right';
      await gates[which].promise;
      return reply(which.toUpperCase());
    });
    const running = runFlow({
      config: flow(
        [input, left, right, out],
        [edge(input, left), edge(input, right), edge(left, out), edge(right, out)],
      ),
      services: stubServices({ chat }),
    });
    // Both model calls are under way while neither has answered: the branches overlap.
    await vi.waitFor(() => expect(requests.map(lastUserText).sort()).toEqual(['left', 'right']));
    gates.right.resolve();
    gates.left.resolve();
    const result = await running;
    expect(result.text).toBe('LEFT RIGHT');
  });

  it('passes streamed text on while the node is still running', async () => {
    const input = inputNode();
    const llm = node('llm', 'ab12', { modelId: 'm', prompt: '{{#input_in01.query#}}' });
    const out = node('output', 'ou01', { response: '{{#llm_ab12.response#}}' });
    const release = deferred<void>();
    const { chat } = chatStub(async (req) => {
      req.onToken?.('Hel');
      req.onToken?.('lo');
      await release.promise;
      return reply('Hello');
    });
    const events: FlowRunEvent[] = [];
    const running = runFlow({
      config: flow([input, llm, out], chainEdges(input, llm, out)),
      inputs: { query: 'hi' },
      services: stubServices({ chat }),
      onEvent: (e) => events.push(e),
    });
    await vi.waitFor(() => expect(events.filter((e) => e.type === 'text_chunk')).toHaveLength(2));
    expect(events.some((e) => e.type === 'node_completed' && e.nodeId === 'llm_ab12')).toBe(false);
    release.resolve();
    const result = await running;
    expect(events.filter((e) => e.type === 'text_chunk')).toEqual([
      { type: 'text_chunk', nodeId: 'llm_ab12', text: 'Hel' },
      { type: 'text_chunk', nodeId: 'llm_ab12', text: 'lo' },
    ]);
    expect(result.text).toBe('Hello');
  });

  it('merges the outputs of several output nodes and ignores nodes the input does not reach', async () => {
    const input = inputNode();
    const first = node('output', 'ou01', { response: 'first', structured_output: { a: 1 } });
    const second = node('output', 'ou02', { response: '', structured_output: { b: 2 } });
    const stray = node('llm', 'zz99', { modelId: 'm', prompt: 'never' });
    const result = await runFlow({
      config: flow([input, first, second, stray], [edge(input, first), edge(input, second)]),
      services: stubServices(),
      validate: false,
    });
    expect(result.status).toBe('succeeded');
    expect(result.outputs).toEqual({ a: 1, b: 2, response: '' });
    expect(result.executions.map((e) => e.nodeId)).not.toContain('llm_zz99');
  });

  it('refuses to start an invalid flow and says why', async () => {
    const log = eventLog();
    const result = await runFlow({
      config: flow([node('llm', 'ab12', { prompt: 'x' })], []),
      services: stubServices(),
      onEvent: log.onEvent,
    });
    expect(result.status).toBe('failed');
    expect(result.errorCode).toBe('invalid_flow');
    expect(result.problems.map((p) => p.code).sort()).toEqual(['missing_field', 'no_input']);
    expect(result.error).toMatch(/^The flow cannot run: /);
    expect(log.events).toEqual([expect.objectContaining({ type: 'execution_error', code: 'invalid_flow' })]);
  });

  it('keeps running when an event listener throws', async () => {
    const input = inputNode();
    const out = node('output', 'ou01', { response: 'ok' });
    const result = await runFlow({
      config: flow([input, out], chainEdges(input, out)),
      services: stubServices(),
      onEvent: () => {
        throw new Error('listener bug');
      },
    });
    expect(result.text).toBe('ok');
  });
});
