import { describe, expect, it, vi } from 'vitest';
import { NodeInputError, runFlow } from '../src';
import type { ChatServiceRequest } from '../src';
import { chainEdges, chatStub, eventLog, flow, inputNode, node, reply, stubServices } from './helpers';

/** input -> llm (with the given node data) -> output of the llm's response (or error). */
function llmFlow(data: Record<string, unknown> = {}, response = '{{#llm_ab12.response#}}') {
  const input = inputNode();
  const llm = node('llm', 'ab12', { modelId: 'm', prompt: 'go' }, { data: { label: 'Writer', ...data } });
  const out = node('output', 'ou01', { response });
  return flow([input, llm, out], chainEdges(input, llm, out));
}

/** Rejects when the request's signal fires, recording the reason. */
const untilAborted = (req: ChatServiceRequest) =>
  new Promise<never>((_, reject) => {
    req.signal.addEventListener('abort', () => reject(req.signal.reason as Error), { once: true });
  });

describe('retry', () => {
  it('tries again with exponential backoff, then succeeds', async () => {
    const { chat, requests } = chatStub((_, call) => {
      if (call < 3) throw new Error(`flaky ${call}`);
      return reply('third time');
    });
    const delays: number[] = [];
    const result = await runFlow({
      config: llmFlow({ retry: { max: 3, backoffMs: 100 } }),
      services: stubServices({ chat }),
      sleep: async (ms) => {
        delays.push(ms);
      },
    });
    expect(result.text).toBe('third time');
    expect(requests).toHaveLength(3);
    expect(delays).toEqual([100, 200]);
    expect(result.executions.find((e) => e.nodeId === 'llm_ab12')).toMatchObject({
      status: 'succeeded',
      attempts: 3,
    });
  });

  it('gives up after max retries with the last error', async () => {
    const { chat, requests } = chatStub((_, call) => {
      throw new Error(`down ${call}`);
    });
    const delays: number[] = [];
    const result = await runFlow({
      config: llmFlow({ retry: { max: 2, backoffMs: 10 } }),
      services: stubServices({ chat }),
      sleep: async (ms) => void delays.push(ms),
    });
    expect(result.status).toBe('failed');
    expect(result.error).toBe('Writer failed: down 3');
    expect(requests).toHaveLength(3);
    expect(delays).toEqual([10, 20]);
  });

  it('does not retry what cannot change', async () => {
    const { chat, requests } = chatStub(() => {
      throw new NodeInputError('bad request');
    });
    const result = await runFlow({
      config: llmFlow({ retry: { max: 5, backoffMs: 10 } }),
      services: stubServices({ chat }),
      sleep: async () => {},
    });
    expect(result.status).toBe('failed');
    expect(requests).toHaveLength(1);
  });
});

describe('timeout', () => {
  it('abandons an attempt after timeoutMs and aborts its signal', async () => {
    const { chat, requests } = chatStub(untilAborted);
    const result = await runFlow({ config: llmFlow({ timeoutMs: 20 }), services: stubServices({ chat }) });
    expect(result.status).toBe('failed');
    expect(result.error).toBe('Writer failed: Node llm_ab12 timed out after 20 ms.');
    expect(requests[0]!.signal.aborted).toBe(true);
  });

  it('times out even when the node ignores its signal, and retries', async () => {
    const { chat, requests } = chatStub((_, call) =>
      call === 1 ? new Promise<never>(() => {}) : reply('second try'),
    );
    const result = await runFlow({
      config: llmFlow({ timeoutMs: 20, retry: { max: 1, backoffMs: 0 } }),
      services: stubServices({ chat }),
    });
    expect(result.text).toBe('second try');
    expect(requests).toHaveLength(2);
  });
});

