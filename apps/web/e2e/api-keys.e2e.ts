import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addFakeModel, apiAs, createWorkspaceInUi, launch, login, newPage, shot } from './browser';

const webUrl = inject('webUrl');
const apiUrl = inject('apiUrl');
const admin = inject('admin');
const fakeProviderUrl = (inject('fakeProviderUrl') ?? '').replace(/\/+$/, '');
const BOT = 'Helpdesk bot';
const FLOW = 'Report workflow';

const studio = (lang: 'en' | 'fr') =>
  (
    JSON.parse(readFileSync(new URL(`../src/i18n/locales/${lang}.studio.json`, import.meta.url), 'utf8')) as {
      studio: { actions: { more: string; integration: string } };
    }
  ).studio.actions;

let browser: Browser;
let page: Page;
let errors: string[];
let workspaceId: string | null = null;
let botId = '';
const call: ReturnType<typeof apiAs> = (...args) => apiAs(page, apiUrl)(...args);

/** Opens a chatbot's integration guide from its card's menu, in the page's language. */
async function openGuide(on: Page, name: string, lang: 'en' | 'fr' = 'en') {
  const labels = studio(lang);
  const card = on.getByTestId('chatbot-card').filter({ has: on.getByRole('heading', { name, exact: true }) });
  await card.getByRole('button', { name: labels.more.replace('{{name}}', name) }).click();
  await on.getByRole('menuitem', { name: labels.integration, exact: true }).click();
  const dialog = on.getByRole('dialog');
  await dialog.waitFor();
  return dialog;
}

const models = (key: string) => fetch(`${apiUrl}/v1/models`, { headers: { authorization: `Bearer ${key}` } });

beforeAll(async () => {
  if (inject('noBrowser')) return;
  browser = await launch();
  ({ page, errors } = await newPage(browser, { width: 1366 }));
});
afterAll(async () => {
  if (page && workspaceId) await call('DELETE', `/workspaces/${workspaceId}`).catch(() => undefined);
  await browser?.close();
});

describe.skipIf(inject('noBrowser'))('API keys and the integration guide in a browser', () => {
  it('prepares a published chatbot and a workflow', async () => {
    await login(page, webUrl, admin.email, admin.password);
    workspaceId = await createWorkspaceInUi(page, 'Integrations');
    const modelId = await addFakeModel(call, workspaceId!, fakeProviderUrl, { provider: 'Fake' });
    ({ id: botId } = await call<{ id: string }>('POST', '/chatbots', {
      workspace_id: workspaceId,
      name: BOT,
      type: 'simple',
    }));
    await call('PUT', `/chatbots/${botId}/simple/config`, { instruction: 'Help.', model_id: modelId });
    await call('POST', `/chatbots/${botId}/publish`);
    await call('POST', '/chatbots', { workspace_id: workspaceId, name: FLOW, type: 'workflow' });
    await page.goto(`${webUrl}/studio`);
    await page.getByRole('heading', { name: BOT, exact: true }).waitFor();
  });

  it('creates a key, shown once; it works; revoking it after confirmation refuses it', async () => {
    const dialog = await openGuide(page, BOT);
    await dialog.getByText('No API keys yet').waitFor();
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const create = page.getByRole('dialog', { name: 'Create an API key' });
    await create.getByLabel('Name').fill('Website widget');
    await create.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    await shown.getByText('it will not be shown again').waitFor();
    const key = (await shown.locator('pre code').textContent())!.trim();
    expect(key).toMatch(/^atl_[A-Za-z0-9_-]{43}$/);
    await shot(page, 'api-key-created');
    expect((await models(key)).status).toBe(200);
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });

    const row = dialog.getByTestId('api-key').filter({ hasText: 'Website widget' });
    await row.waitFor();
    expect(await row.textContent()).toContain(`${key.slice(0, 12)}…`);
    expect(await page.content()).not.toContain(key);
    expect(await dialog.textContent()).toContain(`${apiUrl}/v1/chat/completions`);
    await dialog.getByRole('tab', { name: 'JavaScript' }).click();
    expect(await dialog.textContent()).toContain("import OpenAI from 'openai'");
    expect(await dialog.textContent()).toContain(`model: '${botId}'`);
    await shot(page, 'api-keys-guide');

    await row.getByRole('button', { name: 'Revoke the key Website widget' }).click();
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.textContent()).toContain('stop working at once');
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('The key Website widget has been revoked.').waitFor();
    await dialog.getByText('No API keys yet').waitFor();
    expect((await models(key)).status).toBe(401);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('shows a workflow its own calls, never the simple chat one', async () => {
    const dialog = await openGuide(page, FLOW);
    await dialog.getByText('No API keys yet').waitFor();
    const text = (await dialog.textContent())!;
    expect(text).toContain(`${apiUrl}/v1/workflows/runs`);
    expect(text).not.toContain('/chat-interface/');
    await dialog.getByRole('tab', { name: 'Python' }).click();
    expect(await dialog.textContent()).toContain('from openai import OpenAI');
    await page.keyboard.press('Escape');
    expect(errors).toEqual([]);
  });

  it('looks right at 1366 and 390 px, light and dark, in English and French', async () => {
    await call('POST', `/chatbots/${botId}/api_keys`, { name: 'Mobile app' });
    for (const width of [1366, 390]) {
      for (const scheme of ['light', 'dark'] as const) {
        for (const lang of ['en', 'fr'] as const) {
          const context = await browser.newContext({
            viewport: { width, height: width > 500 ? 900 : 844 },
            colorScheme: scheme,
            locale: lang === 'fr' ? 'fr-FR' : 'en-US',
          });
          await context.addInitScript((l) => localStorage.setItem('atelier-language', l), lang);
          // A new browser starts on the first of the admin's workspaces: start on this test's one.
          await context.addInitScript((id) => {
            if (!localStorage.getItem('atelier-store')) {
              localStorage.setItem(
                'atelier-store',
                JSON.stringify({ state: { selectedWorkspaceId: id }, version: 1 }),
              );
            }
          }, workspaceId);
          const view = await context.newPage();
          const seen: string[] = [];
          view.on('pageerror', (e) => seen.push(e.message));
          await view.goto(`${webUrl}/login`);
          await view.locator('input[type=email]').fill(admin.email);
          await view.locator('input[type=password]').fill(admin.password);
          await view.locator('button[type=submit]').click();
          await view.waitForURL((url) => !url.pathname.startsWith('/login'));
          await view.goto(`${webUrl}/studio`);
          await view.getByRole('heading', { name: BOT, exact: true }).waitFor();
          const dialog = await openGuide(view, BOT, lang);
          await dialog.getByTestId('api-key').first().waitFor();
          const name = `${width}-${scheme}-${lang}`;
          await shot(view, `api-keys-guide-${name}`);
          await dialog.getByRole('button', { name: lang === 'fr' ? 'Créer une clé' : 'Create key' }).click();
          await view.getByRole('dialog').getByRole('textbox').fill('Screenshot');
          await view.locator('form button[type=submit]').click();
          await view.locator('[role=dialog] pre code').filter({ hasText: 'atl_' }).waitFor();
          await shot(view, `api-key-created-${name}`);
          expect(await view.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
          expect(seen).toEqual([]);
          await context.close();
        }
      }
    }
  }, 180_000); // eight browsers, each logging in
});
