// Every page at a phone's width (390 px) as an admin, in English (light) and French (dark): the page
// never scrolls sideways, and the primary actions (Create user, Chat/Run, Save, Publish) are on screen.
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addFakeModel, apiAs, createWorkspaceInUi, launch, login, newPage, SCREENSHOTS } from './browser';

const webUrl = inject('webUrl');
const apiUrl = inject('apiUrl');
const admin = inject('admin');
const fakeProviderUrl = (inject('fakeProviderUrl') ?? '').replace(/\/+$/, '');
const PHONE = { width: 390, height: 844 };

type Texts = Record<string, Record<string, Record<string, string>>>;
const locale = (file: string) =>
  JSON.parse(readFileSync(new URL(`../src/i18n/locales/${file}`, import.meta.url), 'utf8')) as Texts;
const TEXTS = {
  en: { main: locale('en.json'), flow: locale('en.flow.json') },
  fr: { main: locale('fr.json'), flow: locale('fr.flow.json') },
};

let browser: Browser;
let setup: Page;
let workspaceId: string | null = null;
const ids = { simple: '', chatflow: '', workflow: '', collection: '' };

/** The page's width beyond the screen, in px (0 when nothing scrolls sideways). */
const sideways = (page: Page) =>
  page.evaluate(() => {
    const root = document.scrollingElement!;
    return root.scrollWidth - root.clientWidth;
  });

