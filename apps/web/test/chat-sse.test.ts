import { describe, expect, it } from 'vitest';
import { readSse, SseParser, type SseMessage } from '../src/lib/sse';

const encoder = new TextEncoder();

/** A body delivering `bytes` in pieces cut at the given offsets. */
function body(bytes: Uint8Array, cuts: number[]): ReadableStream<Uint8Array> {
  const points = [0, ...cuts.filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b), bytes.length];
  const pieces = points.slice(1).map((end, i) => bytes.slice(points[i], end));
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<SseMessage[]> {
  const out: SseMessage[] = [];
  for await (const message of readSse(stream)) out.push(message);
  return out;
}

const datas = (messages: SseMessage[]) => messages.map((m) => m.data);

const STANDARD =
  'data: {"type":"start","conversation_id":"c","message_id":"m"}\n\n' +
  'data: {"type":"text","text":"Héllo 👋 "}\n\n' +
  ': a comment\n\n' +
  'data: {"type":"heartbeat"}\n\n' +
  'data: {"type":"text","text":"wörld"}\n\n' +
  'data: {"type":"end","fallback":false}\n\n' +
  'data: [DONE]\n\n';
const EXPECTED = [
  '{"type":"start","conversation_id":"c","message_id":"m"}',
  '{"type":"text","text":"Héllo 👋 "}',
  '{"type":"heartbeat"}',
  '{"type":"text","text":"wörld"}',
  '{"type":"end","fallback":false}',
  '[DONE]',
];

describe('the SSE reader', () => {
  it('reads blank-line separated events delivered whole', async () => {
    expect(datas(await collect(body(encoder.encode(STANDARD), [])))).toEqual(EXPECTED);
  });

  it('gives the same events whatever byte boundaries the chunks have (inside UTF-8 characters too)', async () => {
    const bytes = encoder.encode(STANDARD);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(datas(await collect(body(bytes, [cut]))), `cut at ${cut}`).toEqual(EXPECTED);
    }
    // Every byte on its own, and a few pseudo-random multi-cuts.
    expect(datas(await collect(body(bytes, [...bytes.keys()])))).toEqual(EXPECTED);
    let seed = 7;
    for (let round = 0; round < 50; round++) {
      const cuts = Array.from({ length: 6 }, () => (seed = (seed * 48271) % 2147483647) % bytes.length);
      expect(datas(await collect(body(bytes, cuts)))).toEqual(EXPECTED);
    }
  });

  it('reads CRLF and CR line ends, even with the CRLF split across chunks', async () => {
    const crlf = STANDARD.replace(/\n/g, '\r\n');
    const bytes = encoder.encode(crlf);
    for (let cut = 1; cut < bytes.length; cut += 3) {
      expect(datas(await collect(body(bytes, [cut])))).toEqual(EXPECTED);
    }
    expect(datas(await collect(body(encoder.encode(STANDARD.replace(/\n/g, '\r')), [5, 60])))).toEqual(
      EXPECTED,
    );
  });

  it('tolerates line-separated streams: one JSON data line is one event, without blank lines', async () => {
    const lines = 'data: {"a":1}\ndata: {"a":2}\n{"a":3}\ndata: [DONE]\n';
    expect(datas(await collect(body(encoder.encode(lines), [9, 20])))).toEqual([
      '{"a":1}',
      '{"a":2}',
      '{"a":3}',
      '[DONE]',
    ]);
  });

  it('delivers a complete JSON data line at once, before its blank line arrives', () => {
    const parser = new SseParser();
    expect(parser.push('data: {"type":"text","text":"a"}\n').map((m) => m.data)).toEqual([
      '{"type":"text","text":"a"}',
    ]);
    expect(parser.push('\n')).toEqual([]);
  });

  it('joins multi-line data per the standard and keeps event names and ids', () => {
    const parser = new SseParser();
    const out = parser.push(
      'event: node_started\nid: 4\ndata: {\ndata: "x": 1\ndata: }\n\ndata: plain\ndata: text\n\n',
    );
    expect(out).toEqual([
      { event: 'node_started', data: '{\n"x": 1\n}', id: '4' },
      { event: 'message', data: 'plain\ntext', id: '4' },
    ]);
  });

  it('keeps what ends without a final line break', async () => {
    expect(datas(await collect(body(encoder.encode('data: {"a":1}\n\ndata: [DONE]'), [])))).toEqual([
      '{"a":1}',
      '[DONE]',
    ]);
    expect(datas(await collect(body(encoder.encode('data: partial'), [])))).toEqual(['partial']);
  });

  it('cancels the body when the reader stops early', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('data: {"a":1}\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const message of readSse(stream)) {
      expect(message.data).toBe('{"a":1}');
      break;
    }
    expect(cancelled).toBe(true);
  });
});
