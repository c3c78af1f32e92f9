// The analytics page on real logs: a simple chatbot on the fake provider answers three questions
// through the chat API, then the four tabs, a filter, the details drawer and the export are used.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addFakeModel, apiAs, createWorkspaceInUi, launch, login, newPage, shot } from './browser';

const webUrl = inject('webUrl');
const apiUrl = inject('apiUrl');
const admin = inject('admin');
const fakeProviderUrl = (inject('fakeProviderUrl') ?? '').replace(/\/+$/, '');
const QUESTIONS = ['How do I reset my password?', 'Where is my invoice?', 'Can I change my plan?'];

let browser: Browser;
let page: Page;
let errors: string[];
let workspaceId: string | null = null;

beforeAll(async () => {
  if (inject('noBrowser')) return;
  browser = await launch();
  ({ page, errors } = await newPage(browser, { width: 1366, height: 900 }));
});
afterAll(async () => {
  if (page && workspaceId)
    await apiAs(page, apiUrl)('DELETE', `/workspaces/${workspaceId}`).catch(() => undefined);
  await browser?.close();
});

/** A published simple chatbot on the fake provider, asked the questions through the chat API. */
async function seedConversations() {
  const call = apiAs(page, apiUrl);
  const modelId = await addFakeModel(call, workspaceId!, fakeProviderUrl, { provider: 'Fake AI' });
  const { id } = await call<{ id: string }>('POST', '/chatbots', {
    workspace_id: workspaceId,
    name: 'Support bot',
    type: 'simple',
  });
  await call('PUT', `/chatbots/${id}/simple/config`, { instruction: 'Be brief.', model_id: modelId });
  await call('POST', `/chatbots/${id}/publish`);
  const { conversation_id } = await call<{ conversation_id: string }>(
    'POST',
    '/chat-interface/conversations',
    {
      title: 'Questions',
      chatbot_id: id,
    },
  );
  const token = await page.evaluate(() => localStorage.getItem('access_token'));
  const history: { role: string; content: string }[] = [];
  for (const question of QUESTIONS) {
    history.push({ role: 'user', content: question });
    const res = await fetch(`${apiUrl}/chat-interface/conversations/${conversation_id}/simple/message`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: history }),
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('Echo');
    history.push({ role: 'assistant', content: 'ok' });
  }
}

const tab = (index: number) => page.getByRole('tab').nth(index);

describe.skipIf(inject('noBrowser'))('the analytics page in a browser', () => {
  it('shows the overview, performance and engagement of real conversations', async () => {
    await login(page, webUrl, admin.email, admin.password);
    workspaceId = await createWorkspaceInUi(page, 'Analytics lab');
    expect(workspaceId).toBeTruthy();
    await seedConversations();

    await page.goto(`${webUrl}/analytics`);
    await page.getByRole('heading', { name: 'Analytics' }).waitFor();
    const overview = page.getByTestId('overview-tab');
    await overview.getByTestId('chart-volume').locator('svg.recharts-surface').first().waitFor();
    expect(await overview.getByText('Requests', { exact: true }).count()).toBeGreaterThan(0);
    for (const chart of ['chart-hourly', 'chart-response-time', 'chart-top-chatbots', 'chart-daily-users']) {
      await overview.getByTestId(chart).locator('svg.recharts-surface').first().waitFor();
    }
    await overview.getByTestId('chart-top-chatbots').getByText('Support bot').waitFor();
    // Three calls: the first stat card counts them.
    expect(await overview.locator('p.text-2xl').first().textContent()).toBe('3');

    await page.getByRole('button', { name: 'Last 3 months' }).click();
    expect(await page.getByRole('button', { name: 'Last 3 months' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await page.getByRole('button', { name: 'Last week' }).click();

    await tab(1).click();
    const performance = page.getByTestId('performance-tab');
    await performance.getByText('Latency percentiles').waitFor();
    await performance.getByRole('cell', { name: 'gpt-4o-mini' }).first().waitFor();

    await tab(2).click();
    const engagement = page.getByTestId('engagement-tab');
    await engagement.getByTestId('chart-activity').locator('svg.recharts-surface').first().waitFor();
    expect(await engagement.locator('p.text-2xl').first().textContent()).toBe('1');
  });

  it('lists the logs, filters them and opens one in the drawer', async () => {
    await tab(3).click();
    const table = page.getByTestId('logs-table');
    await table.waitFor();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(3);

    await page.getByRole('textbox', { name: 'Search messages, errors…' }).fill('invoice');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    await table.locator('tbody tr').first().click();
    const drawer = page.getByTestId('log-drawer');
    await drawer.getByText('Log details').waitFor();
    await drawer.getByText('Where is my invoice?', { exact: true }).waitFor();
    await drawer.getByText(/Echo/).first().waitFor();
    await shot(page, 'analytics-drawer');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });

    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Error', exact: true }).click();
    await page.getByText('No logs match').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(3);
  });

  it('exports the logs as CSV, and says so when the export fails', async () => {
    await page.getByRole('button', { name: 'Export' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^inference-logs-.+\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.split('\n')[0]).toMatch(/^timestamp,chatbot,user,model,/);
    // One record per call (the prompts hold quoted line breaks, so records are counted by their start).
    expect(csv.match(/^\d{4}-\d{2}-\d{2}T[^,]+Z,Support bot,/gm)).toHaveLength(3);
    for (const question of QUESTIONS) expect(csv).toContain(question);

    await page.route('**/analytics/logs/export**', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"detail":"boom","code":"x"}' }),
    );
    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByRole('menuitem', { name: 'JSON lines' }).click();
    await page.getByText('Failed to export logs. Please try again.').waitFor();
    await page.unroute('**/analytics/logs/export**');
    expect(errors).toEqual([]);
  });

  it('looks right in both themes and languages, wide and at 390 px', async () => {
    const names = ['overview', 'performance', 'engagement', 'logs'];
    for (const language of ['en', 'fr']) {
      for (const theme of ['light', 'dark']) {
        await page.evaluate(
          ([l, th]) => {
            localStorage.setItem('atelier-language', l!);
            localStorage.setItem('atelier-theme', th!);
          },
          [language, theme],
        );
        for (const width of [1366, 390]) {
          await page.setViewportSize({ width, height: 900 });
          await page.goto(`${webUrl}/analytics`);
          for (const [i, name] of names.entries()) {
            await tab(i).click();
            await page.getByTestId(`${name}-tab`).waitFor();
            await page.waitForTimeout(400);
            await shot(page, `analytics-${name}-${width}-${theme}-${language}`);
          }
          // Nothing wider than the window at 390 px: the page scrolls only downwards.
          const wider = await page.evaluate(() =>
            [...document.querySelectorAll('body *')]
              .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
              .filter(
                (e) => !e.parentElement?.closest('[class*="overflow-x-auto"], [class*="overflow-auto"]'),
              )
              .map((e) => `${e.tagName.toLowerCase()}.${String(e.getAttribute('class')).slice(0, 60)}`)
              .slice(-3),
          );
          expect(wider, `${language} ${theme} ${width}`).toEqual([]);
        }
      }
    }
    await page.evaluate(() => localStorage.setItem('atelier-language', 'en'));
    expect(errors).toEqual([]);
  }, 240_000); // 32 screenshots in 8 page loads
});
