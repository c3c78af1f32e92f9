// The canvas with 300 nodes, measured in Debian's Chromium on the production build: time until every node
// is drawn, frame intervals while dragging a node and while panning, and the time one keystroke in the
// inspector and one undo take to show. Last line: one JSON object.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';

const NODES = Number(process.env.BENCH_NODES ?? 300);
const root = fileURLToPath(new URL('..', import.meta.url));
const apiRoot = fileURLToPath(new URL('../../api', import.meta.url));
const admin = { email: 'bench@canvas.test', password: 'Bench-Canvas-Pass-1' };

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const [apiPort, webPort] = [await freePort(), await freePort()];
const apiUrl = `http://127.0.0.1:${apiPort}`;
const webUrl = `http://127.0.0.1:${webPort}`;
const outDir = join(root, 'test-results', 'bench-canvas-dist');
process.env.VITE_API_URL = apiUrl;
await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
const api = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
  cwd: apiRoot,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    NODE_ENV: 'test',
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    DATABASE_URL: '',
    REDIS_URL: '',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'atelier-bench-canvas-')),
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    WEB_ORIGIN: webUrl,
    LOG_LEVEL: 'warn',
  },
});
const server = await preview({
  root,
  logLevel: 'warn',
  build: { outDir },
  preview: { port: webPort, host: '127.0.0.1' },
});
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${apiUrl}/health`)).ok) break;
  } catch {
    if (i > 360) throw new Error('the API did not start');
  }
  await new Promise((r) => setTimeout(r, 250));
}

/** A grid of LLM nodes, each linked to the next in its row: the kind of graph people draw, 300 times. */
function bigFlow(count) {
  const cols = 20;
  const nodes = Array.from({ length: count }, (_, i) => ({
    id: `llm_${String(i).padStart(4, '0')}`,
    type: 'llm',
    position: { x: (i % cols) * 320, y: Math.floor(i / cols) * 200 },
    data: { label: `Step ${i}`, fields: { prompt: `Say ${i}`, temperature: 0.7 } },
  }));
  const edges = nodes
    .slice(1)
    .flatMap((n, i) =>
      (i + 1) % cols === 0 ? [] : [{ id: `${nodes[i].id}-${n.id}`, source: nodes[i].id, target: n.id }],
    );
  return { nodes, edges };
}

/** BENCH_PROFILE=1: the functions the drag spends its script time in (self time, longest first). */
function printProfile(profile) {
  const self = new Map();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const dt = profile.timeDeltas;
  profile.samples.forEach((id, i) => {
    const f = byId.get(id).callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
  });
  for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 20))
    console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${k}`);
}

