// bench/chat-stream: how much latency Atelier adds to a streamed answer. The same fake provider is
// called directly and through Atelier's simple-chat stream, with 1, 50 and 200 streams in flight;
// we compare time to first token (TTFT) and the gaps between tokens. Last line: one JSON object.
//
// Load shape. "N concurrent streams" is measured as a sustained load: N clients, their starts spread
// over one answer's length, each asking again as soon as its answer ends, for LOAD_SECONDS. That is
// how a busy chat service sees 200 concurrent conversations. A separate burst run opens 200 streams
// in the same millisecond, which measures how fast a queue of 200 waiting requests is drained (CPU
// per request) rather than the latency a stream sees; it is printed too, and reported as burst_*.
import { api, firstLine, login, root, start, startApi, stopAll } from '../shared/processes';
import { percentile, readEvents, type StreamTimes } from '../shared/stats';
import { join } from 'node:path';

const LEVELS = (process.env.BENCH_LEVELS ?? '1,50,200').split(',').map(Number);
const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
/** 50 tokens a second per stream, a usual pace for hosted models. */
const TOKEN_DELAY_MS = 20;
const STORY =
  'please tell me a short story about a lighthouse keeper who finds a message in a bottle on a stormy night';
/** The fake answers "Echo: " + the question, one word per token: about 100 tokens, two seconds. */
const QUESTION = Array.from({ length: 5 }, () => STORY).join(' ');
const ANSWER_MS = (QUESTION.split(' ').length + 1) * TOKEN_DELAY_MS;

