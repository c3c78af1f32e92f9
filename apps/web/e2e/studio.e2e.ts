import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addFakeModel, apiAs, createWorkspaceInUi, launch, login, newPage, shot } from './browser';

const webUrl = inject('webUrl');
const apiUrl = inject('apiUrl');
const admin = inject('admin');
const fakeProviderUrl = (inject('fakeProviderUrl') ?? '').replace(/\/+$/, '');
const WORKSPACE = 'Studio lab';
const BOT = 'Support bot';
const COPY = `Copy of ${BOT}`;

let browser: Browser;
let page: Page;
let errors: string[];
/** The workspace this file creates, deleted at the end so other files find the admin as they left them. */
let workspaceId: string | null = null;
let chatbotId = '';
/** A user (role 'user') to grant access to; deleted at the end too. */
let memberId: string | null = null;
const memberEmail = `studio-member-${Date.now()}@e2e.test`;

const card = (name: string) =>
  page.getByTestId('chatbot-card').filter({ has: page.getByRole('heading', { name, exact: true }) });
async function cardMenu(name: string, item: string) {
  await card(name)
    .getByRole('button', { name: `More actions for ${name}` })
    .click();
  await page.getByRole('menuitem', { name: item }).click();
}

const call: ReturnType<typeof apiAs> = (...args) => apiAs(page, apiUrl)(...args);

beforeAll(async () => {
  if (inject('noBrowser')) return;
  browser = await launch();
  ({ page, errors } = await newPage(browser, { width: 1366 }));
});
afterAll(async () => {
  if (page && workspaceId) await call('DELETE', `/workspaces/${workspaceId}`).catch(() => undefined);
  if (page && memberId) await call('DELETE', `/users/${memberId}`).catch(() => undefined);
  await browser?.close();
});