describe('continue on error', () => {
  it('marks the node failed, gives its error as output and lets the run go on', async () => {
    const { chat } = chatStub(() => {
      throw new Error('model unavailable');
    });
    const log = eventLog();
    const result = await runFlow({
      config: llmFlow({ continueOnError: true }, 'Fallback: {{#llm_ab12.error#}}'),
      services: stubServices({ chat }),
      onEvent: log.onEvent,
    });
    expect(result.status).toBe('succeeded');
    expect(result.text).toBe('Fallback: model unavailable');
    expect(result.executions.find((e) => e.nodeId === 'llm_ab12')).toMatchObject({
      status: 'failed',
      error: 'model unavailable',
      outputs: { error: 'model unavailable' },
    });
    expect(log.events).toContainEqual(
      expect.objectContaining({
        type: 'node_error',
        nodeId: 'llm_ab12',
        error: 'model unavailable',
        continued: true,
      }),
    );
  });

  it('without it, a failure ends the run and the nodes after it never start', async () => {
    const { chat } = chatStub(() => {
      throw new Error('model unavailable');
    });
    const log = eventLog();
    const result = await runFlow({
      config: llmFlow(),
      services: stubServices({ chat }),
      onEvent: log.onEvent,
    });
    expect(result).toMatchObject({ status: 'failed', errorCode: 'node_failed', failedNodeId: 'llm_ab12' });
    expect(result.executions.map((e) => e.nodeId)).toEqual(['input_in01', 'llm_ab12']);
    expect(log.types().slice(-2)).toEqual(['node_error', 'execution_error']);
    expect(log.events.at(-1)).toMatchObject({
      error: 'Writer failed: model unavailable',
      code: 'node_failed',
    });
  });
});

describe('cancellation', () => {
  it('stops the run when the signal fires, telling the running node', async () => {
    const { chat, requests } = chatStub(untilAborted);
    const controller = new AbortController();
    const log = eventLog();
    const running = runFlow({
      config: llmFlow(),
      services: stubServices({ chat }),
      signal: controller.signal,
      onEvent: log.onEvent,
    });
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({
      status: 'cancelled',
      errorCode: 'cancelled',
      error: 'The run was cancelled.',
    });
    expect(requests[0]!.signal.aborted).toBe(true);
    expect(result.executions.find((e) => e.nodeId === 'llm_ab12')).toMatchObject({
      status: 'failed',
      error: 'Stopped: The run was cancelled.',
    });
    expect(log.types().at(-1)).toBe('execution_error');
    expect(log.types()).not.toContain('node_error');
  });

  it('ends promptly even when a node ignores its signal', async () => {
    const { chat, requests } = chatStub(() => new Promise<never>(() => {}));
    const controller = new AbortController();
    const running = runFlow({
      config: llmFlow(),
      services: stubServices({ chat }),
      signal: controller.signal,
    });
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    controller.abort();
    expect((await running).status).toBe('cancelled');
  });

  it('does not start when already cancelled', async () => {
    const result = await runFlow({
      config: llmFlow(),
      services: stubServices(),
      signal: AbortSignal.abort(),
    });
    expect(result.status).toBe('cancelled');
    expect(result.executions).toEqual([]);
  });
});

describe('limits', () => {
  it('stops at the step limit', async () => {
    const { chat } = chatStub(() => reply('x'));
    const result = await runFlow({
      config: llmFlow(),
      services: stubServices({ chat }),
      limits: { maxSteps: 2 },
    });
    expect(result).toMatchObject({
      status: 'failed',
      errorCode: 'limit_exceeded',
      error: 'The run went over its limit of 2 node executions.',
      failedNodeId: 'output_ou01',
    });
    expect(result.steps).toBe(3);
  });

  it('stops at the run time limit', async () => {
    const { chat, requests } = chatStub(untilAborted);
    const result = await runFlow({
      config: llmFlow(),
      services: stubServices({ chat }),
      limits: { maxRunTimeMs: 30 },
    });
    expect(result).toMatchObject({
      status: 'failed',
      errorCode: 'limit_exceeded',
      error: 'The run took longer than its 0.03 s limit.',
    });
    expect(requests[0]!.signal.aborted).toBe(true);
  });

  it('fails a node whose outputs are larger than the payload limit', async () => {
    const { chat } = chatStub(() => reply('é'.repeat(300)));
    const result = await runFlow({
      config: llmFlow(),
      services: stubServices({ chat }),
      limits: { maxPayloadBytes: 500 },
    });
    expect(result.status).toBe('failed');
    // 300 two-byte characters and the JSON around them: over 500 bytes, though under 500 characters.
    expect(result.error).toBe(
      'Writer failed: Node llm_ab12 gave 615 bytes of output, more than the 500 bytes a node may pass on.',
    );
  });
});
