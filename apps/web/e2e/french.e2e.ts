// Every route and every dialog a button opens, walked in French as an admin: no text of the English
// bundle may show (a key missing in French, a French text left equal to the English one, or English text
// written outside i18next), but for a short list of words spelled the same in both languages.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  addFakeEmbeddings,
  addFakeProvider,
  addModel,
  apiAs,
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

/** Words and names spelled the same in English and French. */
const SAME_IN_BOTH = new Set([
  'API',
  'OK',
  'Chatflow',
  'Chatflows',
  'Workflow',
  'Workflows',
  'Notion',
  'Figma',
  'GitBook',
  'Jira',
  'OpenAI',
  'Anthropic',
  'Mistral',
  'Ollama',
  'Azure OpenAI',
  'Atelier',
  'English',
  'Français',
  'DALL·E 2',
  'DALL·E 3',
  'Description',
  'Instruction',
  'Collection',
  'Collections',
  'Expression',
  'Type',
  'Tokens',
  'Total',
  'Source',
  'Date',
  'Code',
  'Documentation',
  'Actions',
  'Prompt',
  'Standard',
  'Document(s)',
  'Branches',
  'Simple',
  'Sitemap',
  'Message',
  'Messages',
  'Options',
  'Format',
  'Contact',
  'Secret',
  'Production',
  'Conversations',
  'Question',
  'Menu',
  'Transcription',
  'Validation',
  'Version',
  'Minimum',
  'Maximum',
  'Bot',
  'Image',
  'Audio',
  'Vidéo',
  'Chat',
  'Studio',
  'Admin',
  'Administration',
  'Mistral AI',
  'LLM',
  'OCR',
  'CSV',
  'Embeddings',
  'Documents',
  'Variable',
  'Chatbot',
  'Top k',
  'Image {{index}}',
  '{{count}} documents',
  // Page-view names the spec records ("a page view named Forbidden Page"): data listed in the logs.
  'Analytics',
]);

function bundle(code: string): Record<string, string> {
  const dir = fileURLToPath(new URL('../src/i18n/locales/', import.meta.url));
  const flat: Record<string, string> = {};
  const walk = (value: unknown, prefix: string) => {
    if (typeof value !== 'object' || value === null) flat[prefix] = String(value);
    else for (const [k, v] of Object.entries(value)) walk(v, prefix ? `${prefix}.${k}` : k);
  };
  for (const file of readdirSync(dir).filter((f) => f.startsWith(`${code}.`) && f.endsWith('.json'))) {
    walk(JSON.parse(readFileSync(`${dir}${file}`, 'utf8')), '');
  }
  return flat;
}

const en = bundle('en');
const fr = bundle('fr');
const frenchTexts = new Set(Object.values(fr));
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The English texts that must not be seen in French, as matchers of a whole line: those whose French is
 * missing or the same, and any English text no French text equals. `{{x}}` matches anything.
 */
const forbidden = Object.entries(en).flatMap(([key, text]) => {
  const untranslated = fr[key] === undefined || fr[key] === text;
  const english = untranslated || !frenchTexts.has(text);
  if (!english || SAME_IN_BOTH.has(text.trim())) return [];
  const literal = text.replace(/\{\{[^}]+\}\}/g, '').replace(/[^A-Za-z]/g, '');
  // A text with a value inside ("Image {{name}}") needs enough words of its own to be recognised.
  if (literal.length < (literal.length === text.replace(/[^A-Za-z]/g, '').length ? 3 : 10)) return [];
  const pattern = new RegExp(
    `^${text
      .trim()
      .split(/\{\{[^}]+\}\}/)
      .map(escape)
      .join('.+')}$`,
  );
  return [{ key, text, pattern }];
});

/** Every line of text shown, and the placeholders, labels and titles of what is visible. */
async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts = document.body.innerText.split('\n');
    for (const el of Array.from(document.querySelectorAll('[placeholder],[aria-label],[title]'))) {
      const box = (el as HTMLElement).getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      for (const attr of ['placeholder', 'aria-label', 'title']) {
        const value = el.getAttribute(attr);
        if (value) texts.push(value);
      }
    }
    return texts.map((t) => t.trim()).filter(Boolean);
  });
}

const found = new Map<string, Set<string>>();
async function check(page: Page, where: string) {
  for (const text of await visibleTexts(page)) {
    const hit = forbidden.find((f) => f.pattern.test(text));
    if (hit) {
      const list = found.get(`${hit.key}: "${hit.text}"`) ?? new Set<string>();
      list.add(where);
      found.set(`${hit.key}: "${hit.text}"`, list);
    }
  }
}

