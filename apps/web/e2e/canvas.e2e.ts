// The canvas as a builder meets it: each editor's own templates, a five-node template shown at a
// readable zoom from its start, nodes added by clicks placed beside the selection and linked to it, the
// auto-layout (undoable), and a failed node that shows its error and opens its run from anywhere on it.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  addFakeModel,
  addFakeProvider,
  addModel,
  apiAs,
  createChatbot,
  createWorkspaceInUi,
  launch,
  login,
  newPage,
  shot,
} from './browser';

const webUrl = inject('webUrl');
const apiUrl = inject('apiUrl');
const admin = inject('admin');
const fakeProviderUrl = (inject('fakeProviderUrl') ?? '').replace(/\/+$/, '');

let browser: Browser;
let page: Page;
let errors: string[];
let workspaceId: string | null = null;
const call: ReturnType<typeof apiAs> = (...args) => apiAs(page, apiUrl)(...args);

const createBot = (name: string, type: 'chatflow' | 'workflow') =>
  createChatbot(call, workspaceId!, name, type);

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Every node's box in flow coordinates, from the minimap: it draws them all, while the canvas draws only
 * the nodes in view.
 */
const flowBoxes = () =>
  page.locator('.react-flow__minimap-node').evaluateAll((els) =>
    els.map((el) => ({
      x: Number(el.getAttribute('x')),
      y: Number(el.getAttribute('y')),
      width: Number(el.getAttribute('width')),
      height: Number(el.getAttribute('height')),
    })),
  ) as Promise<Box[]>;

const count = async () => (await flowBoxes()).length;
const slow = { timeout: 30_000 };

const zoom = () =>
  page
    .locator('.react-flow__viewport')
    .evaluate((el) => new DOMMatrixReadOnly(getComputedStyle(el).transform).a);

function expectApart(boxes: Box[]) {
  for (const [i, p] of boxes.entries())
    for (const [j, q] of boxes.slice(i + 1).entries()) {
      const overlaps =
        p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height;
      expect(overlaps, `node ${i} on node ${i + 1 + j}: ${JSON.stringify([p, q])}`).toBe(false);
    }
}

beforeAll(async () => {
  if (inject('noBrowser')) return;
  browser = await launch();
  ({ page, errors } = await newPage(browser, { width: 1366, height: 768 }));
  await login(page, webUrl, admin.email, admin.password);
  workspaceId = await createWorkspaceInUi(page, 'Canvas lab');
  const brokenId = await addFakeProvider(call, workspaceId!, fakeProviderUrl, 'Broken AI');
  // The fake provider refuses this model name with a 401: the node fails.
  await addModel(call, workspaceId!, brokenId, { name: 'Locked model', model_name: 'fail-401' });
  await addFakeModel(call, workspaceId!, fakeProviderUrl, { provider: 'Fake AI', model: 'Fast model' });
});

afterAll(async () => {
  if (page && workspaceId) await call('DELETE', `/workspaces/${workspaceId}`).catch(() => undefined);
  await browser?.close();
});

