// The first whole journey, in one browser session per person: an admin adds a provider, imports a
// model, builds and publishes a simple chatbot and grants a user access, all in the UI; that user
// then chats with it, and a user without access does not see it.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiAs, createWorkspaceInUi, launch, login, newPage, shot } from './browser';

const webUrl = inject('webUrl');
const apiUrl = inject('apiUrl');
const admin = inject('admin');
const fakeProviderUrl = (inject('fakeProviderUrl') ?? '').replace(/\/+$/, '');
const USER_PASSWORD = 'Chat-User-Pass-1';
const stamp = Date.now();
const userEmail = `chatter-${stamp}@e2e.test`;
const outsiderEmail = `outsider-${stamp}@e2e.test`;
const BOT = 'Helper';
const QUESTION = 'hello streaming world';
const ANSWER = `Echo: ${QUESTION}`;

let browser: Browser;
let adminPage: Page;
let workspaceId: string | null = null;
const userIds: string[] = [];
/** The chatting user's page, shared by the tests in order. */
let page: Page;
let context: BrowserContext;
let errors: string[];

/** The API as the admin, straight from the test: only for setting the stage (people) and cleaning up. */
const call: ReturnType<typeof apiAs> = (...args) => apiAs(adminPage, apiUrl)(...args);

const lastAssistant = () => page.getByTestId('assistant-message').last();

beforeAll(async () => {
  if (inject('noBrowser')) return;
  browser = await launch();
  ({ page: adminPage } = await newPage(browser));
  await login(adminPage, webUrl, admin.email, admin.password);
  for (const email of [userEmail, outsiderEmail]) {
    const { user_id } = await call<{ user_id: string }>('POST', '/users', {
      email,
      user_role_id: 'user',
      password: USER_PASSWORD,
    });
    userIds.push(user_id);
  }
});

afterAll(async () => {
  if (adminPage && workspaceId) await call('DELETE', `/workspaces/${workspaceId}`).catch(() => undefined);
  for (const id of userIds) await call('DELETE', `/users/${id}`).catch(() => undefined);
  await browser?.close();
});