let browser: Browser;
let page: Page;
let errors: string[];
let workspaceId: string | null = null;
const ids: Record<string, string> = {};
const call: ReturnType<typeof apiAs> = (...args) => apiAs(page, apiUrl)(...args);

async function settle() {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForTimeout(150);
}

async function closeOverlays() {
  for (let i = 0; i < 3; i++) {
    if ((await page.locator('[role=dialog],[role=alertdialog],[role=menu],[role=listbox]').count()) === 0)
      return;
    await page.keyboard.press('Escape');
    await page.waitForTimeout(120);
  }
}

// Buttons never pressed by the walk: leaving, and what would end the session.
const SKIP = /déconnexion|se déconnecter|supprimer le compte/i;

/**
 * Presses, one after the other, every visible button of the page outside dialogs, checking what each
 * opens (a dialog, a menu, a panel); comes back to `path` when a button navigated away.
 */
async function pressEveryButton(path: string, where: string) {
  const tried: string[] = [];
  for (let round = 0; round < 60; round++) {
    // The next button not pressed yet, outside dialogs and menus, marked for the click.
    const name = await page.evaluate(
      ({ tried, skip }) => {
        document.querySelector('[data-walk]')?.removeAttribute('data-walk');
        const all = Array.from(document.querySelectorAll('button, [role=tab]')) as HTMLElement[];
        for (const el of all) {
          if (el.closest('[role=dialog],[role=alertdialog],[role=menu]')) continue;
          if ((el as HTMLButtonElement).disabled || el.getClientRects().length === 0) continue;
          const label = `${el.getAttribute('aria-label') ?? ''}|${(el.textContent ?? '').trim().slice(0, 60)}|${el.dataset.testid ?? ''}`;
          if (tried.includes(label) || new RegExp(skip, 'i').test(label)) continue;
          el.setAttribute('data-walk', '1');
          return label;
        }
        return null;
      },
      { tried, skip: SKIP.source },
    );
    if (!name) return;
    tried.push(name);
    await page
      .locator('[data-walk]')
      .click({ timeout: 3_000 })
      .catch(() => undefined);
    await page.waitForTimeout(250);
    await check(page, `${where} → ${name}`);
    await closeOverlays();
    if (new URL(page.url()).pathname !== path) {
      await page.goto(`${webUrl}${path}`);
      await settle();
    }
  }
}

beforeAll(async () => {
  if (inject('noBrowser')) return;
  browser = await launch();
  ({ page, errors } = await newPage(browser, { width: 1366, height: 900, locale: 'fr-FR' }));
});
afterAll(async () => {
  if (page && workspaceId) await call('DELETE', `/workspaces/${workspaceId}`).catch(() => undefined);
  await browser?.close();
});

