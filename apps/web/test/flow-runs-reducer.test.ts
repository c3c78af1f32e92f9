import type { FlowStreamEvent, RunDetail } from '@atelier/schemas';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  compareEventIds,
  initialRunState,
  runReducer,
  stateFromDetail,
  type RunState,
} from '../src/features/flow-editor/runs/run-reducer';
import { useRunStore } from '../src/features/flow-editor/runs/run-store';

const NOW = '2026-01-01T00:00:00.000Z';
const apply = (events: [FlowStreamEvent, string?][], state: RunState = initialRunState()) =>
  events.reduce((s, [event, id]) => runReducer(s, event, id, NOW), state);

const started = (node_id: string, iteration_index: number | null = null): FlowStreamEvent => ({
  type: 'node_started',
  node_id,
  node_type: 'llm',
  label: `Label ${node_id}`,
  iteration_index,
});
const completed = (
  node_id: string,
  outputs: Record<string, unknown>,
  iteration_index: number | null = null,
) =>
  ({
    type: 'node_completed',
    node_id,
    node_type: 'llm',
    duration_seconds: 1.5,
    outputs,
    iteration_index,
  }) satisfies FlowStreamEvent;

describe('the run event reducer', () => {
  it('run_started sets the run id; node_started marks running and records the label once', () => {
    const s = apply([
      [{ type: 'run_started', run_id: 'r1', conversation_id: null }, '1'],
      [started('llm_a'), '2'],
    ]);
    expect(s).toMatchObject({ runId: 'r1', status: 'running', lastEventId: '2' });
    expect(s.nodeStatus).toEqual({ llm_a: 'running' });
    expect(s.nodes).toEqual([{ id: 'llm_a', label: 'Label llm_a', type: 'llm' }]);
  });

  it('node_completed: succeeded with an execution; node_error: failed with its error', () => {
    const s = apply([
      [started('a'), '1'],
      [completed('a', { result: 'hi' }), '2'],
      [started('b'), '3'],
      [
        {
          type: 'node_error',
          node_id: 'b',
          node_type: 'api',
          error: 'boom',
          duration_seconds: 0.2,
          iteration_index: null,
        },
        '4',
      ],
    ]);
    expect(s.nodeStatus).toEqual({ a: 'succeeded', b: 'failed' });
    expect(s.executions.a).toEqual([
      {
        node_id: 'a',
        node_type: 'llm',
        iteration_index: null,
        status: 'succeeded',
        error: null,
        duration_seconds: 1.5,
        parameters: null,
        outputs: { result: 'hi' },
        started_at: NOW,
      },
    ]);
    expect(s.executions.b?.[0]).toMatchObject({ status: 'failed', error: 'boom', duration_seconds: 0.2 });
  });

  it('node_skipped marks skipped; heartbeats change nothing', () => {
    const before = apply([[started('a'), '1']]);
    const s = apply([[{ type: 'node_skipped', node_id: 'c', node_type: 'output' }, '2']], before);
    expect(s.nodeStatus.c).toBe('skipped');
    expect(runReducer(s, { type: 'heartbeat' })).toBe(s);
  });

  it('text events accumulate per node', () => {
    const s = apply([
      [{ type: 'text', node_id: 'a', text: 'Hel' }, '1'],
      [{ type: 'text', node_id: 'b', text: 'x' }, '2'],
      [{ type: 'text', node_id: 'a', text: 'lo' }, '3'],
    ]);
    expect(s.streamedText).toEqual({ a: 'Hello', b: 'x' });
  });

  it('a node in an iteration keeps one execution per item; one failed item fails the node', () => {
    const s = apply([
      [started('it', 0), '1'],
      [completed('it', { v: 0 }, 0), '2'],
      [started('it', 2), '3'],
      [completed('it', { v: 2 }, 2), '4'],
      [started('it', 1), '5'],
      [
        {
          type: 'node_error',
          node_id: 'it',
          node_type: 'llm',
          error: 'no',
          duration_seconds: 1,
          iteration_index: 1,
        },
        '6',
      ],
    ]);
    expect(s.executions.it?.map((e) => [e.iteration_index, e.status])).toEqual([
      [0, 'succeeded'],
      [1, 'failed'],
      [2, 'succeeded'],
    ]);
    expect(s.nodeStatus.it).toBe('failed');
  });

  it('execution_completed: succeeded with the final output; running nodes lose their status', () => {
    const s = apply([
      [started('a'), '1'],
      [started('b'), '2'],
      [completed('a', {}), '3'],
      [{ type: 'execution_completed', run_id: 'r', outputs: { result: 'done' }, final_output: 'done' }, '4'],
    ]);
    expect(s).toMatchObject({ status: 'succeeded', finalOutput: 'done', outputs: { result: 'done' } });
    expect(s.nodeStatus).toEqual({ a: 'succeeded' });
  });

  it('execution_error: failed or cancelled per its status, with the message of a string or an object', () => {
    const failed = apply([[{ type: 'execution_error', run_id: 'r', error: 'bad', status: 'failed' }, '1']]);
    expect(failed).toMatchObject({ status: 'failed', error: 'bad' });
    const cancelled = apply([
      [{ type: 'execution_error', run_id: 'r', error: { message: 'Cancelled' }, status: 'cancelled' }, '1'],
    ]);
    expect(cancelled).toMatchObject({ status: 'cancelled', error: 'Cancelled' });
  });

  it('ignores duplicate and out-of-order ids, applies events without an id', () => {
    const s = apply([
      [{ type: 'text', node_id: 'a', text: 'a' }, '1-0'],
      [{ type: 'text', node_id: 'a', text: 'b' }, '2-0'],
      [{ type: 'text', node_id: 'a', text: 'b' }, '2-0'],
      [{ type: 'text', node_id: 'a', text: 'z' }, '1-5'],
      [{ type: 'text', node_id: 'a', text: 'c' }, '10-0'],
      [{ type: 'text', node_id: 'a', text: 'd' }],
    ]);
    expect(s.streamedText.a).toBe('abcd');
    expect(s.lastEventId).toBe('10-0');
  });

  it('compares in-process sequence numbers and Redis stream ids as numbers', () => {
    expect(compareEventIds('9', '10')).toBeLessThan(0);
    expect(compareEventIds('1700000000000-2', '1700000000000-10')).toBeLessThan(0);
    expect(compareEventIds('5', '5')).toBe(0);
  });
});

