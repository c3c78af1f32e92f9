import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, login, newPage, shot } from './browser';

const webUrl = inject('webUrl');
const apiUrl = inject('apiUrl');
const admin = inject('admin');
const fakeProviderUrl = (inject('fakeProviderUrl') ?? '').replace(/\/+$/, '');
const USER_PASSWORD = 'Chat-User-Pass-1';
const userEmail = `chatter-${Date.now()}@e2e.test`;
const QUESTION = 'hello streaming world';
const ANSWER = `Echo: ${QUESTION}`;

let browser: Browser;
let adminPage: Page;
let adminToken = '';
let workspaceId: string | null = null;
/** The chatting user's page, shared by the tests in order. */
let page: Page;
let context: BrowserContext;
let errors: string[];

/** The API as the admin, straight from the test (no UI): setting the stage. */
async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${adminToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} -> ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

async function publishedSimpleBot(name: string, modelId: string): Promise<string> {
  const { id } = await call<{ id: string }>('POST', '/chatbots', {
    workspace_id: workspaceId,
    name,
    type: 'simple',
  });
  await call('PUT', `/chatbots/${id}/simple/config`, { instruction: 'Be helpful', model_id: modelId });
  await call('POST', `/chatbots/${id}/publish`);
  return id;
}

const lastAssistant = () => page.getByTestId('assistant-message').last();

beforeAll(async () => {
  if (inject('noBrowser')) return;
  browser = await launch();
  ({ page: adminPage } = await newPage(browser));
  await login(adminPage, webUrl, admin.email, admin.password);
  adminToken = (await adminPage.evaluate(() => localStorage.getItem('access_token'))) ?? '';

  ({ workspace_id: workspaceId } = await call<{ workspace_id: string }>('POST', '/workspaces', {
    name: 'Chat lab',
  }));
  const { provider_id } = await call<{ provider_id: string }>('POST', '/providers', {
    workspace_id: workspaceId,
    name: 'Fake',
    kind: 'openai_compatible',
    base_url: `${fakeProviderUrl}/v1`,
    api_key: 'test-key',
  });
  const { model_id } = await call<{ model_id: string }>('POST', '/models', {
    workspace_id: workspaceId,
    provider_id,
    model_name: 'gpt-4o-mini',
    model_type: 'llm',
  });
  const helperId = await publishedSimpleBot('Helper', model_id);
  const { user_id } = await call<{ user_id: string }>('POST', '/users', {
    email: userEmail,
    user_role_id: 'user',
    password: USER_PASSWORD,
  });
  await call('POST', `/chatbots/${helperId}/users/${user_id}/grant`);
  await publishedSimpleBot('Secret', model_id); // published, never granted
});

afterAll(async () => {
  if (workspaceId && adminToken) await call('DELETE', `/workspaces/${workspaceId}`).catch(() => undefined);
  await browser?.close();
});

describe.skipIf(inject('noBrowser'))('the internal chat in a browser', () => {
  it('a user chats with the assistant granted to them, sees the answer stream in, and finds it again', async () => {
    ({ page, context, errors } = await newPage(browser));
    await login(page, webUrl, userEmail, USER_PASSWORD);
    await page.goto(`${webUrl}/chat`);

    const assistants = page.getByTestId('assistant-list');
    await assistants.getByText('Helper', { exact: true }).waitFor();
    expect(await assistants.getByText('Secret', { exact: true }).count()).toBe(0);
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
});
