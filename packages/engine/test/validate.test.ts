import { describe, expect, it } from 'vitest';
import { type FlowProblem, patternProblems, validateFlow } from '../src';
import { chainEdges, edge, flow, inputNode, node, textNode, toolEdge } from './helpers';

const input = inputNode();
const out = node('output', 'ou01', { response: 'ok' });
const llm = (suffix: string, fields: Record<string, unknown> = {}) =>
  node('llm', suffix, { modelId: 'm', prompt: 'hello', ...fields });

const codes = (problems: FlowProblem[]) => problems.map((p) => p.code);
const only = (problems: FlowProblem[], code: FlowProblem['code']) => problems.filter((p) => p.code === code);

describe('validateFlow', () => {
  it('accepts a well-formed flow', () => {
    const a = llm('ab12', { prompt: '{{#input_in01.query#}}' });
    expect(validateFlow(flow([input, a, out], chainEdges(input, a, out)))).toEqual([]);
  });

  it('reports unknown node types', () => {
    const odd = node('llm', 'zz01', {}, { type: 'teleport' });
    const problems = validateFlow(flow([input, odd, out], chainEdges(input, odd, out)));
    expect(problems).toEqual([
      { nodeId: 'llm_zz01', code: 'unknown_type', message: 'Unknown node type "teleport".' },
    ]);
  });

  it('reports duplicate node and edge ids', () => {
    const problems = validateFlow(flow([input, out, { ...out }], [edge(input, out), edge(input, out)]));
    expect(codes(problems).sort()).toEqual(['duplicate_edge_id', 'duplicate_node_id']);
  });

  it('reports separator patterns the linear-time engine refuses, drafts included, on the separators field', () => {
    const splitter = (fields: Record<string, unknown>) =>
      node('recursive_splitter', 'rs01', { documents_to_split: '{{#input_in01.query#}}', ...fields });
    const bad = splitter({
      is_separator_regex: true,
      separators: ['\n', String.raw`(a)\1`, '(?=x)', '(a+)+$'],
    });
    const config = flow([input, bad, out], chainEdges(input, bad, out));
    const expected = [
      expect.objectContaining({
        nodeId: 'recursive_splitter_rs01',
        field: 'separators',
        code: 'invalid_pattern',
        message: expect.stringMatching(/^Separator 2 \("\(a\)\\\\1"\) is not accepted .*backreferences/),
      }),
      expect.objectContaining({
        field: 'separators',
        code: 'invalid_pattern',
        message: expect.stringMatching(/^Separator 3 .*lookahead/),
      }),
    ];
    expect(validateFlow(config)).toEqual(expected);
    expect(validateFlow(config, { draft: true })).toEqual(expected);
    expect(patternProblems(config)).toEqual(expected);
    // The list as JSON text is read the same way; plain separators and references are not patterns here.
    const asText = splitter({ is_separator_regex: 'true', separators: JSON.stringify([String.raw`\k<x>`]) });
    expect(patternProblems(flow([input, asText, out], chainEdges(input, asText, out)))).toHaveLength(1);
    for (const fine of [
      splitter({ is_separator_regex: false, separators: [String.raw`(a)\1`] }),
      splitter({ is_separator_regex: true, separators: '{{#input_in01.query#}}' }),
    ]) {
      expect(validateFlow(flow([input, fine, out], chainEdges(input, fine, out)))).toEqual([]);
    }
  });

  it('leaves other draft problems to publish: patternProblems holds only refused patterns', () => {
    const empty = node('llm', 'ab12', { modelId: '', prompt: '' });
    expect(patternProblems(flow([input, empty, out], chainEdges(input, empty, out)))).toEqual([]);
  });

  it('reports missing mandatory fields, except in drafts', () => {
    const empty = node('llm', 'ab12', { modelId: '', prompt: '   ' });
    const config = flow([input, empty, out], chainEdges(input, empty, out));
    expect(validateFlow(config)).toEqual([
      { nodeId: 'llm_ab12', field: 'modelId', code: 'missing_field', message: 'modelId is required.' },
      { nodeId: 'llm_ab12', field: 'prompt', code: 'missing_field', message: 'prompt is required.' },
    ]);
    expect(validateFlow(config, { draft: true })).toEqual([]);
  });

  it('checks required fields only while they apply', () => {
    const insert = node('vector_store_insert', 'vs01', { documents: 'x', mode: 'custom', collection_id: '' });
    const problems = validateFlow(flow([input, insert, out], chainEdges(input, insert, out)));
    expect(only(problems, 'missing_field').map((p) => p.field)).toEqual([
      'rag_connector_id',
      'collection_name',
      'embeddings_model_id',
    ]);
  });

  it('reports values of the wrong kind, in drafts too', () => {
    const bad = llm('ab12', { temperature: 'hot' });
    const tts = node('text_to_speech', 'tt01', { modelId: 'm', input: 'x', voice: 'robot' });
    const form = inputNode([{ name: 'a' }, { name: 'a' }, { name: 'x.y' }]);
    const problems = validateFlow(flow([form, bad, tts, out], chainEdges(form, bad, tts, out)), {
      draft: true,
    });
    expect(only(problems, 'invalid_field').map((p) => [p.nodeId, p.message])).toEqual([
      ['input_in01', 'Two custom fields are named "a".'],
      ['input_in01', 'Custom field 3: A field name cannot contain ".", "#", "{" or "}".'],
      ['llm_ab12', 'temperature must be a number.'],
      ['text_to_speech_tt01', expect.stringMatching(/^voice must be one of alloy, ash/)],
    ]);
  });

  it('reports references to unknown nodes and outputs', () => {
    const a = llm('ab12', { prompt: '{{#ghost_0000.text#}} {{#input_in01.nope#}}' });
    const problems = validateFlow(flow([input, a, out], chainEdges(input, a, out)));
    expect(problems.map((p) => [p.code, p.field])).toEqual([
      ['unknown_reference', 'prompt'],
      ['unknown_output', 'prompt'],
    ]);
  });

  it('reports references to nodes that do not run before', () => {
    const a = llm('aaaa', { prompt: '{{#llm_bbbb.response#}}' });
    const b = llm('bbbb', { prompt: '{{#llm_aaaa.response#}}' });
    const c = llm('cccc', { prompt: '{{#llm_bbbb.response#}}' });
    const problems = validateFlow(
      flow([input, a, b, c, out], [edge(input, a), edge(input, b), ...chainEdges(b, c, out), edge(a, out)]),
    );
    expect(only(problems, 'reference_not_upstream').map((p) => p.nodeId)).toEqual(['llm_aaaa', 'llm_bbbb']);
  });

  it('lets iteration children read upstream values and the item, but nothing outside reads the children', () => {
    const iteration = node('iteration', 'it01', {
      items: '{{#input_in01.history#}}',
      output_selector: 'llm_ch01.response',
    });
    const child = llm('ch01', {
      prompt: '{{#input_in01.query#}} {{#iteration_it01.item#}} {{#iteration_it01.index#}}',
    });
    child.parentId = iteration.id;
    const badChild = textNode('ch02', '{{#iteration_it01.results#}}', { parentId: iteration.id });
    const after = node('output', 'ou01', {
      response: '{{#llm_ch01.response#}} {{#iteration_it01.results#}}',
    });
    const problems = validateFlow(
      flow([input, iteration, child, badChild, after], chainEdges(input, iteration, after)),
    );
    expect(only(problems, 'reference_not_upstream').map((p) => [p.nodeId, p.message])).toEqual([
      ['text_tool_ch02', expect.stringContaining('{{#iteration_it01.results#}}')],
      ['output_ou01', expect.stringContaining('{{#llm_ch01.response#}}')],
    ]);
    expect(problems).toHaveLength(2);
  });

  it('reports an output selector that is not a child output', () => {
    const iteration = node('iteration', 'it01', { items: '[]', output_selector: 'input_in01.query' });
    const problems = validateFlow(flow([input, iteration, out], chainEdges(input, iteration, out)));
    expect(problems.map((p) => [p.code, p.field])).toEqual([['invalid_field', 'output_selector']]);
  });

  it('reports cycles, self-loops included', () => {
    const a = llm('aaaa');
    const b = llm('bbbb');
    const problems = validateFlow(
      flow([input, a, b, out], [edge(input, a), edge(a, b), edge(b, a), edge(b, out), edge(out, out)]),
    );
    expect(
      only(problems, 'cycle')
        .map((p) => p.nodeId)
        .sort(),
    ).toEqual(['llm_aaaa', 'llm_bbbb', 'output_ou01', 'output_ou01']);
  });

  it('reports edges to unknown nodes and edges across an iteration border', () => {
    const iteration = node('iteration', 'it01', { items: '[]' });
    const child = textNode('ch01', 'x', { parentId: iteration.id });
    const problems = validateFlow(
      flow(
        [input, iteration, child, out],
        [...chainEdges(input, iteration, out), edge(input, child), edge(input, 'ghost_0000')],
      ),
    );
    expect(problems.map((p) => [p.code, p.edgeId])).toEqual([
      ['invalid_edge', 'input_in01-text_tool_ch01'],
      ['unknown_edge_node', 'input_in01-ghost_0000'],
    ]);
  });

  it('reports parents that are not iterations, and input or output nodes inside one', () => {
    const a = llm('ab12');
    a.parentId = 'llm_nope';
    const iteration = node('iteration', 'it01', { items: '[]' });
    const inner = node('output', 'ou02', { response: 'x' }, { parentId: iteration.id });
    const problems = validateFlow(
      flow([input, a, iteration, inner, out], chainEdges(input, a, iteration, out)),
    );
    expect(only(problems, 'invalid_parent').map((p) => p.nodeId)).toEqual(['llm_ab12', 'output_ou02']);
  });

  it('reports branch handles a conditional does not have', () => {
    const cond = node('conditional', 'co01', { branches: [{ id: 'yes', conditions: [] }] });
    const a = textNode('aaaa', 'a');
    const b = textNode('bbbb', 'b');
    const c = textNode('cccc', 'c');
    const problems = validateFlow(
      flow(
        [input, cond, a, b, c, out],
        [
          edge(input, cond),
          edge(cond, a, 'yes'),
          edge(cond, b, 'maybe'),
          edge(cond, c),
          edge(a, out),
          edge(b, out),
          edge(c, out),
        ],
      ),
    );
    expect(only(problems, 'unknown_handle').map((p) => p.edgeId)).toEqual([
      'conditional_co01-text_tool_bbbb-maybe',
      'conditional_co01-text_tool_cccc',
    ]);
  });

  it('reports agent tools that are not tool nodes, and edges into attached tools', () => {
    const calc = node('calculator_tool', 'ca01');
    const agent = node('agent', 'ag01', {
      modelId: 'm',
      agentPrompt: 'x',
      tools: ['calculator_tool_ca01', 'llm_ab12'],
    });
    const a = llm('ab12');
    const problems = validateFlow(
      flow(
        [input, a, agent, calc, out],
        [...chainEdges(input, a, agent, out), toolEdge(calc, agent), edge(input, calc)],
      ),
    );
    expect(problems.map((p) => [p.code, p.nodeId])).toEqual([
      ['invalid_tool', 'agent_ag01'],
      ['invalid_edge', 'input_in01'],
    ]);
  });

  it('checks the references of attached tools against the agent using them', () => {
    const text = node('text_tool', 'tx01', {
      name: 'facts',
      description: 'd',
      content: '{{#input_in01.query#}} {{#output_ou01.response#}}',
    });
    const agent = node('agent', 'ag01', { modelId: 'm', agentPrompt: 'x' });
    const problems = validateFlow(
      flow([input, agent, text, out], [...chainEdges(input, agent, out), toolEdge(text, agent)]),
    );
    expect(problems.map((p) => [p.code, p.nodeId])).toEqual([['reference_not_upstream', 'text_tool_tx01']]);
  });

  it('reports a missing input and more than one', () => {
    expect(codes(validateFlow(flow([out], [])))).toEqual(['no_input']);
    const second = node('input', 'in02', []);
    const problems = validateFlow(flow([input, second, out], [edge(input, out), edge(second, out)]));
    expect(problems).toEqual([
      { nodeId: 'input_in02', code: 'multiple_inputs', message: 'A flow has one input node.' },
    ]);
  });

  it('reports outputs the input cannot reach', () => {
    const a = llm('ab12');
    expect(codes(validateFlow(flow([input, a], [edge(input, a)])))).toEqual(['no_reachable_output']);
    const lost = node('output', 'ou02', { response: 'lost' });
    const problems = validateFlow(flow([input, out, lost], [edge(input, out)]));
    expect(problems).toEqual([
      {
        nodeId: 'output_ou02',
        code: 'unreachable_output',
        message: 'This output node cannot be reached from the input.',
      },
    ]);
    expect(codes(validateFlow(flow([input, lost], [])))).toEqual([
      'no_reachable_output',
      'unreachable_output',
    ]);
  });
});

describe('validateFlow and nodes the input does not reach', () => {
  it('reports references to them, since they never run', () => {
    const stray = textNode('zz99', 'never runs');
    const a = llm('ab12', { prompt: '{{#text_tool_zz99.content#}}' });
    const problems = validateFlow(
      flow([input, stray, a, out], [edge(stray, a), ...chainEdges(input, a, out)]),
    );
    expect(problems.map((p) => [p.code, p.nodeId])).toEqual([['reference_not_upstream', 'llm_ab12']]);
  });
});
