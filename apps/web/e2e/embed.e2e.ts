import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { addFakeModel, apiAs, createWorkspaceInUi, launch, login, newPage, shot } from './browser';

const webUrl = inject('webUrl');
const apiUrl = inject('apiUrl');
const admin = inject('admin');
const fakeProviderUrl = (inject('fakeProviderUrl') ?? '').replace(/\/+$/, '');
const BOT = 'Shop assistant';

type Lang = 'en' | 'fr';
const actions = (lang: Lang) =>
  (
    JSON.parse(readFileSync(new URL(`../src/i18n/locales/${lang}.studio.json`, import.meta.url), 'utf8')) as {
      studio: { actions: { more: string; embed: string } };
    }
  ).studio.actions;

let browser: Browser;
let page: Page;
let errors: string[];
let workspaceId: string | null = null;
let botId = '';
let token = '';
/** A site on another origin (another port) that includes the script tag. */
let site: Server;
let siteOrigin = '';
const call: ReturnType<typeof apiAs> = (...args) => apiAs(page, apiUrl)(...args);

function startSite(): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    const lang = url.searchParams.get('lang') ?? 'en';
    const theme = url.searchParams.get('theme') ?? 'light';
    const bg = theme === 'dark' ? '#0b0c10' : '#f6f4ef';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Corner shop</title></head>
