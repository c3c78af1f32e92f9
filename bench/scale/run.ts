// bench/scale: Atelier scaled out on PostgreSQL + Redis, and processes killed under load.
// Two API processes and two workers share one database (a fresh one) and one Redis. 1,000 workflow
// runs and 200 chat streams (a chatflow answering through a model: one model call, one log row and
// one credit charge each) go through both APIs; once a third of the runs are done, one worker and one
// API are killed with SIGKILL. Clients of the dead API resume their streams on the other with
// Last-Event-ID; the dead worker's runs are ended with the reason by the live processes. Then: every
// run succeeded or failed with a reason, none still running, and the books (runs, messages,
// inference logs, credit charges) add up. Needs DATABASE_URL (any database: the bench creates its own
// beside it) and REDIS_URL. Last line: one JSON object.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { api, ENCRYPTION_KEY, firstLine, launchApi, login, root, start, stopAll } from '../shared/processes';
import { chatStream, refusals, workflowRun, type Apis, type Outcome } from './clients';
import { audit, freshDatabase, unfinished } from './ledger';

const RUNS = Number(process.env.BENCH_RUNS ?? 1000);
const CHATS = Number(process.env.BENCH_CHATS ?? 200);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 50);
/** A shorter run lock than the default 30 s, so the dead worker's runs are ended within the bench. */
const RUN_LOCK_MS = Number(process.env.BENCH_RUN_LOCK_MS ?? 5000);
const TOKEN_DELAY_MS = 5;
const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;

const flow = (modelId: string) => ({
  nodes: [
    {
      id: 'input_in01',
      type: 'input',
      data: { label: 'Input', fields: [{ name: 'topic', type: 'string', isMandatory: false }] },
      position: { x: 0, y: 0 },
    },
    {
      id: 'llm_ab12',
      type: 'llm',
      data: {
        label: 'LLM',
        fields: {
          modelId,
          systemPrompt: 'Be brief.',
          prompt: 'Say {{#input_in01.topic#}}{{#input_in01.query#}}',
        },
      },
      position: { x: 200, y: 0 },
    },
    {
      id: 'output_ou01',
      type: 'output',
      data: { label: 'Output', fields: { response: '{{#llm_ab12.response#}}' } },
      position: { x: 400, y: 0 },
    },
  ],
  edges: [
    { id: 'input_in01-llm_ab12', source: 'input_in01', target: 'llm_ab12' },
    { id: 'llm_ab12-output_ou01', source: 'llm_ab12', target: 'output_ou01' },
  ],
});

async function bot(base: string, token: string, workspace: string, type: string, modelId: string) {
  const { id } = await api<{ id: string }>(base, token, 'POST', '/chatbots', {
    workspace_id: workspace,
    name: `Scale ${type}`,
    type,
  });
  await api(base, token, 'PUT', `/chatbots/${id}/chatflow/config`, { configuration: flow(modelId) });
  await api(base, token, 'POST', `/chatbots/${id}/publish`);
  return id;
}

function startWorker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = start(['src/index.ts'], env, join(root, 'apps', 'worker'));
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      if (!out.includes('worker ready')) return;
      child.stdout!.off('data', onData);
      child.stdout!.resume();
      resolve(child);
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`worker exited (${code}): ${out}`)));
  });
}

