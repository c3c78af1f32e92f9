import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, login, newPage, shot } from './browser';

const webUrl = inject('webUrl');
const admin = inject('admin');
const USER_PASSWORD = 'Member-Pass-42!';
const userEmail = `member-${Date.now()}@e2e.test`;

let browser: Browser;
let page: Page;
let errors: string[];
let invitationUrl = '';

const selector = () => page.getByTestId('workspace-selector');
async function openSettings(item: string) {
  await selector().click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  await page.getByRole('menuitem', { name: item }).click();
}
async function createWorkspace(name: string) {
  await selector().click();
  await page.getByRole('menuitem', { name: 'Create new' }).click();
  const dialog = page.getByRole('dialog');
  expect(await dialog.getByRole('heading').textContent()).toBe('Create a workspace');
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid=workspace-selector]')?.textContent?.includes(n),
    name,
  );
}

beforeAll(async () => {
  if (inject('noBrowser')) return;
  browser = await launch();
  ({ page, errors } = await newPage(browser));
});
afterAll(async () => {
  await browser?.close();
});

describe.skipIf(inject('noBrowser'))('the web app shell in a browser', () => {
  it('logs in as admin and sees the onboarding guide until a workspace exists', async () => {
    await page.goto(webUrl);
    await page.waitForURL(/\/login/);
    await shot(page, 'login');
    await login(page, webUrl, admin.email, admin.password);
    await page.getByTestId('onboarding-guide').waitFor();
    expect(await page.getByTestId('onboarding-guide').textContent()).toContain('Create your first workspace');
    await shot(page, 'welcome-admin');

    await page.getByRole('button', { name: 'Create a workspace' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByRole('heading').textContent()).toBe('Create a workspace');
    // An empty name is not saved.
    expect(await dialog.getByRole('button', { name: 'Create' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Name').fill('Alpha');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: /Welcome, Admin/ }).waitFor();
    expect(await selector().textContent()).toContain('Alpha');
    await page.getByText('Workspace created.').waitFor();
    await shot(page, 'home');
  });

  it('creates, switches, renames and deletes workspaces', async () => {
    await createWorkspace('Beta');
    expect(await selector().textContent()).toContain('Beta');

    await page.goto(`${webUrl}/studio`);
    await selector().click();
    await page.getByRole('menuitem', { name: 'Alpha' }).click();
    await page.waitForURL(`${webUrl}/`);
    expect(await selector().textContent()).toContain('Alpha');

    await openSettings('Edit');
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByRole('heading').textContent()).toBe('Edit workspace');
    expect(await dialog.getByLabel('Name').inputValue()).toBe('Alpha');
    await dialog.getByLabel('Name').fill('Alpha One');
    await dialog.getByRole('button', { name: 'Update' }).click();
    await page.waitForFunction(() =>
      document.querySelector('[data-testid=workspace-selector]')?.textContent?.includes('Alpha One'),
    );

    await selector().click();
    await page.getByRole('menuitem', { name: 'Beta' }).click();
    await openSettings('Delete');
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.textContent()).toContain('Delete this workspace?');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.waitForFunction(() =>
      document.querySelector('[data-testid=workspace-selector]')?.textContent?.includes('Alpha One'),
    );
    await selector().click();
    const items = await page.getByRole('menuitem').allTextContents();
    expect(items.some((t) => t.includes('Beta'))).toBe(false);
    await page.keyboard.press('Escape');
  });

  it('creates a user, who receives an invitation link', async () => {
    await page.goto(`${webUrl}/admin`);
    await page.waitForURL(`${webUrl}/admin/users`);
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    await page.getByRole('button', { name: 'Create user' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Email').fill(userEmail);
    await dialog.getByLabel('First name').fill('Mia');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const link = page.getByTestId('invitation-link');
    await link.waitFor();
    invitationUrl = (await link.locator('code').textContent()) ?? '';
    expect(invitationUrl).toMatch(new RegExp(`^${webUrl}/onboarding/[A-Za-z0-9_-]{43}$`));
    await page.getByRole('cell', { name: userEmail, exact: true }).waitFor();
    await shot(page, 'admin-users');
  });

  it('shares the workspace with the user and lists them as a member', async () => {
    await page.goto(webUrl);
    await openSettings('Share');
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: 'User' }).click();
    await page.getByRole('option', { name: new RegExp(userEmail) }).click();
    await dialog.getByRole('button', { name: 'Invite' }).click();
    await dialog.waitFor({ state: 'detached' });
    await openSettings('Members');
    const members = page.getByRole('dialog');
    await members.getByText(userEmail).waitFor();
    await shot(page, 'members');
    await page.keyboard.press('Escape');
  });

  it('a mistyped invitation link shows the invalid-link page', async () => {
    const { page: other, context } = await newPage(browser);
    await other.goto(`${invitationUrl.slice(0, -3)}xyz`);
    await other.getByTestId('onboarding-invalid').waitFor();
    expect(await other.getByTestId('onboarding-invalid').textContent()).toContain('typo');
    await shot(other, 'onboarding-invalid');
    await context.close();
  });

  it('the invited user completes onboarding and sees only the navigation the spec allows', async () => {
    const { page: user, context, errors: userErrors } = await newPage(browser);
    await user.goto(invitationUrl);
    await user.getByText(`You are joining Atelier as ${userEmail}`).waitFor();
    await shot(user, 'onboarding');
    await user.getByLabel('Password', { exact: true }).fill('weak');
    await user.getByRole('button', { name: 'Next' }).click();
    expect(await user.getByLabel('Password', { exact: true }).isVisible()).toBe(true); // policy not met: stays
    await user.getByLabel('Password', { exact: true }).fill(USER_PASSWORD);
    await user.getByLabel('Confirm password').fill(USER_PASSWORD);
    await user.getByRole('button', { name: 'Next' }).click();
    expect(await user.getByLabel('First name').inputValue()).toBe('Mia');
    await user.getByLabel('Last name').fill('Rossi');
    await user.getByRole('button', { name: 'Next' }).click();
    await user.getByRole('button', { name: 'Finish' }).click();
    await user.getByText('You must accept the Terms of Service and Privacy Policy.').waitFor();
    await user.getByLabel('I accept the Terms of Service and Privacy Policy.').click();
    await user.getByRole('button', { name: 'Finish' }).click();
    await user.waitForURL(`${webUrl}/`);
    await user.getByRole('heading', { name: 'Welcome, Mia' }).waitFor();

    // Log out, and in again with the chosen password.
    await user.goto(`${webUrl}/logout`);
    await user.waitForURL(/\/login/);
    await login(user, webUrl, userEmail, USER_PASSWORD);
    await user.getByRole('heading', { name: 'Welcome, Mia' }).waitFor();
    const nav = user.getByRole('navigation', { name: 'Main navigation' });
    expect((await nav.getByRole('link').allTextContents()).map((t) => t.trim())).toEqual([
      'ChatBeta',
      'Analytics',
    ]);
    await shot(user, 'home-user');

    // The same link a second time: already used.
    const { page: again, context: againContext } = await newPage(browser);
    await again.goto(invitationUrl);
    await again.getByTestId('onboarding-invalid').waitFor();
    expect(await again.getByTestId('onboarding-invalid').textContent()).toContain('already been used');
    await againContext.close();

    // A user who opens /admin lands on /forbidden.
    await user.goto(`${webUrl}/admin`);
    await user.waitForURL(`${webUrl}/forbidden`);
    // The page is its own chunk: wait for it to render rather than look once.
    await user.getByText("Access Forbidden: You don't have permission to access this page.").waitFor();
    await shot(user, 'forbidden');
    await user.getByRole('link', { name: 'Go to Home' }).click();
    await user.waitForURL(`${webUrl}/`);
    // The user menu has no Administration entry.
    await user.getByRole('button', { name: 'My account' }).click();
    expect(await user.getByRole('menuitem', { name: 'Administration' }).count()).toBe(0);
    expect(userErrors).toEqual([]);
    await context.close();
  });

  it('switches to French in the profile and sees French', async () => {
    await page.goto(webUrl);
    await page.getByRole('button', { name: 'My account' }).click();
    await page.getByRole('menuitem', { name: 'My profile' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Last name').fill('Root');
    await dialog.getByRole('combobox', { name: 'Language' }).click();
    await page.getByRole('option', { name: 'Français' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('link', { name: 'Analyses', exact: true }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Navigation principale' }).textContent()).toContain(
      'Fournisseurs',
    );
    await page.reload();
    await page.getByRole('link', { name: 'Analyses', exact: true }).waitFor(); // the choice is kept
    await shot(page, 'home-fr');
  });

  it('switches to the dark theme, and keeps it', async () => {
    await page.getByRole('button', { name: 'Thème' }).click();
    await page.getByRole('menuitemradio', { name: 'Sombre' }).click();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await shot(page, 'home-dark');
    expect(background).not.toBe('rgb(255, 255, 255)');
  });

  it('an expired access token is refreshed and the request succeeds', async () => {
    const before = await page.evaluate(() => localStorage.getItem('refresh_token'));
    await page.evaluate(() => localStorage.setItem('access_token', 'expired.or.garbage'));
    await page.goto(`${webUrl}/admin/users`);
    await page.getByRole('cell', { name: userEmail, exact: true }).waitFor();
    const after = await page.evaluate(() => ({
      access: localStorage.getItem('access_token'),
      refresh: localStorage.getItem('refresh_token'),
    }));
    expect(after.access).not.toBe('expired.or.garbage');
    expect(after.access?.split('.')).toHaveLength(3);
    expect(after.refresh).not.toBe(before);
    expect(page.url()).toBe(`${webUrl}/admin/users`);
  });

  it('fits a phone: the menu opens, and closes after a choice', async () => {
    const { page: phone, context } = await newPage(browser, { width: 390, height: 844 });
    await login(phone, webUrl, admin.email, admin.password);
    await phone.getByRole('button', { name: /menu/i }).click();
    await phone.locator('#mobile-menu').waitFor();
    await shot(phone, 'phone-menu');
    await phone.locator('#mobile-menu').getByRole('link', { name: /Analy/ }).click();
    await phone.waitForURL(/\/analytics$/);
    expect(await phone.locator('#mobile-menu').count()).toBe(0);
    await shot(phone, 'phone-analytics');
    await context.close();
  });

  it('logs out', async () => {
    await page.goto(`${webUrl}/logout`);
    await page.waitForURL(/\/login/);
    expect(await page.evaluate(() => localStorage.getItem('refresh_token'))).toBeNull();
    await page.goto(`${webUrl}/admin/users`);
    await page.waitForURL(/\/login/);
    expect(errors).toEqual([]);
  });
});