describe.skipIf(inject('noBrowser'))('the app in French, every route and dialog', () => {
  it('sets the stage: a workspace, a model, a collection and three assistants', async () => {
    await page.addInitScript(() => localStorage.setItem('atelier-language', 'en'));
    await login(page, webUrl, admin.email, admin.password);
    workspaceId = await createWorkspaceInUi(page, 'Atelier démo');
    expect(workspaceId).toMatch(/^[0-9a-f-]{36}$/);
    const providerId = await addFakeProvider(call, workspaceId!, fakeProviderUrl, 'Fournisseur démo');
    await addModel(call, workspaceId!, providerId, { name: 'Modèle démo' });
    const embeddingsId = await addFakeEmbeddings(call, workspaceId!, providerId, 'Embeddings démo');
    ids.collection = (
      await call<{ id: string }>('POST', '/rag_collections', {
        workspace_id: workspaceId,
        name: 'Collection démo',
        embeddings_model_id: embeddingsId,
      })
    ).id;
    // `template`: a chatflow the walk does not touch, opened with its template picker.
    for (const type of ['simple', 'chatflow', 'workflow', 'template'] as const) {
      ids[type] = (
        await call<{ id: string }>('POST', '/chatbots', {
          workspace_id: workspaceId,
          name: `Bot ${type}`,
          type: type === 'template' ? 'chatflow' : type,
        })
      ).id;
    }
    // From now on the interface speaks French.
    await page.addInitScript(() => localStorage.setItem('atelier-language', 'fr'));
    await page.goto(`${webUrl}/`);
    await page.getByRole('heading', { name: /Bienvenue/ }).waitFor();
  });

  const routes = [
    '/',
    '/providers',
    '/knowledges',
    '/knowledges/collections/create',
    '/knowledges/collections/edit/:collection',
    '/studio',
    '/studio/simple/:simple',
    '/studio/chatflow/:chatflow',
    '/studio/workflow/:workflow',
    '/analytics',
    '/chat',
    '/admin/users',
    '/forbidden',
    '/no-such-page',
  ];
  it.each(routes)('%s shows no English', { timeout: 240_000 }, async (route) => {
    const path = route.replace(/:(\w+)/, (_, name: string) => ids[name]!);
    await page.goto(`${webUrl}${path}`);
    await settle();
    await check(page, route);
    await pressEveryButton(path, route);
  });

  it('the header menus and their dialogs show no English', { timeout: 120_000 }, async () => {
    await page.goto(`${webUrl}/studio`);
    await settle();
    await page.getByTestId('workspace-selector').click();
    await check(page, 'workspace menu');
    await page.getByRole('menuitem', { name: 'Paramètres' }).click();
    await check(page, 'workspace settings');
    const items = await page.getByRole('menu').last().getByRole('menuitem').allTextContents();
    await closeOverlays();
    for (const item of items) {
      await page.getByTestId('workspace-selector').click();
      await page.getByRole('menuitem', { name: 'Paramètres' }).click();
      await page.getByRole('menuitem', { name: item }).click();
      await page.waitForTimeout(300);
      await check(page, `workspace ${item}`);
      await closeOverlays();
    }
    await page.getByTestId('workspace-selector').click();
    await page.getByRole('menuitem', { name: 'Créer' }).first().click();
    await check(page, 'workspace create');
    await closeOverlays();
    await page
      .getByRole('button', { name: /menu utilisateur|compte|profil/i })
      .first()
      .click();
    await check(page, 'user menu');
    await page.getByRole('menuitem', { name: 'Mon profil' }).click();
    await page.getByRole('dialog').waitFor();
    await check(page, 'profile');
    // Saving the profile keeps French and says so in French.
    for (const [label, value] of [
      ['Prénom', 'Admin'],
      ['Nom', 'Démo'],
    ] as const) {
      const field = page.getByRole('dialog').getByLabel(label, { exact: true });
      if (!(await field.inputValue())) await field.fill(value);
    }
    await page.getByRole('dialog').getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('Profil enregistré.').waitFor();
    await check(page, 'profile saved');
  });

  it(
    'every node of the catalog, in the palette and the inspector, shows no English',
    { timeout: 240_000 },
    async () => {
      await page.goto(`${webUrl}/studio/workflow/${ids.workflow}`);
      await settle();
      await closeOverlays();
      const types = await page
        .getByTestId('node-palette')
        .locator('[data-testid^=palette-]')
        .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.testid!.replace(/^palette-/, '')));
      expect(types.length).toBeGreaterThan(30);
      for (const type of types) {
        // A click adds the node in view and selects it: the inspector shows its fields.
        await page.getByTestId(`palette-${type}`).click();
        await page.getByTestId('inspector').waitFor();
        await check(page, `inspector of ${type}`);
        await page.getByTestId('inspector').getByRole('button', { name: 'Fermer' }).first().click();
      }
      // The problems list names missing fields in French.
      await page.getByRole('button', { name: 'Publier', exact: true }).click();
      await page.waitForTimeout(800);
      await check(page, 'workflow problems');
      await shot(page, 'fr-workflow-all-nodes');
    },
  );

  it('a chatflow from a template shows no English, node by node', { timeout: 120_000 }, async () => {
    // An empty flow opens the picker by itself.
    await page.goto(`${webUrl}/studio/chatflow/${ids.template}`);
    await page.getByTestId('template-picker').waitFor();
    await check(page, 'template picker');
    await shot(page, 'fr-template-picker');
    await page.getByTestId('template-agent').click();
    await page.getByTestId('template-picker').waitFor({ state: 'detached' });
    await settle();
    const nodeIds = await page
      .locator('[data-testid^=node-]')
      .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.testid!));
    for (const id of nodeIds) {
      await page.getByTestId(id).click();
      await check(page, `chatflow ${id}`);
    }
    expect(await page.getByTestId('node-agent_ag01').textContent()).toContain('Agent IA');
    await shot(page, 'fr-chatflow-agent');
    // Saved, so that other browsers open it with its nodes.
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    await page.getByText('Flux enregistré').first().waitFor();
  });

  it('the public pages show no English', { timeout: 120_000 }, async () => {
    const { page: guest } = await newPage(browser, { width: 1366, height: 900, locale: 'fr-FR' });
    await guest.addInitScript(() => localStorage.setItem('atelier-language', 'fr'));
    for (const path of [
      '/login',
      '/request-password-reset',
      '/reset-password/abc',
      '/onboarding/abc',
      '/logout',
    ]) {
      await guest.goto(`${webUrl}${path}`);
      await guest.waitForLoadState('networkidle').catch(() => undefined);
      await guest.waitForTimeout(200);
      await check(guest, path);
    }
    await guest.goto(`${webUrl}/login`);
    await guest.getByRole('button', { name: 'Se connecter' }).click();
    await check(guest, '/login empty');
    await guest.getByLabel('E-mail').fill('pas-un-email');
    await guest.getByLabel('Mot de passe', { exact: true }).fill('x');
    await guest.getByRole('button', { name: 'Se connecter' }).click();
    await guest.getByText('E-mail doit être une adresse e-mail valide.').waitFor();
    await check(guest, '/login invalid email');
    await guest.context().close();
  });

  it(
    'the screens this work touched, in English and French, light and dark, at 1366 and 390 px',
    { timeout: 300_000 },
    async () => {
      const texts = {
        en: { notice: en['session.expired']!, email: 'Email must be a valid email address.', agent: 'Agent' },
        fr: {
          notice: fr['session.expired']!,
          email: 'E-mail doit être une adresse e-mail valide.',
          agent: 'Agent IA',
        },
      };
      const token = await page.evaluate(() => ({
        access: localStorage.getItem('access_token'),
        refresh: localStorage.getItem('refresh_token'),
        store: localStorage.getItem('atelier-store'),
      }));
      for (const lang of ['en', 'fr'] as const) {
        for (const theme of ['light', 'dark'] as const) {
          for (const width of [1366, 390]) {
            const name = `${lang}-${theme}-${width}`;
            const context = await browser.newContext({
              viewport: { width, height: width > 500 ? 900 : 844 },
              colorScheme: theme,
            });
            const view = await context.newPage();
            await view.addInitScript(
              ({ lang, theme }) => {
                localStorage.setItem('atelier-language', lang);
                localStorage.setItem('atelier-theme', theme);
              },
              { lang, theme },
            );
            // A session that ended: the notice, then a field error in place of the old banner.
            await view.goto(`${webUrl}/login?reason=expired&redirect=%2Fstudio`);
            await view.getByTestId('session-ended').waitFor();
            expect(await view.getByTestId('session-ended').textContent()).toBe(texts[lang].notice);
            await view.locator('input[type=email]').fill('nope');
            await view.locator('input[type=password]').fill('x');
            await view.locator('button[type=submit]').click();
            await view.getByText(texts[lang].email).waitFor();
            expect(await view.getByTestId('session-ended').count()).toBe(0);
            // The field says what is wrong; no banner repeats an older failure.
            expect(await view.getByTestId('login-error').count()).toBe(0);
            await shot(view, `i18n-login-${name}`);
            // The chatflow editor with the agent template, signed in with the walk's session.
            await view.evaluate((t) => {
              localStorage.setItem('access_token', t.access ?? '');
              localStorage.setItem('refresh_token', t.refresh ?? '');
              localStorage.setItem('atelier-store', t.store ?? '{}');
            }, token);
            await view.goto(`${webUrl}/studio/chatflow/${ids.template}`);
            await view.getByTestId('node-agent_ag01').waitFor({ state: 'attached' });
            expect(await view.getByTestId('node-agent_ag01').textContent()).toContain(texts[lang].agent);
            await shot(view, `i18n-chatflow-${name}`);
            if (width > 500) {
              await view.getByTestId('node-agent_ag01').click();
              await view.getByTestId('inspector').waitFor();
              const inspector = (await view.getByTestId('inspector').textContent()) ?? '';
              expect(inspector).toContain(lang === 'fr' ? 'Prompt système' : 'System prompt');
              await shot(view, `i18n-inspector-${name}`);
              await view
                .getByRole('button', { name: lang === 'fr' ? 'Modèles de flux' : 'Templates' })
                .click();
              await view.getByTestId('template-picker').waitFor();
              expect(await view.getByTestId('template-picker').textContent()).toContain(
                lang === 'fr' ? 'Agent IA intelligent' : 'Smart AI Agent',
              );
              await shot(view, `i18n-templates-${name}`);
            }
            await context.close();
          }
        }
      }
    },
  );

  it('found no English text', () => {
    const report = [...found].map(([what, where]) => `${what} — on ${[...where].slice(0, 3).join('; ')}`);
    expect(report).toEqual([]);
    expect(errors).toEqual([]);
  });
});
