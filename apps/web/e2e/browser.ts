import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const SCREENSHOTS = fileURLToPath(new URL('../test-results/screenshots/', import.meta.url));
mkdirSync(SCREENSHOTS, { recursive: true });

/** Debian's Chromium, never a downloaded one. */
export function launch(): Promise<Browser> {
  return chromium.launch({
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
}

export async function newPage(
  browser: Browser,
  options: { width?: number; height?: number; locale?: string } = {},
) {
  const context: BrowserContext = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    locale: options.locale ?? 'en-US',
    colorScheme: 'light',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

export async function shot(page: Page, name: string) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });
}

export async function login(page: Page, webUrl: string, email: string, password: string) {
  await page.goto(`${webUrl}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** Creates a workspace through the selector's "Create new" dialog; answers its id once selected. */
export async function createWorkspaceInUi(page: Page, name: string): Promise<string | null> {
  await page.getByTestId('workspace-selector').click();
  await page.getByRole('menuitem', { name: 'Create new' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid=workspace-selector]')?.textContent?.includes(n),
    name,
  );
  return page.evaluate(
    () =>
      (
        JSON.parse(localStorage.getItem('atelier-store') ?? '{}') as {
          state?: { selectedWorkspaceId?: string };
        }
      ).state?.selectedWorkspaceId ?? null,
  );
}

/** Calls the API with the page's access token (to set the stage and clean up, never to test). */
export function apiAs(page: Page, apiUrl: string) {
  return async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const token = await page.evaluate(() => localStorage.getItem('access_token'));
    const res = await fetch(`${apiUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} -> ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

type Call = ReturnType<typeof apiAs>;

/** A provider named `name` on the fake OpenAI-compatible server, in the workspace; its id. */
export async function addFakeProvider(
  call: Call,
  workspaceId: string,
  fakeProviderUrl: string,
  name: string,
) {
  const { provider_id } = await call<{ provider_id: string }>('POST', '/providers', {
    workspace_id: workspaceId,
    name,
    kind: 'openai_compatible',
    base_url: `${fakeProviderUrl}/v1`,
    api_key: 'test-key',
  });
  return provider_id;
}

/** A model of the provider (by default the fake server's LLM `gpt-4o-mini`); its id. */
export async function addModel(
  call: Call,
  workspaceId: string,
  providerId: string,
  model: { name?: string; model_name?: string; model_type?: 'llm' | 'text-embeddings' } = {},
) {
  const { model_id } = await call<{ model_id: string }>('POST', '/models', {
    workspace_id: workspaceId,
    provider_id: providerId,
    ...(model.name ? { name: model.name } : {}),
    model_name: model.model_name ?? 'gpt-4o-mini',
    model_type: model.model_type ?? 'llm',
  });
  return model_id;
}

/** The fake server's embeddings model, as a model of the provider; its id. */
export const addFakeEmbeddings = (call: Call, workspaceId: string, providerId: string, name: string) =>
  addModel(call, workspaceId, providerId, {
    name,
    model_name: 'text-embedding-3-small',
    model_type: 'text-embeddings',
  });

/** A provider on the fake OpenAI-compatible server in the workspace, and an LLM of it. */
export async function addFakeModel(
  call: Call,
  workspaceId: string,
  fakeProviderUrl: string,
  names: { provider: string; model?: string },
): Promise<string> {
  const providerId = await addFakeProvider(call, workspaceId, fakeProviderUrl, names.provider);
  return addModel(call, workspaceId, providerId, { ...(names.model ? { name: names.model } : {}) });
}

/** A chatbot of the type in the workspace; its id. */
export async function createChatbot(
  call: Call,
  workspaceId: string,
  name: string,
  type: 'simple' | 'chatflow' | 'workflow',
) {
  const { id } = await call<{ id: string }>('POST', '/chatbots', { workspace_id: workspaceId, name, type });
  return id;
}