describe.skipIf(inject('noBrowser'))('the admin builds a chatbot in the UI', () => {
  it('adds a provider and imports a chat model', async () => {
    expect(fakeProviderUrl).toMatch(/^https?:\/\//);
    workspaceId = await createWorkspaceInUi(adminPage, 'Chat lab');
    expect(workspaceId).toMatch(/^[0-9a-f-]{36}$/);
    await adminPage.goto(`${webUrl}/providers`);
    await adminPage.getByText('No providers yet').waitFor();
    await adminPage.getByRole('button', { name: 'Add provider', exact: true }).click();
    const dialog = adminPage.getByRole('dialog');
    await dialog.getByRole('button', { name: 'OpenAI-compatible', exact: true }).click();
    await dialog.getByLabel('Name', { exact: true }).fill('Fake AI');
    await dialog.getByLabel('Base URL', { exact: true }).fill(`${fakeProviderUrl}/v1`);
    await dialog.getByLabel('API key', { exact: true }).fill('test-key');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await adminPage.getByText('Provider added.').waitFor();

    await adminPage
      .getByTestId('provider-card')
      .filter({ hasText: 'Fake AI' })
      .getByRole('button', { name: 'Import models' })
      .click();
    await dialog.getByRole('checkbox', { name: 'gpt-4o-mini', exact: true }).click();
    await dialog.getByRole('combobox', { name: 'Model type' }).click();
    await adminPage.getByRole('option', { name: 'LLM', exact: true }).click();
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await adminPage.getByText('Models imported: 1').waitFor();
  });

  it('creates, configures, saves and publishes a simple chatbot', async () => {
    await adminPage.goto(`${webUrl}/studio`);
    await adminPage.getByText('No chatbots yet').waitFor();
    await adminPage.getByRole('button', { name: 'Create', exact: true }).click();
    const dialog = adminPage.getByRole('dialog');
    await dialog.getByLabel('Name', { exact: true }).fill(BOT);
    await dialog.getByRole('radio', { name: /^Simple/ }).check();
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await adminPage.waitForURL(/\/studio\/simple\/[0-9a-f-]{36}$/);
    await adminPage.getByLabel('Instruction', { exact: true }).fill('You are a friendly assistant.');
    await adminPage.getByRole('combobox', { name: 'Model', exact: true }).click();
    await adminPage.getByRole('option', { name: /gpt-4o-mini/ }).click();
    await adminPage.getByRole('button', { name: 'Save & Publish' }).click();
    await adminPage.getByText('Saved and published.').waitFor();
    await adminPage.getByText('Published', { exact: true }).waitFor();
  });

  it('grants one user access in the access dialog', async () => {
    await adminPage.getByRole('link', { name: 'Back to the studio' }).click();
    const card = adminPage.getByTestId('chatbot-card').filter({ hasText: BOT });
    await card.getByRole('button', { name: `More actions for ${BOT}` }).click();
    await adminPage.getByRole('menuitem', { name: 'Manage access' }).click();
    const dialog = adminPage.getByRole('dialog');
    const member = dialog.getByRole('checkbox', { name: new RegExp(userEmail) });
    expect(await member.getAttribute('aria-checked')).toBe('false');
    await member.click();
    await adminPage.getByText('Access granted.').waitFor();
    // The list is fetched again after the grant.
    await expect.poll(() => member.getAttribute('aria-checked')).toBe('true');
    expect(
      await dialog.getByRole('checkbox', { name: new RegExp(outsiderEmail) }).getAttribute('aria-checked'),
    ).toBe('false');
    await adminPage.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });
});

describe.skipIf(inject('noBrowser'))('then the user chats with it', () => {
  it('a user chats with the assistant granted to them, sees the answer stream in, and finds it again', async () => {
    ({ page, context, errors } = await newPage(browser));
    await login(page, webUrl, userEmail, USER_PASSWORD);
    await page.goto(`${webUrl}/chat`);

    const assistants = page.getByTestId('assistant-list');
    await assistants.getByText(BOT, { exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Back to the app' }).isVisible()).toBe(true);
    await page.getByText('No conversation selected').waitFor();

    await page.getByRole('button', { name: 'New conversation with Helper' }).click();
    await page.getByTestId('chat-title').getByText('New conversation with Helper').waitFor();

    // Empty messages are refused with the spec's sentence.
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Please enter a message or upload an image').waitFor();

    // Every text the answer shows on its way, as the page renders it.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { chatTexts: string[] }).chatTexts = seen;
      new MutationObserver(() => {
        const bubbles = document.querySelectorAll('[data-testid=assistant-message]');
        const text = bubbles[bubbles.length - 1]?.querySelector('[data-testid=markdown]')?.textContent ?? '';
        if (text && text !== seen[seen.length - 1]) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill(QUESTION);
    await box.press('Enter');

    await page.getByTestId('user-message').getByText(QUESTION).waitFor();
    expect(await box.inputValue()).toBe('');
    // And by polling: the bubble's text as the test sees it a few times while it grows.
    const polled: string[] = [];
    for (let i = 0; i < 40; i++) {
      const text =
        (await lastAssistant()
          .getByTestId('markdown')
          .textContent()
          .catch(() => null)) ?? '';
      if (text) polled.push(text);
      if (text === ANSWER) break;
      await page.waitForTimeout(25);
    }
    await page.waitForFunction((answer) => {
      const bubbles = document.querySelectorAll('[data-testid=assistant-message]');
      const last = bubbles[bubbles.length - 1];
      return last?.getAttribute('data-state') === 'done' && last.textContent?.includes(answer);
    }, ANSWER);
    const seen = [
      ...(await page.evaluate(() => (window as unknown as { chatTexts: string[] }).chatTexts)),
      ...polled,
    ];
    const partial = seen.filter((text) => text !== ANSWER && ANSWER.startsWith(text));
    expect(partial.length, `texts seen: ${JSON.stringify(seen)}`).toBeGreaterThan(0);
    expect(seen.every((text) => ANSWER.startsWith(text))).toBe(true);

    // The new conversation is first in the history, named after the question.
    const item = page.getByTestId('conversation-item').first();
    expect(await item.textContent()).toContain(QUESTION);

    await page.reload();
    await lastAssistant().getByText(ANSWER).waitFor();
    expect(await page.getByTestId('user-message').last().textContent()).toContain(QUESTION);
    expect(await page.getByTestId('chat-title').textContent()).toBe(QUESTION);
    await shot(page, 'chat');
  });

  it('a timed-out answer shows the notice, and Retry asks again', async () => {
    await page.route('**/chat-interface/conversations/*/simple/message', (route) =>
      route.fulfill({
        status: 504,
        contentType: 'application/json',
        body: '{"detail":"x","code":"timeout"}',
      }),
    );
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('second question');
    await box.press('Enter');
    const notice = page.getByTestId('timeout-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('The request timed out. Please try again.');
    await lastAssistant().getByText('Error: The request timed out. Please try again.').waitFor();
    expect(await lastAssistant().getAttribute('data-state')).toBe('timedOut');
    await shot(page, 'chat-timeout');

    await page.unroute('**/chat-interface/conversations/*/simple/message');
    await notice.getByRole('button', { name: 'Retry' }).click();
    await lastAssistant().getByText('Echo: second question').waitFor();
    expect(await notice.count()).toBe(0);
    expect(await page.getByTestId('user-message').count()).toBe(2);
  });

  it('searches, renames inline and deletes conversations after confirmation', async () => {
    const search = page.getByRole('searchbox', { name: 'Search conversations' });
    await search.fill('no such thing');
    await page.getByText('No conversation matches your search.').waitFor();
    await search.fill('STREAMING');
    await page.getByTestId('conversation-item').first().waitFor();
    await search.fill('');

    await page.getByRole('button', { name: `Actions for ${QUESTION}` }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const title = page.getByRole('textbox', { name: 'Conversation title' });
    expect(await title.inputValue()).toBe(QUESTION);
    await title.fill('Renamed chat');
    await title.press('Enter');
    await page.getByTestId('chat-title').getByText('Renamed chat').waitFor();
    await page.reload();
    await page.getByTestId('conversation-item').getByText('Renamed chat').waitFor();

    await page.getByRole('button', { name: 'Actions for Renamed chat' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.textContent()).toContain('Delete this conversation?');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No conversations yet.').waitFor();
    await page.getByText('No conversation selected').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a user without access does not see the chatbot', async () => {
    const outsider = await newPage(browser);
    await login(outsider.page, webUrl, outsiderEmail, USER_PASSWORD);
    await outsider.page.goto(`${webUrl}/chat`);
    // Shown only once the list has loaded, and empty.
    await outsider.page.getByText('No assistants available').waitFor();
    expect(await outsider.page.getByText(BOT, { exact: true }).count()).toBe(0);
    await shot(outsider.page, 'chat-no-access');
    expect(outsider.errors).toEqual([]);
    await outsider.context.close();
  });
});

describe.skipIf(inject('noBrowser'))('a chatflow in the chat', () => {
  it('the user asks a chatflow; its answer streams in and the final output stays', async () => {
    const { models } = await call<{ models: { id: string; model_name: string }[] }>(
      'GET',
      `/models_with_partial_server?workspace_id=${workspaceId}`,
    );
    const modelId = models.find((m) => m.model_name === 'gpt-4o-mini')!.id;
    const node = (id: string, type: string, fields: unknown, x: number) => ({
      id,
      type,
      data: { label: id === 'llm_ab12' ? 'Writer' : id, fields },
      position: { x, y: 0 },
    });
    const { id } = await call<{ id: string }>('POST', '/chatbots', {
      workspace_id: workspaceId,
      name: 'Story flow',
      type: 'chatflow',
    });
    await call('PUT', `/chatbots/${id}/chatflow/config`, {
      configuration: {
        nodes: [
          node('input_in01', 'input', [], 0),
          node('llm_ab12', 'llm', { modelId, prompt: 'Story: {{#input_in01.query#}}' }, 200),
          node('output_ou01', 'output', { response: '{{#llm_ab12.response#}}' }, 400),
        ],
        edges: [
          { id: 'input_in01-llm_ab12', source: 'input_in01', target: 'llm_ab12' },
          { id: 'llm_ab12-output_ou01', source: 'llm_ab12', target: 'output_ou01' },
        ],
      },
    });
    await call('POST', `/chatbots/${id}/publish`);
    await call('POST', `/chatbots/${id}/users/${userIds[0]}/grant`);

    const chatter = await newPage(browser);
    page = chatter.page;
    await login(page, webUrl, userEmail, USER_PASSWORD);
    await page.goto(`${webUrl}/chat`);
    await page.getByRole('button', { name: 'New conversation with Story flow' }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('a brave little toaster');
    await box.press('Enter');
    await lastAssistant().getByText('Echo: Story: a brave little toaster').waitFor();
    await expect.poll(() => lastAssistant().getAttribute('data-state')).toBe('done');
    await shot(page, 'chat-chatflow');
    await page.reload();
    await lastAssistant().getByText('Echo: Story: a brave little toaster').waitFor();
    expect(chatter.errors).toEqual([]);
    await chatter.context.close();
  });
});
