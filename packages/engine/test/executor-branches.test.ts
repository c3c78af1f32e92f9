import { describe, expect, it } from 'vitest';
import { EMPTY_OUTPUT_TEXT, runFlow } from '../src';
import { edge, eventLog, flow, inputNode, node, stubServices, textNode } from './helpers';

/** if query contains "apple" -> yes; elif it contains "pear" -> maybe; else. */
const conditional = node('conditional', 'co01', {
  branches: [
    {
      id: 'yes',
      logic: 'and',
      conditions: [{ left: '{{#input_in01.query#}}', operator: 'contains', right: 'apple' }],
    },
    {
      id: 'maybe',
      logic: 'or',
      conditions: [{ left: '{{#input_in01.query#}}', operator: 'contains', right: 'pear' }],
    },
  ],
});

function branchingFlow() {
  const input = inputNode();
  const yes = textNode('yes1', 'took yes');
  const maybe = textNode('may1', 'took maybe');
  const no = textNode('no01', 'took else');
  // Only fed by the else branch: skipped with it.
  const afterNo = textNode('no02', 'after else');
  const join = textNode(
    'join',
    '{{#text_tool_yes1.content#}}{{#text_tool_may1.content#}}{{#text_tool_no01.content#}}{{#text_tool_no02.content#}}',
  );
  const out = node('output', 'ou01', { response: '{{#text_tool_join.content#}}' });
  return flow(
    [input, conditional, yes, maybe, no, afterNo, join, out],
    [
      edge(input, conditional),
      edge(conditional, yes, 'yes'),
      edge(conditional, maybe, 'maybe'),
      edge(conditional, no, 'else'),
      edge(no, afterNo),
      edge(yes, join),
      edge(maybe, join),
      edge(afterNo, join),
      edge(join, out),
    ],
  );
}

const statuses = (executions: { nodeId: string; status: string }[]) =>
  Object.fromEntries(executions.map((e) => [e.nodeId, e.status]));

describe('conditional branches', () => {
  it('takes exactly one branch, skips the others and what only they feed, and runs the join', async () => {
    const log = eventLog();
    const result = await runFlow({
      config: branchingFlow(),
      inputs: { query: 'an apple' },
      services: stubServices(),
      onEvent: log.onEvent,
    });
    expect(result.status).toBe('succeeded');
    expect(result.text).toBe('took yes');
    expect(statuses(result.executions)).toEqual({
      input_in01: 'succeeded',
      conditional_co01: 'succeeded',
      text_tool_yes1: 'succeeded',
      text_tool_may1: 'skipped',
      text_tool_no01: 'skipped',
      text_tool_no02: 'skipped',
      text_tool_join: 'succeeded',
      output_ou01: 'succeeded',
    });
    expect(result.executions.find((e) => e.nodeId === 'conditional_co01')!.outputs).toEqual({
      branch: 'yes',
    });
    const skipped = log.events.filter((e) => e.type === 'node_skipped').map((e) => e.nodeId);
    expect(skipped.sort()).toEqual(['text_tool_may1', 'text_tool_no01', 'text_tool_no02']);
  });

  it('takes an elif branch', async () => {
    const result = await runFlow({
      config: branchingFlow(),
      inputs: { query: 'a pear' },
      services: stubServices(),
    });
    expect(result.text).toBe('took maybe');
    expect(statuses(result.executions).text_tool_yes1).toBe('skipped');
  });

  it('takes the else branch and the chain after it', async () => {
    const result = await runFlow({
      config: branchingFlow(),
      inputs: { query: 'a plum' },
      services: stubServices(),
    });
    expect(result.text).toBe('took elseafter else');
    expect(statuses(result.executions)).toMatchObject({
      text_tool_yes1: 'skipped',
      text_tool_may1: 'skipped',
      text_tool_no01: 'succeeded',
      text_tool_no02: 'succeeded',
      text_tool_join: 'succeeded',
    });
  });

  it('skips a node when every edge into it comes from skipped nodes, down to the output', async () => {
    const input = inputNode();
    const cond = node('conditional', 'co02', {
      branches: [{ id: 'if', conditions: [{ left: '{{#input_in01.query#}}', operator: 'is_empty' }] }],
    });
    const onlyIf = textNode('if01', 'empty query');
    const out = node('output', 'ou01', { response: '{{#text_tool_if01.content#}}' });
    const result = await runFlow({
      config: flow(
        [input, cond, onlyIf, out],
        [edge(input, cond), edge(cond, onlyIf, 'if'), edge(onlyIf, out)],
      ),
      inputs: { query: 'not empty' },
      services: stubServices(),
    });
    expect(result.status).toBe('succeeded');
    expect(statuses(result.executions)).toMatchObject({ text_tool_if01: 'skipped', output_ou01: 'skipped' });
    expect(result.outputs).toEqual({});
    expect(result.text).toBe(EMPTY_OUTPUT_TEXT);
  });

  it('compares typed values from whole references', async () => {
    const input = inputNode([{ name: 'age', type: 'number', isMandatory: true }]);
    const cond = node('conditional', 'co03', {
      branches: [
        { id: 'adult', conditions: [{ left: '{{#input_in01.age#}}', operator: 'gte', right: '18' }] },
      ],
    });
    const adult = node('output', 'ad01', { response: 'adult' });
    const minor = node('output', 'mi01', { response: 'minor' });
    const config = flow(
      [input, cond, adult, minor],
      [edge(input, cond), edge(cond, adult, 'adult'), edge(cond, minor, 'else')],
    );
    const run = (age: unknown) => runFlow({ config, inputs: { age }, services: stubServices() });
    expect((await run('42')).text).toBe('adult');
    expect((await run(7)).text).toBe('minor');
  });
});