describe.skipIf(inject('noBrowser'))('the canvas', () => {
  it("each editor's picker offers its own type's templates", async () => {
    const chatflow = await createBot('Only chatflows', 'chatflow');
    await page.goto(`${webUrl}/studio/chatflow/${chatflow}`);
    const picker = page.getByTestId('template-picker');
    await picker.getByTestId('template-simple-chatbot').waitFor();
    expect(await picker.getByTestId('template-document-indexing').count()).toBe(0);
    expect(await picker.locator('[data-testid^=template-]').count()).toBe(8);
    await page.keyboard.press('Escape');

    const workflow = await createBot('Only workflows', 'workflow');
    await page.goto(`${webUrl}/studio/workflow/${workflow}`);
    await picker.getByTestId('template-document-indexing').waitFor();
    expect(await picker.locator('[data-testid^=template-]').count()).toBe(2);
    expect(await picker.getByTestId('template-simple-chatbot').count()).toBe(0);
  });

  it('shows a five-node template at a readable zoom from its start, places clicked nodes, tidies up', async () => {
    const id = await createBot('Indexer', 'workflow');
    await page.goto(`${webUrl}/studio/workflow/${id}`);
    await page.getByTestId('template-document-indexing').click();
    await expect.poll(count, slow).toBe(5);
    // Readable: never below 75 %; the input, where the flow starts, is on screen.
    await expect.poll(zoom, slow).toBeGreaterThanOrEqual(0.75);
    const canvas = (await page.getByTestId('flow-canvas').boundingBox())!;
    await expect
      .poll(async () => {
        const input = await page.getByTestId('node-input_di01').boundingBox();
        return !!input && input.x >= canvas.x && input.x + input.width <= canvas.x + canvas.width;
      }, slow)
      .toBe(true);
    await shot(page, 'canvas-01-template-readable');

    // Reopening the saved flow fits it the same way.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Flow saved').first().waitFor();
    await page.reload();
    await page.getByTestId('node-input_di01').waitFor();
    await expect.poll(zoom, slow).toBeGreaterThanOrEqual(0.75);

    // Clicks on the palette: beside the selected node, not on top; linked when unambiguous.
    await page.getByTestId('node-input_di01').click();
    const edges = await page.locator('.react-flow__edge').count();
    await page.getByTestId('palette-llm').click();
    await expect.poll(count, slow).toBe(6);
    // The input already feeds the scraper: no second link from it.
    expect(await page.locator('.react-flow__edge').count()).toBe(edges);
    await page.getByTestId('palette-llm').click();
    await expect.poll(count, slow).toBe(7);
    await page.getByTestId('palette-text_tool').click();
    await expect.poll(count, slow).toBe(8);
    // The second LLM hangs off the first (its sole free output); the tool stays apart.
    await expect.poll(() => page.locator('.react-flow__edge').count(), slow).toBe(edges + 1);
    await expect.poll(async () => (await flowBoxes()).every((b) => b.width > 0), slow).toBe(true);
    expectApart(await flowBoxes());
    const [first, second] = await page
      .locator('[data-node-type=llm]')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().x));
    expect(second!).toBeGreaterThan(first!);
    await shot(page, 'canvas-02-placed');

    // Auto-layout: everything apart, one undo step.
    const before = JSON.stringify(await flowBoxes());
    await page.getByTestId('auto-layout').click();
    await expect.poll(async () => JSON.stringify(await flowBoxes()), slow).not.toBe(before);
    expectApart(await flowBoxes());
    await page.waitForTimeout(400);
    await shot(page, 'canvas-03-auto-layout');
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await expect.poll(async () => JSON.stringify(await flowBoxes()), slow).toBe(before);
    expect(errors).toEqual([]);
  });

  it('a failed node shows its error; clicking anywhere on it opens its run, naming the model', async () => {
    const id = await createBot('Locked out', 'chatflow');
    await page.goto(`${webUrl}/studio/chatflow/${id}`);
    await page.getByTestId('template-simple-chatbot').click();
    await page.getByTestId('node-llm_qs01').click();
    await page.getByTestId('inspector').getByLabel('Model *', { exact: true }).click();
    await page.getByRole('option', { name: 'Locked model · Broken AI' }).click();
    await page.getByRole('button', { name: 'Chat', exact: true }).click();
    const modal = page.getByRole('dialog');
    await modal.getByLabel('Message', { exact: true }).fill('hello');
    await modal.getByRole('button', { name: 'Send', exact: true }).click();
    await expect
      .poll(
        () => page.getByTestId('node-status-llm_qs01').locator('[data-status]').getAttribute('data-status'),
        slow,
      )
      .toBe('failed');
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });

    // The error is on the node, cut short, whole in its tooltip.
    const onNode = page.getByTestId('node-error-llm_qs01');
    await onNode.waitFor();
    const text = (await onNode.textContent())!;
    expect(text.length).toBeGreaterThan(3);
    expect(await onNode.getAttribute('title')).toBe(text);
    await shot(page, 'canvas-04-failed-node');

    // A click on the node's body (not its status sign) opens the execution.
    await page.getByTestId('flow-canvas').click({ position: { x: 5, y: 5 } });
    const node = page.getByTestId('node-llm_qs01');
    const box = (await node.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height - 8);
    const panel = page.getByTestId('execution-panel');
    await panel.waitFor();
    await panel.getByTestId('execution-model').waitFor();
    expect(await panel.getByTestId('execution-model').textContent()).toBe('Model: Locked model · Broken AI');
    // The node's label, then its id once.
    const panelText = (await panel.textContent())!;
    expect(panelText.split('llm_qs01').length - 1).toBe(1);
    await panel.getByRole('alert').first().waitFor();
    // The inspector has the error in full.
    expect(await page.getByTestId('inspector-run-error').textContent()).toContain(text.slice(0, 20));
    await shot(page, 'canvas-05-execution');
    expect(errors).toEqual([]);
  });
});
