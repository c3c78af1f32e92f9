import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { strToU8, zipSync } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  addFakeEmbeddings,
  addFakeModel,
  addFakeProvider,
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
const fakeWebUrl = inject('fakeWebUrl');
/** The repository's root (the knowledge package's fixtures are read from there). */
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const WORKSPACE = 'Knowledge lab';
const COLLECTION = 'Employee handbook';
/** A document of our own with a fact found nowhere else. */
const HANDBOOK = [
  '# Leave policy',
  '',
  'Every employee of Atelier Lab has 27 days of paid annual leave, plus public holidays.',
  'Requests go through the HR portal at least two weeks ahead.',
  '',
  '# Expenses',
  '',
  'Train tickets are reimbursed in second class; taxis only after 22:00.',
].join('\n');

let browser: Browser;
let page: Page;
let errors: string[];
let workspaceId: string | null = null;
let collectionId = '';

const call: ReturnType<typeof apiAs> = (...args) => apiAs(page, apiUrl)(...args);
const next = () => page.getByRole('button', { name: 'Next', exact: true });

beforeAll(async () => {
  if (inject('noBrowser')) return;
  browser = await launch();
  ({ page, errors } = await newPage(browser, { width: 1366 }));
});
afterAll(async () => {
  if (page && workspaceId) await call('DELETE', `/workspaces/${workspaceId}`).catch(() => undefined);
  await browser?.close();
});

