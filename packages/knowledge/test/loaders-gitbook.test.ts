import { type FakeGitbook, type FakeGitbookPage, startFakeGitbook } from '@atelier/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { loadDocuments } from '../src/loaders/index';
import { loaderDeps, req } from './loaders-helpers';

const PAGES: FakeGitbookPage[] = [
  { path: '', title: 'Welcome', html: '<p>Acme makes anvils.</p>' },
  { path: 'guides/setup', title: 'Setup', html: '<p>Install the anvil.</p><img src="a.png" alt="diagram">' },
  { path: 'guides/usage', title: 'Usage', html: '<p>Drop the anvil.</p>' },
  { path: 'faq', title: 'FAQ', html: '<p>Is it heavy? Yes.</p>' },
];

let site: FakeGitbook | undefined;
afterEach(() => site?.close());

const gitbook = (url: string, loadAllPaths: boolean) =>
  loadDocuments(req({ loader: 'gitbook', url, loadAllPaths }), loaderDeps());

describe('GitBook loader', () => {
  it('loads the one page: its main content and title, without header, sidebar or footer', async () => {
    site = await startFakeGitbook({ pages: PAGES });
    const docs = await gitbook(`${site.siteUrl}/guides/setup`, false);
    expect(docs).toEqual([
      {
        pageContent: 'Setup\n\nInstall the anvil.',
        metadata: { source: `${site.siteUrl}/guides/setup`, title: 'Setup' },
      },
    ]);
  });

  it('loads every page of the site from its sitemap index, below a base path', async () => {
    site = await startFakeGitbook({ pages: PAGES, basePath: '/docs', sitemap: 'index' });
    const docs = await gitbook(site.siteUrl, true);
    expect(docs.map((d) => d.metadata)).toEqual([
      { source: `${site.siteUrl}`, title: 'Welcome' },
      { source: `${site.siteUrl}/guides/setup`, title: 'Setup' },
      { source: `${site.siteUrl}/guides/usage`, title: 'Usage' },
      { source: `${site.siteUrl}/faq`, title: 'FAQ' },
    ]);
    expect(docs[3]!.pageContent).toBe('FAQ\n\nIs it heavy? Yes.');
    expect(site.requests.map((r) => r.path)).toContain('/docs/sitemap-pages.xml');
  });

  it('keeps to the pages below the given URL', async () => {
    site = await startFakeGitbook({ pages: PAGES, sitemap: 'flat' });
    const docs = await gitbook(`${site.siteUrl}/guides`, true);
    expect(docs.map((d) => d.metadata.title)).toEqual(['Setup', 'Usage']);
  });

  it('follows the navigation when the site has no sitemap', async () => {
    site = await startFakeGitbook({ pages: PAGES, sitemap: 'none' });
    const docs = await gitbook(`${site.siteUrl}/`, true);
    expect(docs.map((d) => d.metadata.title).sort()).toEqual(['FAQ', 'Setup', 'Usage', 'Welcome']);
    // the external link of the header (gitbook.com) is not followed
    expect(docs.every((d) => String(d.metadata.source).startsWith(site!.url))).toBe(true);
  });

  it('fails clearly when the page is missing', async () => {
    site = await startFakeGitbook({ pages: PAGES });
    await expect(gitbook(`${site.siteUrl}/nope`, false)).rejects.toMatchObject({
      code: 'page_unavailable',
      message: `${site.siteUrl}/nope answered with status 404.`,
    });
  });
});