async function printTrace(cdp) {
  const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  const { stream } = await done;
  let text = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream });
    text += chunk.data;
    if (chunk.eof) break;
  }
  const events = JSON.parse(text).traceEvents ?? JSON.parse(text);
  const total = new Map();
  for (const e of events)
    if (e.ph === 'X' && e.dur) total.set(e.name, (total.get(e.name) ?? 0) + e.dur / 1000);
  for (const [name, ms] of [...total].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`  ${name.padEnd(32)} ${ms.toFixed(1)} ms`);
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
  return { p50: +q(0.5).toFixed(1), p95: +q(0.95).toFixed(1), max: +(s.at(-1) ?? 0).toFixed(1) };
};

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
try {
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto(`${webUrl}/login`);
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password', { exact: true }).fill(admin.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  const token = await page.evaluate(() => localStorage.getItem('access_token'));
  const call = async (method, path, body) => {
    const res = await fetch(`${apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const { workspace_id } = await call('POST', '/workspaces', { name: 'Bench' });
  const { id } = await call('POST', '/chatbots', { workspace_id, name: 'Big flow', type: 'chatflow' });
  await call('PUT', `/chatbots/${id}/chatflow/config`, { configuration: bigFlow(NODES) });
  await page.evaluate((ws) => {
    const key = Object.keys(localStorage).find((k) =>
      localStorage.getItem(k)?.includes('selectedWorkspaceId'),
    );
    if (!key) return;
    const stored = JSON.parse(localStorage.getItem(key));
    stored.state.selectedWorkspaceId = ws;
    localStorage.setItem(key, JSON.stringify(stored));
  }, workspace_id);

  const t0 = Date.now();
  await page.goto(`${webUrl}/studio/chatflow/${id}`);
  await page.waitForFunction((n) => document.querySelectorAll('.react-flow__node').length >= n, NODES, {
    timeout: 60_000,
  });
  const loadMs = Date.now() - t0;

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = async () =>
    Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));

  /**
   * Frame intervals while `action` runs (rAF timestamps in the page), and the main thread's busy time per
   * mouse move (Chrome's own counters: script, style, layout, all tasks), which is steadier than frames.
   */
  async function frames(action, moves) {
    const before = await metrics();
    await page.evaluate(() => {
      window.__frames = [];
      window.__longTasks = 0;
      new PerformanceObserver((l) => (window.__longTasks += l.getEntries().length)).observe({
        type: 'longtask',
      });
      let last = performance.now();
      const tick = (now) => {
        window.__frames.push(now - last);
        last = now;
        if (window.__frames !== null) window.__raf = requestAnimationFrame(tick);
      };
      window.__raf = requestAnimationFrame(tick);
    });
    await action();
    const out = await page.evaluate(() => {
      cancelAnimationFrame(window.__raf);
      const f = window.__frames.slice(1);
      window.__frames = null;
      return { frames: f, longTasks: window.__longTasks };
    });
    const after = await metrics();
    const per = (name) => +(((after[name] - before[name]) * 1000) / moves).toFixed(2);
    return {
      ...stats(out.frames),
      frames: out.frames.length,
      longTasks: out.longTasks,
      busy_ms_per_move: per('TaskDuration'),
      script_ms_per_move: per('ScriptDuration'),
      layout_style_ms_per_move: +(per('LayoutDuration') + per('RecalcStyleDuration')).toFixed(2),
    };
  }

  const box = await page.getByTestId('node-llm_0021').boundingBox();
  // BENCH_TRACE=1: what the main thread spends the drag on, by trace event (longest first).
  if (process.env.BENCH_PROFILE) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
  }
  if (process.env.BENCH_TRACE)
    await cdp.send('Tracing.start', {
      categories: 'devtools.timeline,disabled-by-default-devtools.timeline',
      transferMode: 'ReturnAsStream',
    });
  // Which nodes' DOM changes while one node is dragged: only that one should.
  await page.evaluate(() => {
    window.__touched = new Set();
    window.__observer = new MutationObserver((records) => {
      for (const r of records) {
        const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
        const id = el?.closest('.react-flow__node')?.getAttribute('data-id');
        if (id) window.__touched.add(id);
      }
    });
    window.__observer.observe(document.querySelector('.react-flow__nodes'), {
      subtree: true,
      attributes: true,
      childList: true,
      characterData: true,
    });
  });
  const drag = await frames(async () => {
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let i = 1; i <= 60; i++) await page.mouse.move(x + i * 4, y + i * 2);
    await page.mouse.up();
  }, 60);
  if (process.env.BENCH_TRACE) await printTrace(cdp);
  if (process.env.BENCH_PROFILE) printProfile((await cdp.send('Profiler.stop')).profile);
  const touched = await page.evaluate(() => {
    window.__observer.disconnect();
    return window.__touched.size;
  });
  // The drag must have moved the node (not panned the view): the flow then has unsaved changes.
  if ((await page.getByTestId('unsaved').count()) !== 1) throw new Error('the drag did not move the node');
  const pane = await page.locator('.react-flow__pane').boundingBox();
  const pan = await frames(async () => {
    await page.mouse.move(pane.x + pane.width - 30, pane.y + pane.height - 30);
    await page.mouse.down();
    for (let i = 1; i <= 60; i++)
      await page.mouse.move(pane.x + pane.width - 30 - i * 5, pane.y + pane.height - 30 - i * 3);
    await page.mouse.up();
  }, 60);

  // One keystroke in the selected node's prompt until the node's face shows it.
  await page.locator('.react-flow__controls-fitview').click();
  await page.waitForTimeout(300);
  await page.getByTestId('node-llm_0005').click();
  const prompt = page.getByTestId('inspector').getByLabel('Prompt *', { exact: true });
  await prompt.click();
  await page.keyboard.press('End');
  const typing = [];
  for (const ch of 'abcdefghij') {
    const started = await page.evaluate(() => performance.now());
    await page.keyboard.type(ch);
    typing.push(
      await page.evaluate(
        ([s, c]) =>
          new Promise((resolve) => {
            const check = () =>
              document.querySelector('[data-testid=node-llm_0005]')?.textContent?.includes(`Say 5${c}`)
                ? requestAnimationFrame(() => resolve(performance.now() - s))
                : requestAnimationFrame(check);
            check();
          }),
        [started, 'abcdefghij'.slice(0, 'abcdefghij'.indexOf(ch) + 1)],
      ),
    );
  }
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  // Undo every step (the drag, the typing), then redo them: click to the canvas showing it.
  const undo = [];
  for (const name of ['Undo', 'Redo']) {
    const button = page.getByRole('button', { name, exact: true });
    while (await button.isEnabled()) {
      const started = Date.now();
      await button.click();
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
      undo.push(Date.now() - started);
    }
  }

  const result = {
    nodes: NODES,
    load_to_all_drawn_ms: loadMs,
    drag_frame_ms: drag,
    nodes_touched_by_drag: touched,
    pan_frame_ms: pan,
    keystroke_to_node_ms: stats(typing),
    undo_click_ms: stats(undo),
    drag_busy_vs_frame_budget: +(drag.busy_ms_per_move / 16.7).toFixed(2),
  };
  console.log(`nodes                 ${NODES}`);
  console.log(`load to all drawn     ${loadMs} ms`);
  console.log(
    `drag frame            p50 ${drag.p50} ms  p95 ${drag.p95} ms  max ${drag.max} ms  (${drag.frames} frames, ${drag.longTasks} long tasks)`,
  );
  console.log(`nodes changed in DOM  ${touched} of ${NODES} while one is dragged`);
  console.log(
    `pan frame             p50 ${pan.p50} ms  p95 ${pan.p95} ms  max ${pan.max} ms  (${pan.frames} frames, ${pan.longTasks} long tasks)`,
  );
  console.log(
    `drag main thread      ${drag.busy_ms_per_move} ms per move (script ${drag.script_ms_per_move}, style+layout ${drag.layout_style_ms_per_move})`,
  );
  console.log(
    `pan main thread       ${pan.busy_ms_per_move} ms per move (script ${pan.script_ms_per_move}, style+layout ${pan.layout_style_ms_per_move})`,
  );
  console.log(
    `keystroke to node     p50 ${result.keystroke_to_node_ms.p50} ms  p95 ${result.keystroke_to_node_ms.p95} ms`,
  );
  console.log(
    `undo/redo (click to frame)  p50 ${result.undo_click_ms.p50} ms  max ${result.undo_click_ms.max} ms  (${undo.length} steps)`,
  );
  console.log(JSON.stringify(result));
} finally {
  await browser.close();
  api.kill('SIGTERM');
  await new Promise((r) => server.httpServer.close(r));
}