describe.skipIf(inject('noBrowser'))('knowledge in a browser', () => {
  it('prepares its own workspace with an embeddings model on the fake provider', async () => {
    expect(fakeProviderUrl).toMatch(/^https?:\/\//);
    await login(page, webUrl, admin.email, admin.password);
    workspaceId = await createWorkspaceInUi(page, WORKSPACE);
    expect(workspaceId).toMatch(/^[0-9a-f-]{36}$/);
    const providerId = await addFakeProvider(call, workspaceId!, fakeProviderUrl, 'Fake');
    await addFakeEmbeddings(call, workspaceId!, providerId, 'Fake embeddings');
  });

  it('shows the empty page, then the built-in connector', async () => {
    await page.goto(`${webUrl}/knowledges`);
    await page.getByRole('heading', { name: 'Knowledge', exact: true }).waitFor();
    await page.getByText('No collections yet').waitFor();
    await page.getByRole('tab', { name: 'Connectors' }).click();
    await page.getByTestId('connector-card').filter({ hasText: 'Atelier database' }).waitFor();
    await shot(page, 'knowledge-connectors');
    await page.getByRole('tab', { name: 'Collections' }).click();
  });

  it('creates a collection with the three-step wizard', async () => {
    await page.getByRole('link', { name: 'Create a collection' }).first().click();
    await page.waitForURL(/\/knowledges\/collections\/create$/);
    await page.getByText('Step 1 of 3').waitFor();
    // The built-in store is the default source.
    await page.getByRole('radio', { name: /Atelier database/ }).waitFor();
    expect(await page.getByRole('radio', { name: /Atelier database/ }).getAttribute('aria-checked')).toBe(
      'true',
    );
    await next().click();
    await page.getByText('Step 2 of 3').waitFor();
    expect(await next().isDisabled()).toBe(true); // the valid-step flag: no name, no model yet

    // Reset goes back to the first step with nothing kept.
    await page.getByLabel('Name', { exact: true }).fill('Will be cleared');
    await page.getByRole('button', { name: 'Reset' }).click();
    await page.getByText('Step 1 of 3').waitFor();
    await next().click();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('');

    await page.getByLabel('Name', { exact: true }).fill(COLLECTION);
    await page.getByLabel('Embeddings model').click();
    await page.getByRole('option', { name: /Fake embeddings/ }).click();
    await page.getByLabel('Chunk size (characters)').fill('400');
    await page.getByLabel('Chunk overlap').fill('40');
    await next().click();
    await page.getByText('Step 3 of 3').waitFor();
    await page.getByTestId('wizard-summary').getByText(COLLECTION).waitFor();
    await shot(page, 'knowledge-wizard-finalize');
    await page.getByRole('button', { name: 'Create the collection' }).click();
    await page.waitForURL(/\/knowledges\/collections\/edit\/[0-9a-f-]{36}$/);
    collectionId = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: COLLECTION }).waitFor();
    await page.getByText('No documents yet').waitFor();
  });

  it('uploads a document and follows it to ready', async () => {
    await page.getByLabel('Choose files', { exact: true }).setInputFiles({
      name: 'handbook.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from(HANDBOOK),
    });
    const row = page.getByTestId('document-row').filter({ hasText: 'handbook.md' });
    await row.waitFor();
    await page.waitForSelector('[data-testid=document-row][data-status=ready]', { timeout: 60_000 });
    await row.getByText(/\d+ chunks?/).waitFor();
    await shot(page, 'knowledge-documents');
    const { documents } = await call<{ documents: { status: string; chunk_count: number }[] }>(
      'GET',
      `/rag_collections/${collectionId}/documents`,
    );
    expect(documents).toHaveLength(1);
    expect(documents[0]!.status).toBe('ready');
    expect(documents[0]!.chunk_count).toBeGreaterThan(0);
  });

  it("shows the document's chunks as they were stored", async () => {
    await page.getByRole('button', { name: 'Show the chunks of handbook.md' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('document-chunk').first().waitFor();
    await dialog
      .getByText(/27 days of paid annual leave/)
      .first()
      .waitFor();
    await dialog.getByText(/^Chunks 1–\d+ of \d+$/).waitFor();
    await shot(page, 'knowledge-document-chunks');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('the test retrieval box shows a chunk with its score, file and index', async () => {
    await page.getByRole('tab', { name: 'Test retrieval' }).click();
    await page.getByLabel('Question').fill('How many days of paid annual leave?');
    await page.getByRole('button', { name: 'Search' }).click();
    const chunk = page.getByTestId('retrieved-chunk').first();
    await chunk.waitFor();
    await chunk.getByText('handbook.md').waitFor();
    expect(await chunk.textContent()).toMatch(/-?\d+\.\d\d\s*handbook\.md\s*chunk \d+/);
    expect(await page.getByTestId('retrieval-results').textContent()).toContain('27 days');
    await shot(page, 'knowledge-retrieval');
  });

  it('a simple chatbot built in the studio answers from the document and shows its source', async () => {
    await addFakeModel(call, workspaceId!, fakeProviderUrl, {
      provider: 'Fake chat',
      model: 'Fake chat model',
    });
    await page.goto(`${webUrl}/studio`);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name', { exact: true }).fill('Handbook helper');
    await dialog.getByRole('radio', { name: /^Simple/ }).check();
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByLabel('Instruction', { exact: true }).fill('Answer from the handbook.');
    await page.getByRole('combobox', { name: 'Model', exact: true }).click();
    await page.getByRole('option', { name: /Fake chat model/ }).click();
    await page.getByRole('checkbox', { name: COLLECTION }).click();
    await page.getByRole('button', { name: 'Save & Publish' }).click();
    await page.getByText('Saved and published.').first().waitFor();

    await page.goto(`${webUrl}/chat`);
    await page.getByRole('button', { name: 'New conversation with Handbook helper' }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('How many days of paid annual leave do employees have?');
    await box.press('Enter');
    const answer = page.getByTestId('assistant-message').last();
    const sources = answer.getByTestId('answer-sources');
    await sources.waitFor({ timeout: 30_000 });
    await sources.getByTestId('answer-source-name').getByText('handbook.md').first().waitFor();
    await page.waitForSelector('[data-testid=assistant-message][data-state=done]', { timeout: 30_000 });
    await shot(page, 'knowledge-chat-sources');
    // Reopened, the conversation keeps the answer's sources.
    await page.reload();
    await page.getByTestId('conversation-item').first().click();
    await page.getByTestId('assistant-message').last().getByTestId('answer-sources').waitFor();
  });

  it("the chatbot's embedded chat shows a website visitor the answer's sources too", async () => {
    const { chatbots } = await call<{ chatbots: { id: string; name: string }[] }>(
      'GET',
      `/chatbots?workspace_id=${workspaceId}`,
    );
    const bot = chatbots.find((c) => c.name === 'Handbook helper');
    expect(bot).toBeDefined();
    const { embed } = await call<{ embed: { token: string } }>('PUT', `/chatbots/${bot!.id}/embed`, {
      enabled: true,
      allowed_origins: ['https://handbook.example'],
    });
    await page.setViewportSize({ width: 390, height: 780 });
    await page.goto(`${apiUrl}/embed/${embed.token}?lang=fr`);
    const box = page.getByRole('textbox', { name: 'Écrivez votre message…' });
    await box.fill('How many days of paid annual leave do employees have?');
    await box.press('Enter');
    const answer = page.locator('[data-role=assistant]').last();
    const sources = answer.getByTestId('embed-sources');
    await sources.waitFor({ timeout: 30_000 });
    expect(await sources.textContent()).toContain('Sources');
    // Opened once the answer has ended (while it streams, the list scrolls under the pointer).
    await page.locator('[data-testid=embed-messages][aria-busy=false]').waitFor();
    const first = sources.getByTestId('embed-source-name').filter({ hasText: 'handbook.md' }).first();
    await first.click();
    // Opened, a source shows its passage.
    await sources
      .getByText(/27 days of paid annual leave/)
      .first()
      .waitFor();
    await page.getByRole('button', { name: 'Envoyer' }).waitFor();
    await shot(page, 'knowledge-embed-sources-390-fr');
    // Back on the page later, the answer keeps its sources (read from the conversation's history).
    await page.reload();
    await page.locator('[data-role=assistant]').last().getByTestId('embed-sources').waitFor();
    await page.setViewportSize({ width: 1366, height: 800 });
  });

  it('adds a help-center page by its address and finds it in test retrieval', async () => {
    await page.goto(`${webUrl}/knowledges/collections/edit/${collectionId}`);
    await page.getByRole('button', { name: 'Add from the web' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Page or sitemap address').fill(`${fakeWebUrl}/help/returns`);
    await shot(page, 'knowledge-web-dialog');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    // The row names the page by its path, its site beside.
    const row = page.getByTestId('document-row').filter({ hasText: '/help/returns' });
    await row.and(page.locator('[data-status=ready]')).waitFor({ timeout: 60_000 });
    // Fetched again from its row: queued anew, then ready again.
    await row.getByRole('button', { name: 'Fetch /help/returns again' }).click();
    await page.getByText('The page will be fetched again.').waitFor();
    await row.and(page.locator('[data-status=ready]')).waitFor({ timeout: 60_000 });
    await page.getByRole('tab', { name: 'Test retrieval' }).click();
    await page
      .getByLabel('Question')
      .fill('Within how many days may lamps bought at Atelier Lab be returned?');
    await page.getByRole('button', { name: 'Search' }).click();
    const chunk = page.getByTestId('retrieved-chunk').filter({ hasText: `${fakeWebUrl}/help/returns` });
    await chunk.waitFor();
    expect(await chunk.textContent()).toContain('returned within 60 days');
    expect(await chunk.textContent()).not.toContain('Home · Shop');
  });

  it('uploads a folder: its documents named by their path in it, its clutter left out, other types counted', async () => {
    const root = mkdtempSync(join(tmpdir(), 'atelier-folder-'));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    write('policies/2024/leave.md', '# Leave 2024\n\nTwenty-five days of paid leave in 2024.');
    write('policies/2023/leave.md', '# Leave 2023\n\nTwenty-two days of paid leave in 2023.');
    write('policies/.DS_Store', 'Finder bookkeeping');
    write('policies/setup.exe', 'MZ');
    await page.getByRole('tab', { name: 'Documents' }).click();
    await page.getByLabel('Choose a folder', { exact: true }).setInputFiles(join(root, 'policies'));
    await page.getByText('1 file of the folder was left out: Atelier does not read its type.').waitFor();
    for (const name of ['policies/2024/leave.md', 'policies/2023/leave.md']) {
      const row = page.getByTestId('document-row').filter({ hasText: name });
      await row.and(page.locator('[data-status=ready]')).waitFor({ timeout: 60_000 });
    }
    await shot(page, 'knowledge-folder');
    rmSync(root, { recursive: true, force: true });
  });

  it("gives each year's policy a field, and test retrieval keeps to the documents of one value", async () => {
    for (const year of ['2024', '2023']) {
      const name = `policies/${year}/leave.md`;
      await page.getByRole('button', { name: `Edit the fields of ${name}` }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Name of field 1').fill('year');
      await dialog.getByLabel('Value of field 1').fill(year);
      await dialog.getByRole('button', { name: 'Add a field' }).click();
      await dialog.getByLabel('Name of field 2').fill('Filename');
      await dialog.getByLabel('Value of field 2').fill('x');
      await dialog.getByRole('button', { name: 'Save', exact: true }).click();
      // A name Atelier uses itself is refused before anything is sent.
      await dialog
        .getByText('Atelier already uses this name for its own metadata; choose another.')
        .waitFor();
      if (year === '2024') await shot(page, 'knowledge-fields-dialog');
      await dialog.getByRole('button', { name: 'Remove field 2' }).click();
      await dialog.getByRole('button', { name: 'Save', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByLabel(`Fields of ${name}`).getByText(`year: ${year}`).waitFor();
    }
    await shot(page, 'knowledge-fields');
    await page.getByRole('tab', { name: 'Test retrieval' }).click();
    await page.getByLabel('Question').fill('How many days of paid leave?');
    await page.getByRole('combobox', { name: 'Only documents where' }).click();
    await page.getByRole('option', { name: 'year', exact: true }).click();
    await page.getByLabel('Value of year').fill('2023');
    await page.getByRole('button', { name: 'Search' }).click();
    const results = page.getByTestId('retrieval-results');
    await results.getByText('policies/2023/leave.md').first().waitFor();
    expect(await results.textContent()).not.toContain('policies/2024/leave.md');
    expect(await results.textContent()).not.toContain('handbook.md');
    await shot(page, 'knowledge-retrieval-filter');
  });

  it('gives several chosen documents a field at once, and removes one from them', async () => {
    await page.getByRole('tab', { name: 'Documents' }).click();
    for (const year of ['2024', '2023']) {
      await page.getByRole('checkbox', { name: `Select policies/${year}/leave.md` }).click();
    }
    const selection = page.getByTestId('documents-selection');
    await selection.getByText('2 selected').waitFor();
    await selection.getByRole('button', { name: 'Edit fields' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Fields of 2 documents' }).waitFor();
    await dialog.getByLabel('Name of field 1').fill('department');
    await dialog.getByLabel('Value of field 1').fill('HR');
    await dialog.getByRole('checkbox', { name: 'year' }).click();
    await shot(page, 'knowledge-fields-many');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    for (const year of ['2024', '2023']) {
      const fields = page.getByLabel(`Fields of policies/${year}/leave.md`, { exact: true });
      await fields.getByText('department: HR').waitFor();
      expect(await fields.textContent()).not.toContain('year');
    }
    // Saved, the choice is cleared; the handbook was not chosen and has no field.
    await selection.getByText('Select all').waitFor();
    expect(await page.getByLabel('Fields of handbook.md', { exact: true }).count()).toBe(0);
  });

  it('uploads a .zip: its Word, Excel and PowerPoint files (old formats too) as documents, what it left out named', async () => {
    const fixture = (name: string) =>
      new Uint8Array(readFileSync(join(repoRoot, 'packages/knowledge/test/fixtures', name)));
    const dir = mkdtempSync(join(tmpdir(), 'atelier-zip-'));
    const archive = join(dir, 'minutes.zip');
    writeFileSync(
      archive,
      zipSync({
        'notes.rtf': fixture('sample.rtf'),
        'budget.xls': fixture('sample.xls'),
        'review.ppt': fixture('sample.ppt'),
        'logo.svg': strToU8('<svg/>'),
      }),
    );
    await page.getByLabel('Choose files', { exact: true }).setInputFiles(archive);
    await page.getByText('1 file of the archive was left out').waitFor();
    await page.getByText('minutes/logo.svg: Atelier does not read this type').waitFor();
    for (const name of ['minutes/notes.rtf', 'minutes/budget.xls', 'minutes/review.ppt']) {
      const row = page.getByTestId('document-row').filter({ hasText: name });
      await row.and(page.locator('[data-status=ready]')).waitFor({ timeout: 60_000 });
    }
    await shot(page, 'knowledge-zip');
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the collection with its counts, and no page error happened', async () => {
    await page.goto(`${webUrl}/knowledges`);
    const card = page.getByTestId('collection-card').filter({ hasText: COLLECTION });
    await card.waitFor();
    expect(await card.textContent()).toMatch(/Documents\s*7/);
    await shot(page, 'knowledge-collections');
    expect(errors).toEqual([]);
  });
});
