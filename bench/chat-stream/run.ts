// bench/chat-stream: chat answers per second at bursts of 1, 10, 50 and 200 concurrent streams (every
// client starting together, each in a conversation of its own), for a published simple chatbot and a
// chatflow (input -> LLM -> output, the Quick Start template), beside the same fake provider called
// directly, in one run. The fake answers like a hosted model: 20 tokens, the first after 20 ms, then one
// every 5 ms. Setup: the embedded default (PGlite), or PostgreSQL + Redis when DATABASE_URL and
// REDIS_URL are both set.
//
// For each burst: answers/s (streams / time from the first request to the last answer's end), its
// ratio to direct at the same burst, time to first token p50/p99, whole answer p50, the API's CPU per
// answer (utime + stime of its process, from /proc) and its peak RSS while the burst ran; the
// database's CPU per answer (db_cpu: the embedded database's process, or every PostgreSQL and Redis
// process of the machine) and, on the embedded default, its peak RSS; and the whole machine's busy CPU per
// answer (all_cpu: client, fake provider, API and databases, from /proc/stat). CPU is counted until the
// writes that follow an answer have landed (a pause after each round). On 2 cores the ratio to direct
// is about direct's all_cpu over the path's. Each burst is run
// ROUNDS times: the best round's answers/s is kept (the machine is shared; the best round is the one
// least disturbed), latencies over all rounds. Last line: one JSON object (simple_ratio_200,
// chatflow_ratio_200, ttft_over_total_50, ...) for the setup it ran.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, launchApi, login, root, start, stopAll, firstLine } from '../shared/processes';
import { percentile } from '../shared/stats';

const LEVELS = (process.env.BENCH_LEVELS ?? '1,10,50,200').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** BENCH_PATHS=chatflow (say) measures one path only (beside direct): for a profile of it. */
const PATHS = (process.env.BENCH_PATHS ?? 'simple,chatflow').split(',');
const FIRST_TOKEN_MS = 20;
const TOKEN_MS = 5;
const postgres = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
/** 19 words: the fake answers "Echo:" and them, one word per token: 20 tokens. */
const QUESTION = 'tell me a short story about a lighthouse keeper who finds a message in a bottle at night';
const ANSWER = `Echo: ${QUESTION}`;

interface Stream {
  ttft: number;
  total: number;
  text: string;
}

/** Reads an SSE body: calls `onData` with each `data:` payload. */
async function readSse(res: Response, onData: (data: string) => void): Promise<void> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      for (const line of block.split('\n')) if (line.startsWith('data: ')) onData(line.slice(6));
    }
  }
}

/** One streamed answer: `pieceOf` picks a token's text out of an event (undefined for other events). */
async function streamOf(
  request: () => Promise<Response>,
  pieceOf: (data: string) => string | undefined,
): Promise<Stream> {
  const started = performance.now();
  const res = await request();
  if (!res.ok) throw new Error(`stream refused: ${res.status} ${await res.text()}`);
  const times: Stream = { ttft: NaN, total: NaN, text: '' };
  await readSse(res, (data) => {
    if (data === '[DONE]') return;
    const piece = pieceOf(data);
    if (!piece) return;
    if (Number.isNaN(times.ttft)) times.ttft = performance.now() - started;
    times.text += piece;
  });
  times.total = performance.now() - started;
  if (times.text !== ANSWER) throw new Error(`an answer came back wrong: ${JSON.stringify(times.text)}`);
  return times;
}

const post = (url: string, token: string, body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify(body),
  });