describe.skipIf(inject('noBrowser'))('the studio in a browser', () => {
  it('prepares its own workspace with a chat model', async () => {
    expect(fakeProviderUrl).toMatch(/^https?:\/\//);
    await login(page, webUrl, admin.email, admin.password);
    workspaceId = await createWorkspaceInUi(page, WORKSPACE);
    expect(workspaceId).toMatch(/^[0-9a-f-]{36}$/);
    await addFakeModel(call, workspaceId!, fakeProviderUrl, { provider: 'Fake' });
    ({ user_id: memberId } = await call<{ user_id: string }>('POST', '/users', {
      email: memberEmail,
      firstName: 'Sam',
      lastName: 'Studio',
      user_role_id: 'user',
    }));
  });

  it('creates a simple chatbot, which opens in its editor', async () => {
    await page.goto(`${webUrl}/studio`);
    await page.getByRole('heading', { name: 'Studio', exact: true }).waitFor();
    await page.getByText('No chatbots yet').waitFor();
    await shot(page, 'studio-empty');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Create a chatbot or workflow' }).waitFor();
    expect(await dialog.getByRole('radio', { name: /^Simple/ }).isChecked()).toBe(true);
    await shot(page, 'studio-create-dialog');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog.getByText('This field is required').waitFor();
    await dialog.getByLabel('Name', { exact: true }).fill(BOT);
    await dialog.getByLabel('Description', { exact: true }).fill('Answers our customers');
    await dialog.getByRole('radio', { name: /^Simple/ }).check();
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/studio\/simple\/[0-9a-f-]{36}$/);
    chatbotId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('heading', { name: BOT, exact: true }).waitFor();
    await page.getByText('Draft', { exact: true }).waitFor();
  });

  it('configures the chatbot, then saves and publishes it', async () => {
    await page.getByLabel('Instruction', { exact: true }).fill('You are a friendly support assistant.');
    await page.getByText('Unsaved changes').waitFor();
    await page.getByRole('combobox', { name: 'Model', exact: true }).click();
    await page.getByRole('option', { name: /gpt-4o-mini/ }).click();
    await page.getByText('No knowledge collections yet').waitFor();
    await shot(page, 'simple-chatbot');
    await page.getByRole('button', { name: 'Save & Publish' }).click();
    await page.getByText('Saved and published.').waitFor();
    await page.getByText('All changes saved').waitFor();
    await page.getByText('Published', { exact: true }).waitFor();
  });

  it('lists it as published, duplicates it, and searches', async () => {
    await page.getByRole('link', { name: 'Back to the studio' }).click();
    await page.waitForURL(`${webUrl}/studio`);
    await card(BOT).getByText('Published', { exact: true }).waitFor();
    expect(await card(BOT).textContent()).toContain('Simple');

    await cardMenu(BOT, 'Duplicate');
    await card(COPY).waitFor();
    expect(await page.getByTestId('chatbot-card').count()).toBe(2);

    await page.getByLabel('Search chatbots').fill('copy of');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=chatbot-card]').length === 1);
    await page.getByLabel('Search chatbots').fill('');
    await card(BOT).waitFor();
  });

  it('edits the name and description of the copy', async () => {
    await cardMenu(COPY, 'Edit');
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Edit chatbot' }).waitFor();
    expect(await dialog.getByLabel('Name', { exact: true }).inputValue()).toBe(COPY);
    expect(await dialog.getByRole('radio').count()).toBe(0);
    await shot(page, 'studio-edit-dialog');
    await dialog.getByLabel('Name', { exact: true }).fill('');
    await dialog.getByRole('button', { name: 'Update', exact: true }).click();
    await dialog.getByText('This field is required').waitFor();
    await dialog.getByLabel('Name', { exact: true }).fill(COPY);
    await dialog.getByLabel('Description', { exact: true }).fill('A second opinion');
    await dialog.getByRole('button', { name: 'Update', exact: true }).click();
    await page.getByText('Chatbot updated.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid=chatbot-card]')].some((c) =>
        c.textContent?.includes('A second opinion'),
      ),
    );
  });

  it('opens the access dialog and the integration guide', async () => {
    await cardMenu(BOT, 'Manage access');
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: `Access to ${BOT}` }).waitFor();
    const member = dialog.getByRole('checkbox', { name: new RegExp(memberEmail) });
    expect(await member.getAttribute('aria-checked')).toBe('false');
    await dialog.getByRole('button', { name: 'Grant all' }).click();
    await dialog
      .getByRole('status')
      .filter({ hasText: /\d+ succeeded, 0 failed\./ })
      .waitFor();
    await page.waitForFunction(
      (email) =>
        [...document.querySelectorAll('[role=dialog] [role=checkbox]')].some(
          (c) => c.getAttribute('aria-checked') === 'true' && c.parentElement?.textContent?.includes(email),
        ),
      memberEmail,
    );
    await shot(page, 'studio-access');
    await member.click(); // revoke singly
    await page.getByText('Access revoked.').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await cardMenu(BOT, 'Integration guide');
    await dialog.getByRole('heading', { name: `Integration guide: ${BOT}` }).waitFor();
    // The guide shows the public API (an OpenAI client and Atelier's own call) at the real address.
    const guide = await dialog.textContent();
    expect(guide).toContain(`${apiUrl}/v1/chat/completions`);
    expect(guide).toContain(`${apiUrl}/v1/chat-messages`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('deletes the copy after confirmation', async () => {
    await cardMenu(COPY, 'Delete');
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.textContent()).toContain('Delete this chatbot?');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Chatbot deleted.').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=chatbot-card]').length === 1);
    await card(BOT).waitFor();
    await shot(page, 'studio');
  });

  it('fits a phone', async () => {
    const { page: phone, context, errors: phoneErrors } = await newPage(browser, { width: 390, height: 844 });
    await login(phone, webUrl, admin.email, admin.password);
    await phone.goto(`${webUrl}/studio/simple/${chatbotId}`);
    await phone.getByRole('heading', { name: BOT, exact: true }).waitFor();
    await phone.getByRole('button', { name: 'Save & Publish' }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(phone, 'simple-chatbot-phone');
    expect(phoneErrors).toEqual([]);
    await context.close();
  });

  it('shows the not-found state for an unknown chatbot', async () => {
    await page.goto(`${webUrl}/studio/simple/00000000-0000-4000-8000-000000000000`);
    await page.getByText('The chatbot has not been found.').waitFor();
    await page.getByRole('link', { name: 'Back to the studio' }).click();
    await page.waitForURL(`${webUrl}/studio`);
    expect(errors).toEqual([]);
  });
});
