import type { FlowNode } from '@atelier/schemas';
import { describe, expect, it } from 'vitest';
import { runFlow } from '../src';
import type { ChatServiceResult } from '../src';
import { chainEdges, chatStub, flow, inputNode, node, stubServices, toolEdge } from './helpers';

function agentFlow(agentFields: Record<string, unknown>, tools: FlowNode[], attachByEdge: boolean) {
  const input = inputNode();
  const agent = node('agent', 'ag01', {
    modelId: 'gpt',
    systemPrompt: 'Use tools.',
    agentPrompt: '{{#input_in01.query#}}',
    ...agentFields,
  });
  const out = node('output', 'ou01', { response: '{{#agent_ag01.response#}}' });
  const edges = [
    ...chainEdges(input, agent, out),
    ...(attachByEdge ? tools.map((t) => toolEdge(t, agent)) : []),
  ];
  return flow([input, agent, out, ...tools], edges);
}

const calculator = node('calculator_tool', 'ca01');
const facts = node('text_tool', 'tx01', {
  name: 'company facts',
  description: 'Facts about the company.',
  content: 'Founded in 1999. Asked: {{#input_in01.query#}}',
});

const call = (id: string, name: string, args: Record<string, unknown>) => ({ id, name, arguments: args });

describe('agent', () => {
  it('calls the tools the model asks for, feeds back results and errors, and ends with the answer', async () => {
    const script: ChatServiceResult[] = [
      {
        text: '',
        toolCalls: [call('c1', 'calculator', { expression: '12 * 7' }), call('c2', 'company_facts', {})],
      },
      {
        text: 'Checking.',
        toolCalls: [call('c3', 'calculator', { expression: '1 / 0' }), call('c4', 'web_search', {})],
      },
      { text: '84, founded 1999.', toolCalls: [] },
    ];
    const { chat, requests } = chatStub((_, n) => script[n - 1]!);
    const result = await runFlow({
      config: agentFlow({ tools: [calculator.id, facts.id] }, [calculator, facts], false),
      inputs: { query: 'What is 12*7 and when were we founded?' },
      services: stubServices({ chat }),
    });
    expect(result.status).toBe('succeeded');
    expect(result.text).toBe('84, founded 1999.');
    expect(requests).toHaveLength(3);
    expect(requests[0]!.tools!.map((t) => t.name)).toEqual(['calculator', 'company_facts']);
    expect(requests[0]!.system).toBe('Use tools.');
    expect(requests[0]!.messages).toEqual([
      { role: 'user', content: 'What is 12*7 and when were we founded?' },
    ]);
    expect(requests[1]!.messages.slice(1)).toEqual([
      { role: 'assistant', content: '', toolCalls: script[0]!.toolCalls },
      { role: 'tool', toolCallId: 'c1', content: '84' },
      {
        role: 'tool',
        toolCallId: 'c2',
        content: 'Founded in 1999. Asked: What is 12*7 and when were we founded?',
      },
    ]);
    expect(requests[2]!.messages.slice(4)).toEqual([
      { role: 'assistant', content: 'Checking.', toolCalls: script[1]!.toolCalls },
      { role: 'tool', toolCallId: 'c3', content: 'Error: Division by zero.' },
      { role: 'tool', toolCallId: 'c4', content: 'Error: There is no tool named "web_search".' },
    ]);
    const agentRecord = result.executions.find((e) => e.nodeId === 'agent_ag01')!;
    expect(agentRecord.outputs!.steps).toEqual([
      { tool: 'calculator', arguments: { expression: '12 * 7' }, result: '84' },
      {
        tool: 'company_facts',
        arguments: {},
        result: 'Founded in 1999. Asked: What is 12*7 and when were we founded?',
      },
      { tool: 'calculator', arguments: { expression: '1 / 0' }, error: 'Division by zero.' },
      { tool: 'web_search', arguments: {}, error: 'There is no tool named "web_search".' },
    ]);
    // Attached tools are the agent's, not steps of the run.
    expect(result.executions.map((e) => e.nodeId)).toEqual(['input_in01', 'agent_ag01', 'output_ou01']);
  });

  it('takes tools attached by edges and names duplicates apart', async () => {
    const second = node('calculator_tool', 'ca02');
    const { chat, requests } = chatStub(() => ({ text: 'done', toolCalls: [] }));
    await runFlow({
      config: agentFlow({}, [calculator, second], true),
      inputs: { query: 'x' },
      services: stubServices({ chat }),
    });
    expect(requests[0]!.tools!.map((t) => t.name)).toEqual(['calculator', 'calculator_2']);
  });

  it('gives up after max_iterations model calls', async () => {
    const { chat, requests } = chatStub((_, n) => ({
      text: '',
      toolCalls: [call(`c${n}`, 'calculator', { expression: `${n} + 1` })],
    }));
    const result = await runFlow({
      config: agentFlow({ max_iterations: 3 }, [calculator], true),
      inputs: { query: 'loop' },
      services: stubServices({ chat }),
    });
    expect(requests).toHaveLength(3);
    expect(result.status).toBe('failed');
    expect(result.error).toBe(
      'agent ag01 failed: The agent made 3 model calls without reaching a final answer (its step limit).',
    );
  });

  it('sends no tool list when it has no tools', async () => {
    const { chat, requests } = chatStub(() => ({ text: 'plain', toolCalls: [] }));
    const result = await runFlow({
      config: agentFlow({}, [], false),
      inputs: { query: 'x' },
      services: stubServices({ chat }),
    });
    expect(result.text).toBe('plain');
    expect(requests[0]!.tools).toBeUndefined();
  });
});