const detail = (over: Partial<RunDetail> = {}): RunDetail => ({
  id: 'r9',
  chatbot_id: 'c',
  chatbot_type: 'workflow',
  conversation_id: null,
  trigger: 'test',
  status: 'failed',
  config_version: null,
  inputs: {},
  outputs: null,
  final_output: null,
  error: 'Node b failed',
  started_by: null,
  created_at: NOW,
  started_at: NOW,
  finished_at: NOW,
  node_executions: [
    {
      node_id: 'b',
      node_type: 'api',
      iteration_index: null,
      status: 'failed',
      error: 'x',
      duration_seconds: 1,
      parameters: { url: 'u' },
      outputs: {},
      started_at: '2026-01-01T00:00:02Z',
    },
    {
      node_id: 'a',
      node_type: 'input',
      iteration_index: null,
      status: 'succeeded',
      error: null,
      duration_seconds: 0,
      parameters: [],
      outputs: { q: 1 },
      started_at: '2026-01-01T00:00:01Z',
    },
    {
      node_id: 's',
      node_type: 'llm',
      iteration_index: null,
      status: 'skipped',
      error: null,
      duration_seconds: 0,
      parameters: null,
      outputs: {},
      started_at: '2026-01-01T00:00:03Z',
    },
  ],
  ...over,
});

describe('a run loaded from the API', () => {
  it('fills statuses, executions and node order from the node executions', () => {
    const s = stateFromDetail(detail());
    expect(s).toMatchObject({ runId: 'r9', status: 'failed', error: 'Node b failed' });
    expect(s.nodeStatus).toEqual({ a: 'succeeded', b: 'failed', s: 'skipped' });
    expect(s.nodes.map((n) => n.id)).toEqual(['a', 'b', 's']);
    expect(s.executions.b?.[0]?.parameters).toEqual({ url: 'u' });
  });
});

describe('the run store', () => {
  beforeEach(() => useRunStore.getState().reset());

  it('applies events, selects and clears the inspected node', () => {
    const store = useRunStore.getState();
    store.begin();
    expect(useRunStore.getState().status).toBe('queued');
    store.applyEvent({ type: 'run_started', run_id: 'r9', conversation_id: null }, '1');
    store.applyEvent(started('b'), '2');
    store.selectExecution('b');
    expect(useRunStore.getState().selectedExecutionNodeId).toBe('b');
    store.clearSelectedExecution();
    expect(useRunStore.getState().selectedExecutionNodeId).toBeNull();
  });

  it('loading the run that was streamed keeps its labels and streamed text', () => {
    const store = useRunStore.getState();
    store.applyEvent({ type: 'run_started', run_id: 'r9', conversation_id: null }, '1');
    store.applyEvent(started('b'), '2');
    store.applyEvent({ type: 'text', node_id: 'b', text: 'hey' }, '3');
    store.loadRun(detail());
    const s = useRunStore.getState();
    expect(s.nodes[0]).toEqual({ id: 'b', label: 'Label b', type: 'llm' });
    expect(s.streamedText.b).toBe('hey');
    expect(s.lastEventId).toBe('3');
    expect(s.nodeStatus.b).toBe('failed');
  });
});
