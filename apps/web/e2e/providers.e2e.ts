import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, login, newPage, shot, createWorkspaceInUi } from './browser';

const webUrl = inject('webUrl');
const apiUrl = inject('apiUrl');
const admin = inject('admin');
const fakeProviderUrl = (inject('fakeProviderUrl') ?? '').replace(/\/+$/, '');
const WORKSPACE = 'Providers lab';
const PROVIDER = 'Fake AI';

let browser: Browser;
let page: Page;
let errors: string[];
/** The workspace this file created, deleted at the end so other files find the admin as they left them. */
let createdWorkspaceId: string | null = null;

const card = () => page.getByTestId('provider-card').filter({ hasText: PROVIDER });
const table = () => page.getByTestId('models-table');
const row = (modelName: string) =>
  table()
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: modelName, exact: true }) });

/** Logs in; keeps the workspace the app selects, or creates one when the admin has none. */
async function loginWithWorkspace() {
  const listed = page.waitForResponse(
    (r) => new URL(r.url()).pathname.endsWith('/workspaces') && r.request().method() === 'GET',
  );
  await login(page, webUrl, admin.email, admin.password);
  const { workspaces } = (await (await listed).json()) as { workspaces: { name: string }[] };
  const name = workspaces[0]?.name;
  if (name) {
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid=workspace-selector]')?.textContent?.includes(n),
      name,
    );
    return;
  }
  createdWorkspaceId = await createWorkspaceInUi(page, WORKSPACE);
}

beforeAll(async () => {
  if (inject('noBrowser')) return;
  browser = await launch();
  ({ page, errors } = await newPage(browser));
});
afterAll(async () => {
  if (page && createdWorkspaceId) {
    const token = await page.evaluate(() => localStorage.getItem('access_token')).catch(() => null);
    if (token) {
      await fetch(`${apiUrl}/workspaces/${createdWorkspaceId}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      }).catch(() => undefined);
    }
  }
  await browser?.close();
});

describe.skipIf(inject('noBrowser'))('the providers page in a browser', () => {
  it('adds an OpenAI-compatible provider and tests its connection', async () => {
    expect(fakeProviderUrl).toMatch(/^https?:\/\//);
    await loginWithWorkspace();
    await page.goto(`${webUrl}/providers`);
    await page.getByRole('heading', { name: 'Model providers' }).waitFor();
    await page.getByText('No providers yet').waitFor();

    await page.getByRole('button', { name: 'Add provider', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'OpenAI-compatible', exact: true }).waitFor();
    await shot(page, 'providers-kinds');
    await dialog.getByRole('button', { name: 'OpenAI-compatible', exact: true }).click();
    // Name and base URL are required for this kind.
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog.getByText('This field is required').first().waitFor();
    await dialog.getByLabel('Name', { exact: true }).fill(PROVIDER);
    await dialog.getByLabel('Base URL', { exact: true }).fill(`${fakeProviderUrl}/v1`);
    await dialog.getByLabel('API key', { exact: true }).fill('test-key');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Provider added.').waitFor();
    await card().waitFor();
    const text = (await card().textContent()) ?? '';
    expect(text).toContain('OpenAI-compatible');
    expect(text).toContain(`${fakeProviderUrl}/v1`);
    expect(text).not.toContain('No key stored');

    await card().getByRole('button', { name: 'Test connection' }).click();
    await page.getByText('Connection successful').waitFor();
  });

  it('imports models: a type is required, then two models are added', async () => {
    await card().getByRole('button', { name: 'Import models' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Import models' }).waitFor();
    await dialog.getByRole('checkbox', { name: 'gpt-4o-mini', exact: true }).waitFor();

    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.getByText('Please select a model type').waitFor();

    await dialog.getByLabel('Search models').fill('gpt-4o');
    expect(await dialog.getByRole('checkbox', { name: 'text-embedding-3-small', exact: true }).count()).toBe(
      0,
    );
    await dialog.getByRole('checkbox', { name: 'gpt-4o-mini', exact: true }).click();
    await dialog.getByRole('checkbox', { name: 'gpt-4o', exact: true }).click();
    await dialog.getByRole('combobox', { name: 'Model type' }).click();
    await page.getByRole('option', { name: 'LLM', exact: true }).click();
    expect(await dialog.getByText('Please select a model type').count()).toBe(0);
    await shot(page, 'providers-import');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Models imported: 2').waitFor();

    await row('gpt-4o-mini').waitFor();
    await row('gpt-4o').waitFor();
    expect(await table().locator('tbody tr').count()).toBe(2);
    expect(await row('gpt-4o').textContent()).toContain('LLM');
    expect(await row('gpt-4o').textContent()).toContain(PROVIDER);
  });

  it('edits a model and shows the change', async () => {
    await page.getByRole('button', { name: 'Edit gpt-4o', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Edit model' }).waitFor();
    expect(await dialog.getByLabel('Provider model name', { exact: true }).inputValue()).toBe('gpt-4o');
    await dialog.getByLabel('Description', { exact: true }).fill('Our main model');
    await dialog.getByLabel('Input (per 1k tokens)', { exact: true }).fill('0.5');
    await dialog.getByRole('button', { name: 'Update', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Model updated.').waitFor();
    await row('gpt-4o').getByText('Our main model').waitFor();
    await row('gpt-4o').getByText('In 0.5/1k').waitFor();
    expect(await row('gpt-4o-mini').textContent()).not.toContain('Our main model');
    await shot(page, 'providers');
  });

  it('fits a phone', async () => {
    const { page: phone, context, errors: phoneErrors } = await newPage(browser, { width: 390, height: 844 });
    await login(phone, webUrl, admin.email, admin.password);
    await phone.goto(`${webUrl}/providers`);
    await phone.getByTestId('provider-card').filter({ hasText: PROVIDER }).waitFor();
    await phone.getByTestId('models-table').waitFor();
    await shot(phone, 'providers-phone');
    expect(phoneErrors).toEqual([]);
    await context.close();
  });

  it('deletes the provider, and its models with it, after confirmation', async () => {
    await card()
      .getByRole('button', { name: `Delete ${PROVIDER}` })
      .click();
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.textContent()).toContain('Delete this provider?');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Provider deleted.').waitFor();
    await page.getByText('No providers yet').waitFor();
    await page.getByText('No models yet').waitFor();
    expect(errors).toEqual([]);
  });
});