const direct = (fakeUrl: string) => () =>
  streamOf(
    () =>
      post(`${fakeUrl}/v1/chat/completions`, 'test-key', {
        model: 'gpt-4o-mini',
        stream: true,
        messages: [{ role: 'user', content: QUESTION }],
      }),
    (data) =>
      (JSON.parse(data) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content,
  );

/** A token of Atelier's stream: `{"type":"text","text":…}` in both the simple chat's and a run's events. */
const atelierPiece = (data: string) => {
  const event = JSON.parse(data) as { type?: string; text?: string };
  return event.type === 'text' ? event.text : undefined;
};

const simple = (base: string, token: string) => (conversation: string) =>
  streamOf(
    () =>
      post(`${base}/chat-interface/conversations/${conversation}/simple/message`, token, {
        messages: [{ role: 'user', content: QUESTION }],
      }),
    atelierPiece,
  );

const chatflow = (base: string, token: string) => (conversation: string) =>
  streamOf(
    () =>
      post(`${base}/chat-interface/conversations/${conversation}/chatflow/message`, token, {
        input_data: { query: QUESTION },
      }),
    atelierPiece,
  );

/** CPU seconds (user + system) and RSS bytes of a process, from /proc (Linux). */
function sample(pid: number): { cpu: number; rss: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
    const rssPages = Number(fields[21]); // field 24
    return { cpu: ticks / 100, rss: rssPages * 4096 };
  } catch {
    return { cpu: NaN, rss: NaN };
  }
}

/** The machine's busy CPU seconds since boot (all CPUs: everything but idle and iowait), from /proc/stat. */
function machineBusy(): number {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = ticks.map(Number) as number[];
  return (user! + nice! + system! + irq! + softirq! + steal!) / 100;
}

/** Every process of the machine with one of these names (PostgreSQL's server and backends, Redis). */
function processesNamed(names: string[]): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (names.includes(readFileSync(`/proc/${entry}/comm`, 'utf8').trim())) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + (sample(pid).cpu || 0), 0);

const childrenOf = (pid: number): number[] => {
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return text ? text.split(/\s+/).map(Number) : [];
  } catch {
    return [];
  }
};

interface Burst {
  perSecond: number;
  ttft50: number;
  ttft99: number;
  total50: number;
  apiCpuMs: number;
  apiRssMb: number;
  dbCpuMs: number;
  dbRssMb: number;
  allCpuMs: number;
}

/** N clients started together, ROUNDS times; the processes watched meanwhile. */
async function burst(
  n: number,
  one: (client: number, round: number) => Promise<Stream>,
  watched: { api: number | null; db: (() => number[]) | null; dbRss: number | null },
): Promise<Burst> {
  const runs: Stream[] = [];
  let best = 0;
  let cpuApi = 0;
  let cpuDb = 0;
  let cpuAll = 0;
  let peakApi = 0;
  let peakDb = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const api0 = watched.api ? sample(watched.api) : null;
    const dbPids = watched.db?.() ?? [];
    const db0 = cpuOf(dbPids);
    const all0 = machineBusy();
    const watch = setInterval(() => {
      if (watched.api) peakApi = Math.max(peakApi, sample(watched.api).rss);
      if (watched.dbRss) peakDb = Math.max(peakDb, sample(watched.dbRss).rss);
    }, 50);
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: n }, (_, i) => one(i, round)));
    const seconds = (performance.now() - started) / 1000;
    clearInterval(watch);
    best = Math.max(best, n / seconds);
    runs.push(...answers);
    // Let the writes that follow an answer (batched after [DONE]) land, counted, outside the next round.
    await new Promise((r) => setTimeout(r, 200));
    if (watched.api && api0) cpuApi += sample(watched.api).cpu - api0.cpu;
    cpuDb += cpuOf(dbPids) - db0;
    cpuAll += machineBusy() - all0;
  }
  const count = n * ROUNDS;
  return {
    perSecond: best,
    ttft50: percentile(
      runs.map((r) => r.ttft),
      50,
    ),
    ttft99: percentile(
      runs.map((r) => r.ttft),
      99,
    ),
    total50: percentile(
      runs.map((r) => r.total),
      50,
    ),
    apiCpuMs: watched.api ? (cpuApi * 1000) / count : NaN,
    apiRssMb: peakApi / 2 ** 20,
    dbCpuMs: watched.db ? (cpuDb * 1000) / count : NaN,
    dbRssMb: peakDb / 2 ** 20,
    allCpuMs: (cpuAll * 1000) / count,
  };
}