/** What sticks out on the right of the screen, to say why a page scrolls. */
const culprits = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .filter((el) => !el.closest('[data-testid=flow-canvas]'))
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)}`),
  );

/** The button is drawn wholly inside the screen. */
async function onScreen(page: Page, name: string, screen = PHONE) {
  const button = page.getByRole('button', { name, exact: true }).first();
  await button.waitFor();
  const box = (await button.boundingBox())!;
  expect(box, name).not.toBeNull();
  expect(box.x, name).toBeGreaterThanOrEqual(0);
  expect(box.y, name).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, name).toBeLessThanOrEqual(screen.width);
  expect(box.y + box.height, name).toBeLessThanOrEqual(screen.height);
}

beforeAll(async () => {
  if (inject('noBrowser')) return;
  browser = await launch();
  ({ page: setup } = await newPage(browser, { width: 1366 }));
  await login(setup, webUrl, admin.email, admin.password);
  const call = apiAs(setup, apiUrl);
  workspaceId = await createWorkspaceInUi(setup, 'Phone lab');
  const llm = await addFakeModel(call, workspaceId!, fakeProviderUrl, { provider: 'Fake AI', model: 'Fast' });
  const providers = await call<{ providers: { id: string }[] }>(
    'GET',
    `/providers?workspace_id=${workspaceId}`,
  );
  const { model_id: embeddings } = await call<{ model_id: string }>('POST', '/models', {
    workspace_id: workspaceId,
    provider_id: providers.providers[0]!.id,
    name: 'Fake embeddings with a long name for a narrow table',
    model_name: 'text-embedding-3-small',
    model_type: 'text-embeddings',
  });
  const bot = async (name: string, type: string) =>
    (await call<{ id: string }>('POST', '/chatbots', { workspace_id: workspaceId, name, type })).id;
  ids.simple = await bot('A simple assistant with a rather long name', 'simple');
  ids.chatflow = await bot('Support answers on the phone', 'chatflow');
  ids.workflow = await bot('Forecast router on the phone', 'workflow');
  await call('PUT', `/chatbots/${ids.simple}/simple/config`, { instruction: 'Be brief.', model_id: llm });
  await call('POST', `/chatbots/${ids.simple}/publish`);
  ({ id: ids.collection } = await call<{ id: string }>('POST', '/rag_collections', {
    workspace_id: workspaceId,
    name: 'Handbook',
    embeddings_model_id: embeddings,
  }));
  // One answer, so that the analytics logs have a row.
  const { conversation_id } = await call<{ conversation_id: string }>(
    'POST',
    '/chat-interface/conversations',
    { title: 'Phone question', chatbot_id: ids.simple },
  );
  const token = await setup.evaluate(() => localStorage.getItem('access_token'));
  const res = await fetch(`${apiUrl}/chat-interface/conversations/${conversation_id}/simple/message`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content: 'Hello from a phone' }] }),
  });
  await res.text();
  // The flows get their templates, so that the editors show nodes.
  for (const [type, template] of [
    ['chatflow', 'qa-chatbot'],
    ['workflow', 'document-indexing'],
  ] as const) {
    await setup.goto(`${webUrl}/studio/${type}/${ids[type]}`);
    await setup.getByTestId(`template-${template}`).click();
    await setup.getByRole('button', { name: 'Save', exact: true }).click();
    await setup.getByText('Flow saved').first().waitFor();
  }
});

afterAll(async () => {
  if (setup && workspaceId)
    await apiAs(setup, apiUrl)('DELETE', `/workspaces/${workspaceId}`).catch(() => undefined);
  await browser?.close();
});

/** Each route, what shows it is drawn, and its primary actions. */
function routes(lang: 'en' | 'fr') {
  const { main, flow } = TEXTS[lang];
  const bar = flow.flow!.toolbar!;
  return [
    { path: '/', ready: 'main' },
    { path: '/providers', ready: '[data-testid=models-table], main h1' },
    { path: '/knowledges', ready: 'main h1' },
    // The wizard's first two steps (the second holds the longest choices: its model pickers).
    { path: '/knowledges/collections/create', ready: 'main h1', next: main.common!.next! },
    { path: `/knowledges/collections/edit/${ids.collection}`, ready: 'main h1' },
    { path: '/studio', ready: 'main h1' },
    { path: `/studio/simple/${ids.simple}`, ready: 'main form, main h1' },
    {
      path: `/studio/chatflow/${ids.chatflow}`,
      ready: '.react-flow__node',
      actions: [bar.chat!, bar.save!, bar.publish!],
    },
    {
      path: `/studio/workflow/${ids.workflow}`,
      ready: '.react-flow__node',
      actions: [bar.run!, bar.save!, bar.publish!],
    },
    { path: '/analytics', ready: 'main h1', tabs: true },
    { path: '/chat', ready: 'main, [data-testid=chat-page], textarea' },
    { path: '/admin/users', ready: 'main h1', actions: [main.admin!.users!.create!] },
    { path: '/forbidden', ready: 'h1' },
    { path: '/no-such-page', ready: 'h1' },
  ] as { path: string; ready: string; actions?: string[]; tabs?: boolean; next?: string }[];
}

async function phone(
  lang: 'en' | 'fr',
  dark: boolean,
  viewport = PHONE,
): Promise<{ context: BrowserContext; page: Page }> {
  const mobile = viewport.width < 768;
  const context = await browser.newContext({
    viewport,
    locale: lang === 'fr' ? 'fr-FR' : 'en-US',
    colorScheme: dark ? 'dark' : 'light',
    storageState: await setup.context().storageState(),
    hasTouch: mobile,
    isMobile: mobile,
  });
  await context.addInitScript((l) => localStorage.setItem('atelier-language', l), lang);
  return { context, page: await context.newPage() };
}

/** What is wrong with the page shown, added to `problems` (every page is walked, then all are told). */
async function check(page: Page, name: string, problems: string[]) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  const over = await sideways(page);
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png` });
  if (over > 0) problems.push(`${name} scrolls sideways by ${over}px: ${(await culprits(page)).join(', ')}`);
}