async function direct(fakeUrl: string): Promise<StreamTimes> {
  const started = performance.now();
  const res = await fetch(`${fakeUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: 'Bearer test-key', 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: QUESTION }],
    }),
  });
  const times: StreamTimes = { ttft: NaN, gaps: [], text: '' };
  let last = 0;
  await readEvents(res, (data, at) => {
    if (data === '[DONE]') return;
    const piece = (JSON.parse(data) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta
      ?.content;
    if (!piece) return;
    if (Number.isNaN(times.ttft)) times.ttft = at - started;
    else times.gaps.push(at - last);
    last = at;
    times.text += piece;
  });
  return times;
}

async function viaAtelier(base: string, token: string, conversationId: string): Promise<StreamTimes> {
  const started = performance.now();
  const res = await fetch(`${base}/chat-interface/conversations/${conversationId}/simple/message`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify({ messages: [{ role: 'user', content: QUESTION }] }),
  });
  if (!res.ok) throw new Error(`stream: ${res.status} ${await res.text()}`);
  const times: StreamTimes = { ttft: NaN, gaps: [], text: '' };
  let last = 0;
  await readEvents(res, (data, at) => {
    if (!data.startsWith('{"type":"text"')) return;
    if (Number.isNaN(times.ttft)) times.ttft = at - started;
    else times.gaps.push(at - last);
    last = at;
    times.text += (JSON.parse(data) as { text: string }).text;
  });
  return times;
}

interface Summary {
  ttft50: number;
  ttft99: number;
  gap50: number;
  gap99: number;
  streams: number;
}

function summary(runs: StreamTimes[]): Summary {
  const ttfts = runs.map((r) => r.ttft);
  const gaps = runs.flatMap((r) => r.gaps);
  return {
    ttft50: percentile(ttfts, 50),
    ttft99: percentile(ttfts, 99),
    gap50: percentile(gaps, 50),
    gap99: percentile(gaps, 99),
    streams: runs.length,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * N clients in flight for LOAD_SECONDS: client i starts i/N of an answer's length after the first and
 * asks again as soon as its answer ends. Each client's first stream (the ramp) is not counted.
 */
async function sustained(n: number, stream: (client: number) => Promise<StreamTimes>) {
  const until = performance.now() + ANSWER_MS + LOAD_SECONDS * 1000;
  const runs: StreamTimes[] = [];
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      await sleep((i * ANSWER_MS) / n);
      for (let round = 0; performance.now() < until; round++) {
        const times = await stream(i);
        if (round > 0) runs.push(times);
      }
    }),
  );
  return runs;
}

async function main() {
  const fake = start(['fake.ts', String(TOKEN_DELAY_MS)], {}, join(root, 'bench', 'chat-stream'));
  const fakeUrl = await firstLine(fake);
  const base = await startApi({
    DATABASE_URL: process.env.DATABASE_URL ?? '',
    REDIS_URL: process.env.REDIS_URL ?? '',
  });

  const token = await login(base);
  const { workspace_id } = await api<{ workspace_id: string }>(base, token, 'POST', '/workspaces', {
    name: 'Bench',
  });
  const { provider_id } = await api<{ provider_id: string }>(base, token, 'POST', '/providers', {
    workspace_id,
    name: 'Fake',
    kind: 'openai_compatible',
    base_url: `${fakeUrl}/v1`,
    api_key: 'test-key',
  });
  const { model_id } = await api<{ model_id: string }>(base, token, 'POST', '/models', {
    workspace_id,
    provider_id,
    model_name: 'gpt-4o-mini',
    model_type: 'llm',
  });
  const { id: chatbot } = await api<{ id: string }>(base, token, 'POST', '/chatbots', {
    workspace_id,
    name: 'Bench bot',
    type: 'simple',
  });
  await api(base, token, 'PUT', `/chatbots/${chatbot}/simple/config`, {
    instruction: 'Tell stories.',
    model_id,
  });
  await api(base, token, 'POST', `/chatbots/${chatbot}/publish`);
  const conversations: string[] = [];
  for (let i = 0; i < Math.max(...LEVELS); i++) {
    conversations.push(
      (
        await api<{ conversation_id: string }>(base, token, 'POST', '/chat-interface/conversations', {
          title: `c${i}`,
          chatbot_id: chatbot,
        })
      ).conversation_id,
    );
  }
  // Warm both paths (JIT, connection pools) before measuring.
  await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      Promise.all([direct(fakeUrl), viaAtelier(base, token, conversations[i]!)]),
    ),
  );

  const results: Record<number, { direct: Summary; atelier: Summary }> = {};
  const row = (n: number | string, name: string, s: Summary) =>
    console.log(
      `${String(n).padStart(7)}  ${name.padEnd(7)} ${[s.ttft50, s.ttft99, s.gap50, s.gap99].map((v) => v.toFixed(1).padStart(9)).join('')}  ${s.streams}`,
    );
  const added = (a: Summary, d: Summary): Summary => ({
    ttft50: a.ttft50 - d.ttft50,
    ttft99: a.ttft99 - d.ttft99,
    gap50: a.gap50 - d.gap50,
    gap99: a.gap99 - d.gap99,
    streams: a.streams,
  });
  const check = (runs: StreamTimes[]) => {
    if (runs.some((r) => !r.text.startsWith('Echo: please tell me')))
      throw new Error('an answer came back wrong');
    return runs;
  };
  console.log(
    `db: ${process.env.DATABASE_URL ? 'postgres' : 'pglite'}; ${TOKEN_DELAY_MS} ms between tokens, answers of ${ANSWER_MS} ms; times in ms`,
  );
  console.log(`sustained load for ${LOAD_SECONDS} s per path:`);
  console.log('streams  path      ttft_p50 ttft_p99  gap_p50  gap_p99  measured');
  for (const n of LEVELS) {
    const d = summary(check(await sustained(n, () => direct(fakeUrl))));
    const a = summary(check(await sustained(n, (i) => viaAtelier(base, token, conversations[i]!))));
    results[n] = { direct: d, atelier: a };
    row(n, 'direct', d);
    row(n, 'atelier', a);
    row(n, 'added', added(a, d));
  }
  const top = Math.max(...LEVELS);
  console.log(`burst: ${top} streams opened at once:`);
  const bd = summary(check(await Promise.all(Array.from({ length: top }, () => direct(fakeUrl)))));
  const ba = summary(
    check(await Promise.all(conversations.slice(0, top).map((c) => viaAtelier(base, token, c)))),
  );
  row(top, 'direct', bd);
  row(top, 'atelier', ba);
  const burst = added(ba, bd);
  row(top, 'added', burst);

  const sustainedTop = added(results[top]!.atelier, results[top]!.direct);
  const round = (v: number) => Math.round(v * 10) / 10;
  console.log(
    JSON.stringify({
      added_ttft_p50_ms: round(sustainedTop.ttft50),
      added_ttft_p99_ms: round(sustainedTop.ttft99),
      added_gap_p99_ms: round(sustainedTop.gap99),
      streams: top,
      load: 'sustained',
      burst_added_ttft_p50_ms: round(burst.ttft50),
      burst_added_ttft_p99_ms: round(burst.ttft99),
      burst_added_gap_p99_ms: round(burst.gap99),
      db: process.env.DATABASE_URL ? 'postgres' : 'pglite',
    }),
  );
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(stopAll);