/** The Quick Start chatflow with its LLM node on `modelId`. */
async function quickStart(base: string, token: string, modelId: string): Promise<unknown> {
  const { templates } = await api<{
    templates: {
      id: string;
      configuration: { nodes: { id: string; type: string; data: { fields: unknown } }[] };
    }[];
  }>(base, token, 'GET', '/templates');
  const template = templates.find((t) => t.id === 'simple-chatbot');
  if (!template) throw new Error('no Quick Start template');
  for (const node of template.configuration.nodes) {
    if (node.type === 'llm') node.data.fields = { ...(node.data.fields as object), modelId };
  }
  return template.configuration;
}

async function main() {
  const fake = start(
    ['fake.ts', String(TOKEN_MS), String(FIRST_TOKEN_MS)],
    {},
    join(root, 'bench', 'chat-stream'),
  );
  const fakeUrl = await firstLine(fake);
  const { base, child } = await launchApi({
    DATABASE_URL: postgres ? process.env.DATABASE_URL : '',
    REDIS_URL: postgres ? process.env.REDIS_URL : '',
  });
  const apiPid = child.pid ?? null;
  const dbPid = !postgres && apiPid ? (childrenOf(apiPid)[0] ?? null) : null;

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
  const { id: simpleBot } = await api<{ id: string }>(base, token, 'POST', '/chatbots', {
    workspace_id,
    name: 'Bench bot',
    type: 'simple',
  });
  await api(base, token, 'PUT', `/chatbots/${simpleBot}/simple/config`, {
    instruction: 'Tell stories.',
    model_id,
  });
  await api(base, token, 'POST', `/chatbots/${simpleBot}/publish`);
  const { id: flowBot } = await api<{ id: string }>(base, token, 'POST', '/chatbots', {
    workspace_id,
    name: 'Bench flow',
    type: 'chatflow',
  });
  await api(base, token, 'PUT', `/chatbots/${flowBot}/chatflow/config`, {
    configuration: await quickStart(base, token, model_id),
  });
  await api(base, token, 'POST', `/chatbots/${flowBot}/publish`);

  /** Each stream of a burst in a conversation of its own: new ones for every round. */
  const conversationsFor = async (bot: string, count: number) => {
    const made: string[] = [];
    for (let i = 0; i < count; i += 50) {
      made.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(50, count - i) }, (_, k) =>
            api<{ conversation_id: string }>(base, token, 'POST', '/chat-interface/conversations', {
              title: `c${i + k}`,
              chatbot_id: bot,
            }).then((c) => c.conversation_id),
          ),
        )),
      );
    }
    return made;
  };

  // Warm both paths before measuring, to a long-running server's steady state: the JIT, the caches,
  // and every pooled connection with its catalog loaded and each hot statement past its first plans
  // (a prepared statement is planned 6 times per connection before PostgreSQL keeps a generic plan).
  const warm = async (bot: string, ask: (c: string) => Promise<Stream>) => {
    for (let i = 0; i < 4; i++) await Promise.all((await conversationsFor(bot, 50)).map(ask));
  };
  if (PATHS.includes('simple')) await warm(simpleBot, simple(base, token));
  if (PATHS.includes('chatflow')) await warm(flowBot, chatflow(base, token));

  const setup = postgres ? 'postgres' : 'pglite';
  const watched = {
    api: apiPid,
    db: postgres ? () => processesNamed(['postgres', 'redis-server']) : dbPid ? () => [dbPid] : null,
    dbRss: dbPid,
  };
  console.log(
    `setup: ${setup}; fake provider: 20 tokens, first after ${FIRST_TOKEN_MS} ms, then every ${TOKEN_MS} ms; ` +
      `${ROUNDS} rounds per burst (answers/s: the best round); times in ms, CPU in ms per answer, RSS in MB`,
  );
  console.log(
    'streams  path        answers/s  ratio  ttft_p50 ttft_p99 total_p50  api_cpu api_rss   db_cpu  db_rss  all_cpu',
  );
  const results: Record<string, Record<number, Burst>> = { direct: {}, simple: {}, chatflow: {} };
  const fmt = (v: number, width: number, digits = 1) =>
    (Number.isNaN(v) ? '-' : v.toFixed(digits)).padStart(width);
  for (const n of LEVELS) {
    const simpleConversations = PATHS.includes('simple') ? await conversationsFor(simpleBot, n * ROUNDS) : [];
    const flowConversations = PATHS.includes('chatflow') ? await conversationsFor(flowBot, n * ROUNDS) : [];
    results.direct![n] = await burst(n, direct(fakeUrl), { api: null, db: null, dbRss: null });
    if (PATHS.includes('simple'))
      results.simple![n] = await burst(
        n,
        (i, round) => simple(base, token)(simpleConversations[round * n + i]!),
        watched,
      );
    if (PATHS.includes('chatflow'))
      results.chatflow![n] = await burst(
        n,
        (i, round) => chatflow(base, token)(flowConversations[round * n + i]!),
        watched,
      );
    for (const path of ['direct', 'simple', 'chatflow'] as const) {
      const r = results[path]![n];
      if (!r) continue;
      const ratio = r.perSecond / results.direct![n]!.perSecond;
      console.log(
        `${String(n).padStart(7)}  ${path.padEnd(10)}${fmt(r.perSecond, 10)}${fmt(ratio, 7, 2)}` +
          `${fmt(r.ttft50, 9)}${fmt(r.ttft99, 9)}${fmt(r.total50, 10)}` +
          `${fmt(r.apiCpuMs, 9, 2)}${fmt(r.apiRssMb, 8, 0)}${fmt(r.dbCpuMs, 9, 2)}${fmt(r.dbRssMb, 8, 0)}` +
          fmt(r.allCpuMs, 9, 2),
      );
    }
  }

  const round = (v: number | undefined, digits = 3) =>
    v === undefined || Number.isNaN(v) ? null : Math.round(v * 10 ** digits) / 10 ** digits;
  const ratioAt = (path: 'simple' | 'chatflow', n: number) =>
    results[path]![n] && results.direct![n]
      ? results[path]![n]!.perSecond / results.direct![n]!.perSecond
      : undefined;
  const over = (path: 'simple' | 'chatflow', n: number) =>
    results[path]![n] ? results[path]![n]!.ttft50 / results[path]![n]!.total50 : undefined;
  const top = Math.max(...LEVELS);
  console.log(
    JSON.stringify({
      setup,
      simple_ratio_200: round(ratioAt('simple', 200)),
      chatflow_ratio_200: round(ratioAt('chatflow', 200)),
      ttft_over_total_50: round(over('simple', 50)),
      chatflow_ttft_over_total_50: round(over('chatflow', 50)),
      direct_per_second_200: round(results.direct![200]?.perSecond, 1),
      simple_api_cpu_ms: round(results.simple![top]?.apiCpuMs, 2),
      chatflow_api_cpu_ms: round(results.chatflow![top]?.apiCpuMs, 2),
      simple_db_cpu_ms: round(results.simple![top]?.dbCpuMs, 2),
      chatflow_db_cpu_ms: round(results.chatflow![top]?.dbCpuMs, 2),
      direct_all_cpu_ms: round(results.direct![top]?.allCpuMs, 2),
      simple_all_cpu_ms: round(results.simple![top]?.allCpuMs, 2),
      chatflow_all_cpu_ms: round(results.chatflow![top]?.allCpuMs, 2),
      api_rss_mb_200: round(
        Math.max(results.simple![top]?.apiRssMb ?? NaN, results.chatflow![top]?.apiRssMb ?? NaN),
        0,
      ),
      db_rss_mb_200: postgres
        ? null
        : round(Math.max(results.simple![top]?.dbRssMb ?? NaN, results.chatflow![top]?.dbRssMb ?? NaN), 0),
    }),
  );
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(stopAll);
