// Work is never lost and the chat has its tools (issue 18): the simple editor asks before leaving and
// restores its draft, says "Unpublished changes"; a chat answer can be copied, rated, regenerated,
// shows highlighted code; the credits pill opens its details; an unknown address is a styled 404.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addFakeModel, apiAs, launch, login, newPage, shot } from './browser';

const webUrl = inject('webUrl');
const apiUrl = inject('apiUrl');
const admin = inject('admin');
const fakeProviderUrl = (inject('fakeProviderUrl') ?? '').replace(/\/+$/, '');
const BOT = `Tools bot ${Date.now()}`;

let browser: Browser;
let page: Page;
let errors: string[];
let workspaceId = '';
let botId = '';

const call: ReturnType<typeof apiAs> = (...args) => apiAs(page, apiUrl)(...args);

beforeAll(async () => {
  if (inject('noBrowser')) return;
  browser = await launch();
  ({ page, errors } = await newPage(browser, { width: 1366, height: 860 }));
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: webUrl });
  await login(page, webUrl, admin.email, admin.password);
  ({ workspace_id: workspaceId } = await call<{ workspace_id: string }>('POST', '/workspaces', {
    name: `Tools ${Date.now()}`,
  }));
  const modelId = await addFakeModel(call, workspaceId, fakeProviderUrl, { provider: 'Fake tools' });
  ({ id: botId } = await call<{ id: string }>('POST', '/chatbots', {
    workspace_id: workspaceId,
    name: BOT,
    type: 'simple',
  }));
  await call('PUT', `/chatbots/${botId}/simple/config`, { instruction: 'Be brief.', model_id: modelId });
  await call('POST', `/chatbots/${botId}/publish`);
});

afterAll(async () => {
  if (page && workspaceId) await call('DELETE', `/workspaces/${workspaceId}`).catch(() => undefined);
  await browser?.close();
});