<body style="margin:0;font-family:sans-serif;background:${bg};color:${theme === 'dark' ? '#eee' : '#222'}">
<header style="padding:16px 24px;border-bottom:1px solid #8884"><strong>Corner shop</strong></header>
<main style="padding:24px"><h1>Spring collection</h1><p>Hand-made goods, shipped in two days.</p></main>
<script src="${apiUrl}/embed.js" data-token="${url.searchParams.get('token') ?? token}" data-lang="${lang}" data-theme="${theme}" async></script>
</body></html>`);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function openSite(lang: Lang, theme: 'light' | 'dark', width: number) {
  await page.setViewportSize({ width, height: width < 500 ? 780 : 800 });
  await page.goto(`${siteOrigin}/?lang=${lang}&theme=${theme}`);
  const bubble = page.locator('[data-atelier-embed=bubble]');
  await bubble.click();
  const chat = page.frameLocator('[data-atelier-embed=panel] iframe');
  await chat.locator('header').waitFor();
  return chat;
}

beforeAll(async () => {
  if (inject('noBrowser')) return;
  browser = await launch();
  ({ page, errors } = await newPage(browser, { width: 1366 }));
  site = await startSite();
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterEach(async (context) => {
  if (context.task.result?.state === 'fail' && page) await shot(page, `embed-failed-${context.task.id}`);
});
afterAll(async () => {
  if (page && workspaceId) await call('DELETE', `/workspaces/${workspaceId}`).catch(() => undefined);
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
});

describe.skipIf(inject('noBrowser'))('the embeddable chat on another site', () => {
  it('prepares a published chatbot with the embed on for the site', async () => {
    await login(page, webUrl, admin.email, admin.password);
    workspaceId = await createWorkspaceInUi(page, 'Embeds');
    const modelId = await addFakeModel(call, workspaceId!, fakeProviderUrl, { provider: 'Fake' });
    ({ id: botId } = await call<{ id: string }>('POST', '/chatbots', {
      workspace_id: workspaceId,
      name: BOT,
      type: 'simple',
    }));
    await call('PUT', `/chatbots/${botId}/simple/config`, { instruction: 'Help.', model_id: modelId });
    await call('POST', `/chatbots/${botId}/publish`, {});
    const { embed } = await call<{ embed: { token: string } }>('PUT', `/chatbots/${botId}/embed`, {
      enabled: true,
      allowed_origins: [siteOrigin],
    });
    token = embed.token;
  });

  it('the bubble opens the chat, which streams the answer from the model', async () => {
    const chat = await openSite('en', 'light', 1366);
    await chat.getByText('Hello! How can I help you?').waitFor();
    const box = chat.getByRole('textbox', { name: 'Write your message…' });
    await box.fill('Do you ship **abroad**? See https://example.com/shipping');
    await box.press('Enter');
    const answer = chat.locator('[data-role=assistant]').last();
    await answer.getByText('Echo: Do you ship').waitFor();
    // Markdown rendered as elements, links opening elsewhere without the opener.
    await expect.poll(() => answer.locator('strong').textContent()).toBe('abroad');
    expect(await answer.locator('a').getAttribute('rel')).toContain('noopener');
    await expect.poll(() => chat.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    await shot(page, 'embed-panel-1366-light-en');

    // The conversation is the browser's: it comes back after a reload.
    const again = await openSite('en', 'light', 1366);
    await again.getByText('Echo: Do you ship').waitFor();
    expect(errors).toEqual([]);
  });

  it('looks right at 1366 and 390 px, light and dark, English and French', async () => {
    for (const lang of ['en', 'fr'] as const) {
      for (const theme of ['light', 'dark'] as const) {
        for (const width of [1366, 390]) {
          await page.evaluate(() => localStorage.clear()).catch(() => undefined);
          const chat = await openSite(lang, theme, width);
          const box = chat.getByRole('textbox');
          await box.fill(lang === 'fr' ? 'Livrez-vous en **Belgique** ?' : 'Can I return an item?');
          await box.press('Enter');
          await chat
            .getByText(/^Echo: /)
            .last()
            .waitFor();
          await chat.getByRole('button', { name: lang === 'fr' ? 'Envoyer' : 'Send' }).waitFor();
          await shot(page, `embed-panel-${width}-${theme}-${lang}`);
        }
      }
    }
    // The bubble alone, closed.
    await page.setViewportSize({ width: 390, height: 780 });
    await page.goto(`${siteOrigin}/?lang=en&theme=light`);
    await page.locator('[data-atelier-embed=bubble]').waitFor();
    await shot(page, 'embed-bubble-390-light-en');
  });

  it('a turned-off chat says so in the widget; the close button closes the panel', async () => {
    await page.goto(`${webUrl}/`);
    await call('PUT', `/chatbots/${botId}/embed`, { enabled: false });
    const chat = await openSite('fr', 'light', 1366);
    await chat.getByText('Cette discussion est désactivée pour le moment.').waitFor();
    await shot(page, 'embed-disabled-1366-light-fr');
    await chat.getByRole('button', { name: 'Fermer la discussion' }).click();
    await expect.poll(() => page.locator('[data-atelier-embed=panel]').isVisible()).toBe(false);
    await page.goto(`${webUrl}/`);
    await call('PUT', `/chatbots/${botId}/embed`, { enabled: true });
  });

  it("the Studio's embed guide shows the snippets, origins and token, in both languages and themes", async () => {
    await page.goto(`${webUrl}/studio`);
    for (const lang of ['en', 'fr'] as const) {
      for (const theme of ['light', 'dark'] as const) {
        for (const width of [1366, 390]) {
          await page.evaluate(
            ([l, th]) => {
              localStorage.setItem('atelier-language', l!);
              localStorage.setItem('atelier-theme', th!);
            },
            [lang, theme],
          );
          await page.setViewportSize({ width, height: 900 });
          await page.goto(`${webUrl}/studio`);
          const labels = actions(lang);
          const card = page
            .getByTestId('chatbot-card')
            .filter({ has: page.getByRole('heading', { name: BOT, exact: true }) });
          await card.getByRole('button', { name: labels.more.replace('{{name}}', BOT) }).click();
          await page.getByRole('menuitem', { name: labels.embed, exact: true }).click();
          const guide = page.getByTestId('embed-guide');
          await guide.waitFor();
          expect(await guide.getByTestId('embed-token').textContent()).toBe(token);
          await guide.getByText(`data-token="${token}"`).waitFor();
          await guide.getByText(siteOrigin).waitFor();
          await shot(page, `embed-guide-${width}-${theme}-${lang}`);
          await page.keyboard.press('Escape');
        }
      }
    }
    await page.evaluate(() => {
      localStorage.setItem('atelier-language', 'en');
      localStorage.setItem('atelier-theme', 'light');
    });
  });

  it('regenerates the token after confirmation; the old one stops working', async () => {
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${webUrl}/studio`);
    const labels = actions('en');
    const card = page
      .getByTestId('chatbot-card')
      .filter({ has: page.getByRole('heading', { name: BOT, exact: true }) });
    await card.getByRole('button', { name: labels.more.replace('{{name}}', BOT) }).click();
    await page.getByRole('menuitem', { name: labels.embed, exact: true }).click();
    const guide = page.getByTestId('embed-guide');
    await guide.getByRole('textbox', { name: 'Allowed sites (origins)' }).fill('shop.example.com/path');
    await guide.getByRole('button', { name: 'Add' }).click();
    await guide.getByText('Write an origin like https://shop.example.com').waitFor();
    await guide.getByRole('button', { name: 'Regenerate' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Regenerate the token' }).click();
    await expect.poll(() => guide.getByTestId('embed-token').textContent()).not.toBe(token);
    const old = await fetch(`${apiUrl}/embed/${token}/config?user=browser-e2e-1`);
    expect(old.status).toBe(404);
    expect(errors).toEqual([]);
  });
});