describe.skipIf(inject('noBrowser'))('every page at 390 px', () => {
  for (const [lang, dark] of [
    ['en', false],
    ['fr', true],
  ] as const) {
    it(`${lang}, ${dark ? 'dark' : 'light'}: no page scrolls sideways, primary actions on screen`, async () => {
      const { context, page } = await phone(lang, dark);
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
      try {
        for (const route of routes(lang)) {
          await page.goto(`${webUrl}${route.path}`);
          await page.locator(route.ready).first().waitFor();
          const name = `phone-${lang}${route.path.replace(/[^a-z0-9]+/gi, '-').replace(/-[0-9a-f]{8}-.*$/, '')}`;
          await check(page, name, problems);
          for (const action of route.actions ?? []) await onScreen(page, action);
          if (route.next) {
            await page.getByRole('button', { name: route.next }).click();
            await check(page, `${name}-step2`, problems);
          }
          if (route.tabs) {
            const tabs = page.getByRole('tab');
            for (let i = 1; i < (await tabs.count()); i++) {
              await tabs.nth(i).click();
              await check(page, `${name}-tab${i}`, problems);
            }
          }
        }
        // Logged out: the sign-in pages.
        await context.clearCookies();
        await page.evaluate(() => localStorage.removeItem('access_token'));
        for (const path of ['/login', '/request-password-reset', '/reset-password/abc', '/onboarding/abc']) {
          await page.goto(`${webUrl}${path}`);
          await page.locator('main, form, h1').first().waitFor();
          await check(page, `phone-${lang}${path.replace(/[^a-z0-9]+/gi, '-')}`, problems);
        }
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    }, 600_000);
  }

  it('the editor on a phone: a canvas that fills the screen, the inspector as a bottom sheet', async () => {
    const { context, page } = await phone('en', false);
    try {
      await page.goto(`${webUrl}/studio/chatflow/${ids.chatflow}`);
      await page.locator('.react-flow__node').first().waitFor();
      const canvas = (await page.getByTestId('flow-canvas').boundingBox())!;
      expect(canvas.width).toBe(PHONE.width);
      expect(canvas.y + canvas.height).toBeGreaterThan(PHONE.height - 2);
      expect(await page.getByTestId('node-palette').count()).toBe(0);
      // A node opens its settings in a sheet at the bottom; closing it clears the selection.
      await page.getByTestId('node-input_qa01').click();
      const sheet = page.getByTestId('inspector-sheet');
      await sheet.getByTestId('inspector').waitFor();
      const box = (await sheet.boundingBox())!;
      expect(box.y + box.height).toBeGreaterThan(PHONE.height - 2);
      expect(box.width).toBe(PHONE.width);
      await page.screenshot({ path: `${SCREENSHOTS}phone-editor-sheet.png` });
      await page.keyboard.press('Escape');
      await sheet.waitFor({ state: 'detached' });
      // The palette opens from the toolbar and adds a node in view (the minimap is hidden on a phone,
      // but drawn: it counts every node).
      const count = () => page.locator('.react-flow__minimap-node').count();
      const before = await count();
      await page.getByRole('button', { name: 'Add a node', exact: true }).click();
      await page.getByTestId('palette-calculator_tool').click();
      // The new node is selected: its settings open at once.
      await sheet.getByTestId('inspector').waitFor();
      expect(await sheet.textContent()).toContain('calculator_tool');
      expect(await count()).toBe(before + 1);
      await page.keyboard.press('Escape');
      await sheet.waitFor({ state: 'detached' });
      // The rest of the actions are in the "more" menu.
      await page.getByTestId('toolbar-more').click();
      await page.getByRole('menuitem', { name: 'Undo' }).click();
      await expect.poll(count, { timeout: 10_000 }).toBe(before);
      expect(await sideways(page)).toBe(0);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('the editors at 1366 px in French, dark: the whole toolbar, palette, canvas and inspector', async () => {
    const wide = { width: 1366, height: 768 };
    const { context, page } = await phone('fr', true, wide);
    const bar = TEXTS.fr.flow.flow!.toolbar!;
    try {
      for (const type of ['chatflow', 'workflow'] as const) {
        await page.goto(`${webUrl}/studio/${type}/${ids[type]}`);
        await page.locator('.react-flow__node').first().waitFor();
        await page.getByTestId('node-palette').waitFor();
        for (const action of [type === 'chatflow' ? bar.chat! : bar.run!, bar.save!, bar.publish!, bar.runs!])
          await onScreen(page, action, wide);
        expect(await page.getByTestId('toolbar-more').isVisible()).toBe(false);
        expect(await sideways(page)).toBe(0);
        await page.screenshot({ path: `${SCREENSHOTS}wide-fr-dark-${type}.png` });
      }
    } finally {
      await context.close();
    }
  }, 180_000);
});
