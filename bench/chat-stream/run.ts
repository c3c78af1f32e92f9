// bench/chat-stream: how much latency Atelier adds to a streamed answer. The same fake provider is
// called directly and through Atelier's simple-chat stream, at 1, 50 and 200 concurrent streams;
// we compare time to first token (TTFT) and the gaps between tokens. Last line: one JSON object.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { percentile, readEvents, type StreamTimes } from './stats';

const LEVELS = [1, 50, 200];
const TOKEN_DELAY_MS = 10;
const QUESTION =
  'please tell me a short story about a lighthouse keeper who finds a message in a bottle on a stormy night';
const ADMIN = { email: 'bench@atelier.test', password: 'Bench-Pass-123!' };
const root = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

function start(args: string[], env: NodeJS.ProcessEnv, cwd: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return child;
}

const firstLine = (child: ChildProcess) =>
  new Promise<string>((resolve) =>
    child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim().split('\n')[0]!)),
  );

async function waitFor(url: string) {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not come up`);
}

async function api<T>(
  base: string,
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : null,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

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

function summary(runs: StreamTimes[]) {
  const ttfts = runs.map((r) => r.ttft);
  const gaps = runs.flatMap((r) => r.gaps);
  return {
    ttft50: percentile(ttfts, 50),
    ttft99: percentile(ttfts, 99),
    gap50: percentile(gaps, 50),
    gap99: percentile(gaps, 99),
  };
}

async function main() {
  const fake = start(['fake.ts', String(TOKEN_DELAY_MS)], {}, join(root, 'bench', 'chat-stream'));
  const fakeUrl = await firstLine(fake);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // BENCH_PROFILE=dir writes a CPU profile of the API process there.
  start(
    [
      ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []),
      'src/server.ts',
    ],
    {
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'atelier-bench-')),
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0',
      ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      MONTHLY_CREDITS: '100000000',
      LOGIN_RATE_PER_IP_PER_MINUTE: '100000',
      DATABASE_URL: process.env.DATABASE_URL ?? '',
      REDIS_URL: process.env.REDIS_URL ?? '',
    },
    join(root, 'apps', 'api'),
  );
  await waitFor(`${base}/health`);

  const { access_token: token } = await api<{ access_token: string }>(base, null, 'POST', '/token', ADMIN);
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

  const results: Record<number, { direct: ReturnType<typeof summary>; atelier: ReturnType<typeof summary> }> =
    {};
  console.log(
    `db: ${process.env.DATABASE_URL ? 'postgres' : 'pglite'}; token delay ${TOKEN_DELAY_MS} ms; times in ms`,
  );
  console.log('streams  path     ttft_p50  ttft_p99  gap_p50  gap_p99');
  for (const n of LEVELS) {
    const d = summary(await Promise.all(Array.from({ length: n }, () => direct(fakeUrl))));
    const runs = await Promise.all(conversations.slice(0, n).map((c) => viaAtelier(base, token, c)));
    if (runs.some((r) => !r.text.startsWith('Echo: please tell me')))
      throw new Error('an answer came back wrong');
    const a = summary(runs);
    results[n] = { direct: d, atelier: a };
    for (const [name, s] of [
      ['direct', d],
      ['atelier', a],
    ] as const) {
      console.log(
        `${String(n).padStart(7)}  ${name.padEnd(7)} ${s.ttft50.toFixed(1).padStart(9)} ${s.ttft99.toFixed(1).padStart(9)} ${s.gap50.toFixed(1).padStart(8)} ${s.gap99.toFixed(1).padStart(8)}`,
      );
    }
    console.log(
      `${String(n).padStart(7)}  added   ${(a.ttft50 - d.ttft50).toFixed(1).padStart(9)} ${(a.ttft99 - d.ttft99).toFixed(1).padStart(9)} ${(a.gap50 - d.gap50).toFixed(1).padStart(8)} ${(a.gap99 - d.gap99).toFixed(1).padStart(8)}`,
    );
  }
  const top = results[200]!;
  const round = (v: number) => Math.round(v * 10) / 10;
  console.log(
    JSON.stringify({
      added_ttft_p50_ms: round(top.atelier.ttft50 - top.direct.ttft50),
      added_ttft_p99_ms: round(top.atelier.ttft99 - top.direct.ttft99),
      added_gap_p99_ms: round(top.atelier.gap99 - top.direct.gap99),
      streams: 200,
      db: process.env.DATABASE_URL ? 'postgres' : 'pglite',
    }),
  );
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const child of children) child.kill('SIGTERM');
  });
