import type { FlowStreamEvent } from '@atelier/schemas';
import { describe, expect, it } from 'vitest';
import { createEventBatches } from '../src/runs/event-batches';

// A run's events on their way to its log (src/runs/event-batches.ts): in order, once; the first token
// never held; then tokens gathered per EVENT_COALESCE_MS; the end never held.

const token = (i: number): FlowStreamEvent => ({ type: 'text', node_id: 'llm_ab12', text: `t${i} ` });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('run event batches', () => {
  it('send a streamed answer in order with far fewer appends than tokens, the first token alone', async () => {
    const batches: { events: FlowStreamEvent[] }[] = [];
    const out = createEventBatches(async (events) => {
      batches.push({ events });
      await sleep(1); // a round trip
    });
    const sent: FlowStreamEvent[] = [{ type: 'run_started', run_id: 'r1', conversation_id: null }];
    out.emit(sent[0]!);
    await sleep(5);
    for (let i = 0; i < 30; i++) {
      sent.push(token(i));
      out.emit(token(i));
      await sleep(2);
    }
    const last: FlowStreamEvent = { type: 'text', node_id: 'llm_ab12', text: 'last' };
    sent.push(last);
    out.emit(last);
    await out.end();

    // Every event once, in order.
    expect(batches.flatMap((b) => b.events)).toEqual(sent);
    // Nothing streamed yet: run_started and the first token each left without waiting for more.
    expect(batches[0]!.events).toEqual([sent[0]]);
    expect(batches[1]!.events).toEqual([token(0)]);
    // Then tokens in batches (one per EVENT_COALESCE_MS): far fewer appends than the 31 tokens, and the
    // last left as soon as the end asked for it.
    expect(batches.length).toBeLessThan(15);
    expect(batches.at(-1)!.events.at(-1)).toBe(last);
  });

  it('end() with nothing pending resolves at once, and after a batch on its way, once it is appended', async () => {
    let appended = 0;
    const out = createEventBatches(async () => {
      await sleep(5);
      appended += 1;
    });
    await out.end();
    expect(appended).toBe(0);
    out.emit(token(1));
    await sleep(0);
    await out.end();
    expect(appended).toBe(1);
  });
});