describe.skipIf(inject('noBrowser'))('the simple editor never loses work', () => {
  it('asks before leaving, keeps a draft to restore, and says Unpublished changes after a save', async () => {
    await page.goto(`${webUrl}/studio/simple/${botId}`);
    const instruction = page.getByLabel('Instruction', { exact: true });
    await instruction.fill('Be brief. Answer in one line.');
    await page.getByRole('link', { name: 'Back to the studio' }).click();
    const guard = page.getByTestId('leave-guard');
    await guard.waitFor();
    await guard.getByRole('button', { name: 'Stay' }).click();
    expect(page.url()).toContain(`/studio/simple/${botId}`);
    await page.getByRole('link', { name: 'Back to the studio' }).click();
    await guard.getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL(/\/studio$/);

    await page.goto(`${webUrl}/studio/simple/${botId}`);
    const banner = page.getByTestId('draft-banner');
    await banner.waitFor();
    await shot(page, 'simple-editor-draft-1366');
    await banner.getByRole('button', { name: 'Restore' }).click();
    expect(await instruction.inputValue()).toBe('Be brief. Answer in one line.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('unpublished-changes').waitFor();
    // Saved: the next visit offers no draft, and leaving asks nothing.
    await page.reload();
    await page.getByTestId('unpublished-changes').waitFor();
    expect(await page.getByTestId('draft-banner').count()).toBe(0);
    await page.getByRole('button', { name: 'Save & Publish' }).click();
    await page.getByText('Saved and published.').waitFor();
    await expect.poll(() => page.getByTestId('unpublished-changes').count()).toBe(0);
    await page.getByRole('link', { name: 'Back to the studio' }).click();
    await page.waitForURL(/\/studio$/);
  });
});

describe.skipIf(inject('noBrowser'))('the chat has its tools', () => {
  const answer = () => page.getByTestId('assistant-message').last();

  it('shows highlighted code with copy, copies a message, and rates an answer (kept on reload)', async () => {
    await page.goto(`${webUrl}/chat`);
    await page.getByRole('button', { name: `New conversation with ${BOT}` }).click();
    const box = page.getByLabel('Message', { exact: true });
    // fill, not typing: a typed newline is Enter, which sends.
    await box.fill('code:\n```js\nconst answer = 42;\n```');
    await box.press('Enter');
    await expect.poll(() => answer().getAttribute('data-state'), { timeout: 30_000 }).toBe('done');
    const code = answer().getByTestId('code-block');
    await code.locator('.hljs-keyword').first().waitFor();
    await code.getByRole('button', { name: 'Copy code' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('const answer = 42;');
    await answer().getByRole('button', { name: 'Copy message' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^Echo: code:/);

    const good = answer().getByRole('button', { name: 'Good answer' });
    await good.click();
    await expect.poll(() => good.getAttribute('aria-pressed')).toBe('true');
    await page.reload();
    await expect
      .poll(() => answer().getByRole('button', { name: 'Good answer' }).getAttribute('aria-pressed'))
      .toBe('true');
    await shot(page, 'chat-tools-1366');
  });

  it('regenerates the last answer without storing the question twice', async () => {
    const before = await page.getByTestId('user-message').count();
    await answer().getByRole('button', { name: 'Regenerate the answer' }).click();
    await expect.poll(() => answer().getAttribute('data-state'), { timeout: 30_000 }).toBe('done');
    expect(await page.getByTestId('user-message').count()).toBe(before);
    const { conversations } = await call<{ conversations: { id: string; chatbot_id: string }[] }>(
      'GET',
      '/chat-interface/conversations',
    );
    const mine = conversations.find((c) => c.chatbot_id === botId)!;
    const { history } = await call<{ history: { role: string }[] }>(
      'GET',
      `/chat-interface/conversations/${mine.id}/history`,
    );
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant']);
    await page.getByTestId('conversation-time').first().waitFor();
  });

  it('offers to scroll to the latest when the reader scrolled up', async () => {
    await page.setViewportSize({ width: 390, height: 700 });
    const box = page.getByLabel('Message', { exact: true });
    for (const n of [1, 2, 3]) {
      await box.fill(`line ${n}\n${'more text to fill the screen '.repeat(12)}`);
      await box.press('Enter');
      await expect.poll(() => answer().getAttribute('data-state'), { timeout: 30_000 }).toBe('done');
    }
    await page.getByTestId('message-scroller').evaluate((el) => el.scrollTo({ top: 0 }));
    const latest = page.getByTestId('scroll-latest');
    await latest.waitFor();
    await shot(page, 'chat-tools-390');
    await latest.click();
    await latest.waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 1366, height: 860 });
    // A long preview is cut inside the sidebar: the item's time and its menu stay within the list.
    // (the sidebar slides back in at this width)
    await expect
      .poll(async () => (await page.getByTestId('conversation-list').boundingBox())?.x ?? -1)
      .toBeGreaterThanOrEqual(0);
    const item = page.getByTestId('conversation-item').first();
    expect(await item.getByTestId('conversation-preview').textContent()).toMatch(/more text/);
    for (const part of [item.getByTestId('conversation-time'), item.locator('button').last()]) {
      // Measured together, the list and the part, until the slide has settled: how far the part
      // reaches past the list's right edge (a few pixels of slack for the list's scrollbar and
      // rounding; the bug overflowed by hundreds).
      const overflow = async () => {
        const list = (await page.getByTestId('conversation-list').boundingBox())!;
        const box = (await part.boundingBox())!;
        return box.x + box.width - (list.x + list.width);
      };
      await expect.poll(overflow).toBeLessThanOrEqual(4);
    }
  });
});

describe.skipIf(inject('noBrowser'))('small things', () => {
  it('the credits pill opens its details; an unknown address is a styled 404', async () => {
    await page.setViewportSize({ width: 1366, height: 860 });
    await page.goto(`${webUrl}/studio`);
    await page.getByTestId('credits-indicator').click();
    const details = page.getByTestId('credits-details');
    await details.waitFor();
    for (const label of ['Total available', 'Left this month', 'Daily average', 'Estimated runway']) {
      await details.getByText(label, { exact: true }).waitFor();
    }
    await expect.poll(() => details.textContent()).toMatch(/\d+ days?|No recent usage/);
    await shot(page, 'credits-details-1366');
    await page.keyboard.press('Escape');

    await page.goto(`${webUrl}/no-such-page`);
    await page.getByTestId('not-found-page').waitFor();
    await page.getByRole('link', { name: 'Go to Home' }).waitFor();
    await shot(page, 'not-found-1366');
    expect(errors).toEqual([]);
  });
});