async function main() {
  if (!DATABASE_URL || !REDIS_URL) throw new Error('bench:scale needs DATABASE_URL and REDIS_URL');
  const tag = randomBytes(4).toString('hex');
  const db = await freshDatabase(DATABASE_URL, `atelier_scale_${tag}`);
  try {
    const shared = {
      DATABASE_URL: db.url,
      REDIS_URL,
      QUEUE_PREFIX: `atelier-scale-${tag}`,
      ENCRYPTION_KEY,
      RUN_LOCK_MS: String(RUN_LOCK_MS),
      DB_POOL_SIZE: '10',
    };
    const fake = start(['fake.ts', String(TOKEN_DELAY_MS)], {}, join(root, 'bench', 'chat-stream'));
    const fakeUrl = await firstLine(fake);
    // The first API migrates the database and creates the admin; the second finds them.
    const a = await launchApi({ ...shared, RUN_WORKER_IN_API: 'false' });
    const b = await launchApi({ ...shared, RUN_WORKER_IN_API: 'false' });
    const workers = [
      await startWorker({ ...shared, RUN_CONCURRENCY: '50' }),
      await startWorker({ ...shared, RUN_CONCURRENCY: '50' }),
    ];

    const token = await login(a.base);
    const { workspace_id } = await api<{ workspace_id: string }>(a.base, token, 'POST', '/workspaces', {
      name: 'Scale',
    });
    const { provider_id } = await api<{ provider_id: string }>(a.base, token, 'POST', '/providers', {
      workspace_id,
      name: 'Fake',
      kind: 'openai_compatible',
      base_url: `${fakeUrl}/v1`,
      api_key: 'test-key',
    });
    const { model_id } = await api<{ model_id: string }>(a.base, token, 'POST', '/models', {
      workspace_id,
      provider_id,
      model_name: 'gpt-4o-mini',
      model_type: 'llm',
      pricing: { per_call: 1 },
    });
    const workflow = await bot(a.base, token, workspace_id, 'workflow', model_id);
    const chatflow = await bot(a.base, token, workspace_id, 'chatflow', model_id);
    const conversations: string[] = [];
    for (let i = 0; i < CHATS; i++) {
      const base = i % 2 ? b.base : a.base;
      conversations.push(
        (
          await api<{ conversation_id: string }>(base, token, 'POST', '/chat-interface/conversations', {
            title: `c${i}`,
            chatbot_id: chatflow,
          })
        ).conversation_id,
      );
    }

    let aAlive = true;
    const apis: Apis = {
      pick: (i) => (aAlive && i % 2 === 0 ? a.base : b.base),
      other: (base) => (base === a.base || !aAlive ? b.base : a.base),
    };
    const outcomes: Outcome[] = [];
    const chats: Outcome[] = [];
    let killedAt = 0;
    const t0 = performance.now();
    let next = 0;
    // Chat streams start as the runs go, over the first two thirds of them, so some are under way when
    // the kill comes.
    const runLoad = Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < RUNS) {
          const i = next++;
          outcomes.push(await workflowRun(apis, i, token, workflow));
          if (!killedAt && outcomes.length >= RUNS / 3) {
            killedAt = outcomes.length;
            workers[0]!.kill('SIGKILL');
            a.child.kill('SIGKILL');
            aAlive = false;
          }
        }
      }),
    );
    const chatLoad = Promise.all(
      conversations.map(async (conversation, i) => {
        while (next < (i * RUNS * 2) / 3 / CHATS) await new Promise((r) => setTimeout(r, 100));
        chats.push(await chatStream(apis, i, token, conversation));
      }),
    );
    await Promise.all([runLoad, chatLoad]);
    const seconds = (performance.now() - t0) / 1000;

    // Every run ended: the dead worker's within RUN_LOCK_MS + 5 s of its death (and its lost queue
    // entries handed back); give the live processes that long and a margin.
    const settleUntil = performance.now() + RUN_LOCK_MS + 20_000;
    while ((await unfinished(db.url)) > 0 && performance.now() < settleUntil)
      await new Promise((r) => setTimeout(r, 500));
    const books = await audit(db.url);
    const all = [...outcomes, ...chats];
    const result = {
      runs_total: books.runs.total,
      runs_lost: all.filter((o) => o.how === 'lost').length,
      runs_stuck: books.runs.unfinished,
      runs_succeeded: books.runs.succeeded,
      runs_failed_with_reason: books.runs.failed - books.runs.failedSilently,
      runs_failed_without_reason: books.runs.failedSilently,
      runs_resumed: outcomes.filter((o) => o.how === 'resumed').length,
      streams_completed: chats.filter((o) => o.how === 'completed').length,
      streams_resumed: chats.filter((o) => o.how === 'resumed').length,
      streams_lost: chats.filter((o) => o.how === 'lost').length,
      model_calls: books.modelCalls,
      credit_charges: books.creditCharges,
      messages: books.messages.asked + books.messages.answered,
      ledger_mismatch: books.mismatch,
      ledger: books.parts,
      refused_then_retried: refusals,
      killed_after_runs: killedAt,
      run_lock_ms: RUN_LOCK_MS,
      runs_per_s: Number(((RUNS + CHATS) / seconds).toFixed(1)),
    };
    console.log(
      `${RUNS} workflow runs and ${CHATS} chat streams over 2 APIs and 2 workers in ${seconds.toFixed(1)} s; ` +
        `one worker and one API killed (SIGKILL) after ${killedAt} runs ended`,
    );
    console.log(JSON.stringify(result));
  } finally {
    stopAll();
    await new Promise((r) => setTimeout(r, 1000));
    await db.drop().catch(() => undefined);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    stopAll();
    process.exit(1);
  },
);
