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
