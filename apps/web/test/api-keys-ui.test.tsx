import type { CreatedApiKey } from '@atelier/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiKeyCreateDialog } from '../src/features/studio/api-key-create-dialog';
import { ApiKeysSection } from '../src/features/studio/api-keys-section';
import { buttonNamed, flush, pageText, typeInto } from './dom-helpers';
import { reactRoot } from './react-root';

const KEY = `atl_${'k'.repeat(43)}`;
const created: CreatedApiKey = {
  id: 'k1',
  name: 'Website',
  prefix: KEY.slice(0, 12),
  created_at: '2025-01-01T00:00:00Z',
  last_used_at: null,
  key: KEY,
};

const dom = reactRoot();
afterEach(() => vi.unstubAllGlobals());
const render = dom.render;
const page = pageText;
const button = buttonNamed;
const type = typeInto;
/** Lets the queries settle until the page shows `text` (or gives up after a second). */
async function until(text: string) {
  for (let i = 0; i < 50 && !page().includes(text); i++)
    await act(() => new Promise((r) => setTimeout(r, 20)));
}

describe('the API key creation dialog', () => {
  it('requires a name, then shows the key once: closing forgets it', async () => {
    const onCreate = vi.fn(async () => created);
    const onClose = vi.fn();
    const dialog = (open: boolean) => createElement(ApiKeyCreateDialog, { open, onCreate, onClose });
    render(dialog(true));
    act(() => button('Create key').click());
    expect(page()).toContain('This field is required');
    expect(onCreate).not.toHaveBeenCalled();

    type(document.querySelector('input')!, '  Website ');
    act(() => button('Create key').click());
    await flush();
    expect(onCreate).toHaveBeenCalledWith('Website');
    expect(page()).toContain(KEY);
    expect(page()).toContain('it will not be shown again');
    expect(button('Copy')).toBeDefined();

    act(() => button('Done').click());
    expect(onClose).toHaveBeenCalled();
    render(dialog(false));
    render(dialog(true));
    expect(page()).not.toContain(KEY);
    expect(document.querySelector('input')!.value).toBe('');
  });
});

describe('the API keys section', () => {
  const section = () =>
    createElement(
      QueryClientProvider,
      { client: new QueryClient({ defaultOptions: { queries: { retry: false } } }) },
      createElement(ApiKeysSection, { chatbotId: 'c1' }),
    );
  const answer = (status: number, body: unknown) =>
    vi.fn(
      async () =>
        new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
    );

  it('shows loading, then the keys without the key itself', async () => {
    const { key: _secret, ...listed } = created;
    vi.stubGlobal('fetch', answer(200, { api_keys: [{ ...listed, last_used_at: null }] }));
    render(section());
    expect(page()).toContain('Loading the API keys…');
    await until('Website');
    expect(page()).toContain('Website');
    expect(page()).toContain(`${created.prefix}…`);
    expect(page()).toContain('never used');
    expect(page()).not.toContain(KEY);
    act(() => button('Revoke').click());
    expect(page()).toContain('Applications using this key stop working at once.');
  });

  it('shows an empty state with the creation button, and an error with a retry', async () => {
    vi.stubGlobal('fetch', answer(200, { api_keys: [] }));
    render(section());
    await until('No API keys yet');
    expect(page()).toContain('No API keys yet');
    expect(button('Create key')).toBeDefined();
    dom.remount();
    vi.stubGlobal('fetch', answer(500, { detail: 'Down', code: 'internal_error' }));
    render(section());
    await until('could not be loaded');
    expect(page()).toContain('The API keys could not be loaded.');
    expect(button('Try again')).toBeDefined();
  });
});
