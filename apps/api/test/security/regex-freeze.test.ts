import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sharedTestDatabase } from '@atelier/testkit';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { finished, flowBot } from '../flows';
import { call, createOrg, testConfig, type Org } from '../helpers';

// A user-supplied separator pattern such as (a+)+$ took 23 s on "a" x 30 + "!" on JavaScript's
// backtracking engine, during which the API answered nobody (/health included, every organization).
// Patterns now run on a linear-time engine; the event loop of this process (the API runs in it, as do
// in-process runs) is watched while such runs go through.

const LAG_BUDGET_MS = 500;

let app: FastifyInstance;
let org: Org;
let ws: string;
let workflow: string;

beforeAll(async () => {
  app = await buildApp({ config: testConfig(), database: await sharedTestDatabase(), logger: false });
  await app.ready();
  org = await createOrg(app);
  ws = await org.workspace(org.admin, 'Regex');
  workflow = await flowBot(app, org, ws, 'workflow', splitterFlow({ separators: ['\n'] }));
});
afterAll(async () => {
  await app.close();
});

const node = (id: string, type: string, fields: unknown, x: number) => ({
  id,
  type,
  data: { label: id, fields },
  position: { x, y: 0 },
});
const edge = (source: string, target: string) => ({ id: `${source}-${target}`, source, target });

/** input (custom field `separators`) -> recursive splitter on the query, patterns as separators -> output. */
function splitterFlow(fields: Record<string, unknown>) {
  return {
    nodes: [
      node('input_in01', 'input', [{ name: 'separators', type: 'string', isMandatory: false }], 0),
      node(
        'recursive_splitter_rs01',
        'recursive_splitter',
        { documents_to_split: '{{#input_in01.query#}}', is_separator_regex: true, ...fields },
        200,
      ),
      node('output_ou01', 'output', { response: '{{#recursive_splitter_rs01.documents#}}' }, 400),
    ],
    edges: [edge('input_in01', 'recursive_splitter_rs01'), edge('recursive_splitter_rs01', 'output_ou01')],
  };
}

/** Runs a draft through the API and waits for its end, the event loop's largest delay measured meanwhile. */
async function draftRun(configuration: unknown, inputs: Record<string, unknown>) {
  const probe = monitorEventLoopDelay({ resolution: 10 });
  probe.enable();
  try {
    const started = await call(app, 'POST', `/chatbots/${workflow}/runs`, {
      token: org.admin.token,
      body: { inputs, configuration },
    });
    expect(started.status).toBe(201);
    const run = await finished(app, org.admin.token, started.body.run_id as string, 60_000);
    return { run, maxLagMs: probe.max / 1e6 };
  } finally {
    probe.disable();
  }
}

const pieces = (run: { final_output: string }) =>
  (JSON.parse(run.final_output) as { pageContent: string }[]).map((d) => d.pageContent);

describe('user separator patterns do not freeze the API', () => {
  it('runs (a+)+$ on a run of "a" then "!" without blocking the event loop', async () => {
    // 24 characters: the backtracking engine spent seconds here (and about 2^6 times as long on the
    // reported 30), enough for this test to fail quickly without the fix.
    const text = 'a'.repeat(24) + '!';
    const { run, maxLagMs } = await draftRun(splitterFlow({ separators: ['(a+)+$'] }), { query: text });
    expect(maxLagMs).toBeLessThan(LAG_BUDGET_MS);
    expect(run.status).toBe('succeeded');
    expect(pieces(run)).toEqual([text]);
  });

  it('runs the reported case and nested quantifiers on "a" x 5000 + "!" without blocking', async () => {
    const reported = 'a'.repeat(30) + '!';
    const small = await draftRun(splitterFlow({ separators: ['(a+)+$'] }), { query: reported });
    const text = 'a'.repeat(5000) + '!';
    const patterns = ['(a+)+$', '(a|a)+$', '(a|aa)+$', '(a*)*b', '((a+)*)+$', '(?:a+){2,}$'];
    const large = await draftRun(
      splitterFlow({ separators: [...patterns, '!'], chunk_size: 4000, chunk_overlap: 0 }),
      { query: text },
    );
    expect(small.maxLagMs).toBeLessThan(LAG_BUDGET_MS);
    expect(large.maxLagMs).toBeLessThan(LAG_BUDGET_MS);
    expect(small.run.status).toBe('succeeded');
    expect(pieces(small.run)).toEqual([reported]);
    expect(large.run.status).toBe('succeeded');
    // None of the patterns matches: "!" splits, the run of "a" stays whole.
    expect(pieces(large.run)).toEqual(['a'.repeat(5000), '!']);
  });

  it('refuses to save or run a draft with a backreference pattern: 422 on the separators field', async () => {
    const configuration = splitterFlow({ separators: ['\n', String.raw`(a)\1`] });
    const problem = {
      node_id: 'recursive_splitter_rs01',
      field: 'separators',
      code: 'invalid_pattern',
      message: expect.stringMatching(/^Separator 2 \("\(a\)\\\\1"\) is not accepted .*backreferences/),
    };
    const saved = await call(app, 'PUT', `/chatbots/${workflow}/chatflow/config`, {
      token: org.admin.token,
      body: { configuration },
    });
    expect(saved.status).toBe(422);
    expect(saved.body).toMatchObject({ code: 'invalid_flow', problems: [problem] });

    const started = await call(app, 'POST', `/chatbots/${workflow}/runs`, {
      token: org.admin.token,
      body: { inputs: { query: 'aa' }, configuration },
    });
    expect(started.status).toBe(422);
    expect(started.body).toMatchObject({ code: 'invalid_flow', problems: [problem] });

    // Other unfinished fields still save as a draft.
    const incomplete = splitterFlow({ separators: ['\n'], documents_to_split: '' });
    const draft = await call(app, 'PUT', `/chatbots/${workflow}/chatflow/config`, {
      token: org.admin.token,
      body: { configuration: incomplete },
    });
    expect(draft.status).toBe(200);
  });

  it('fails the run on a pattern given at run time, naming the separator', async () => {
    const { run } = await draftRun(splitterFlow({ separators: '{{#input_in01.separators#}}' }), {
      query: 'abab',
      separators: JSON.stringify(['\n', '(?=b)']),
    });
    expect(run.status).toBe('failed');
    expect(JSON.stringify(run)).toContain(
      'Separator 2 (\\"(?=b)\\") is not accepted as a regular expression: lookahead and lookbehind',
    );
  });
});
