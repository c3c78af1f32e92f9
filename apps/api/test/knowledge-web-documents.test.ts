// Web pages added to a collection by their address (one page, or a sitemap's pages): queued, fetched by
// the ingestion worker through the SSRF guard, searchable with their address as source; added again,
// fetched anew into the same document.
import {
  sitemapXml,
  startFakeProvider,
  startFakeWeb,
  type FakeProvider,
  type FakeWeb,
} from '@atelier/testkit';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createOrg, startTestApp, type Org, type TestApp } from './helpers';
import { builtinCollection } from './knowledge-fixtures';

const PDF = new URL('../../../packages/knowledge/test/fixtures/sample.pdf', import.meta.url);

let t: TestApp;
let fake: FakeProvider;
let web: FakeWeb;
let org: Org;
let other: Org;
let collectionId: string;

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>` +
  '<nav><a href="/">Home</a> <a href="/shop">Shop the whole catalogue</a></nav>' +
  `<main><h1>${title}</h1><p>${body}</p></main><button>Accept cookies</button></body></html>`;

beforeAll(async () => {
  fake = await startFakeProvider();
  web = await startFakeWeb({
    routes: {
      '/guide': page(
        'Warranty guide',
        'Every Atelier kettle carries a warranty of three years from delivery.',
      ),
      '/faq': page('Questions', 'Descale the kettle every month with white vinegar.'),
      '/blog/launch': page('Launch', 'We opened our first shop in Lyon.'),
      '/notes.txt': { body: 'Plain notes: the spare lid is sold separately.', contentType: 'text/plain' },
      '/not-a-sitemap': page('Nothing', 'Not XML.'),
      // A PDF behind an address that names no file type: read as a PDF by its content.
      '/download': { body: readFileSync(PDF), contentType: 'application/pdf' },
    },
  });
  web.routes.set('/sitemap.xml', {
    body: sitemapXml([
      'javascript:alert(1)',
      `${web.url}/guide`,
      `${web.url}/faq`,
      `${web.url}/blog/launch`,
      `${web.url}/notes.txt`,
    ]),
    contentType: 'application/xml',
  });
  t = await startTestApp({ NODE_URL_ALLOW: '127.0.0.1' });
  org = await createOrg(t.app);
  other = await createOrg(t.app);
  const ws = await org.workspace(org.admin, 'Web');
  ({ collectionId } = await builtinCollection(t.app, org, ws, fake.url, 'Website'));
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await web?.close();
});

type Doc = {
  id: string;
  filename: string;
  source_url: string | null;
  type: string | null;
  status: string;
  error: string | null;
};
const token = () => org.admin.token;
const add = (body: object, as = token(), id = collectionId) =>
  call(t.app, 'POST', `/rag_collections/${id}/documents/web`, { token: as, body });

async function settled(timeoutMs = 60_000): Promise<Doc[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(t.app, 'GET', `/rag_collections/${collectionId}/documents`, { token: token() });
    const docs = res.body.documents as Doc[];
    if (docs.every((d) => d.status === 'ready' || d.status === 'failed')) return docs;
    if (Date.now() > until) throw new Error(`still ingesting: ${JSON.stringify(docs)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const ask = async (query: string) =>
  (
    await call(t.app, 'POST', `/rag_collections/${collectionId}/query`, {
      token: token(),
      body: { query, top_k: 2 },
    })
  ).body.documents as { content: string; source: { filename: string } }[];

describe('web pages in a collection', () => {
  it('adds one page by its address: fetched by the worker, its text without navigation or buttons', async () => {
    const res = await add({ url: `${web.url}/guide` });
    expect(res.status).toBe(202);
    const [queued] = res.body.documents as Doc[];
    expect(queued).toMatchObject({ filename: `${web.url}/guide`, source_url: `${web.url}/guide` });
    const [doc] = await settled();
    expect(doc).toMatchObject({ status: 'ready', type: 'html', error: null });
    expect((doc as unknown as { size_bytes: number }).size_bytes).toBeGreaterThan(100);
    const [best] = await ask('how long is the kettle warranty');
    expect(best!.source.filename).toBe(`${web.url}/guide`);
    expect(best!.content).toContain('warranty of three years');
    expect(best!.content).not.toMatch(/Shop the whole catalogue|Accept cookies/);
  });

  it("adds a sitemap's pages kept by the filter; a page added before is fetched anew into its document", async () => {
    const fetched = () => web.requests.filter((r) => r.path === '/guide').length;
    const before = fetched();
    const guideId = (await settled())[0]!.id;
    const res = await add({
      url: `${web.url}/sitemap.xml`,
      sitemap: true,
      filter: ['/guide', '/faq', '.txt'],
    });
    expect(res.status).toBe(202);
    expect((res.body.documents as Doc[]).map((d) => d.filename).sort()).toEqual(
      [`${web.url}/faq`, `${web.url}/guide`, `${web.url}/notes.txt`].sort(),
    );
    const docs = await settled();
    expect(docs.map((d) => [d.filename, d.status]).sort()).toEqual(
      [
        [`${web.url}/faq`, 'ready'],
        [`${web.url}/guide`, 'ready'],
        [`${web.url}/notes.txt`, 'ready'],
      ].sort(),
    );
    expect(docs.find((d) => d.filename === `${web.url}/guide`)!.id).toBe(guideId);
    expect(fetched()).toBe(before + 1);
    expect((await ask('how often should the kettle be descaled'))[0]!.source.filename).toBe(`${web.url}/faq`);
    expect((await ask('is the spare lid sold separately'))[0]!.content).toContain('spare lid');
    // At most max_pages of the sitemap's pages, and only http(s) addresses (never its javascript: one).
    const capped = await add({ url: `${web.url}/sitemap.xml`, sitemap: true, max_pages: 1 });
    expect((capped.body.documents as Doc[]).map((d) => d.filename)).toEqual([`${web.url}/guide`]);
    await settled();
  });

  it('a PDF behind an address is ingested as a PDF, its chunks knowing their page', async () => {
    expect((await add({ url: `${web.url}/download` })).status).toBe(202);
    const docs = await settled();
    expect(docs.find((d) => d.filename === `${web.url}/download`)).toMatchObject({
      status: 'ready',
      type: 'pdf',
    });
    const [best] = (await ask('the quick brown fox')) as unknown as {
      source: { filename: string };
      metadata: { page: number };
    }[];
    expect(best).toMatchObject({ source: { filename: `${web.url}/download` }, metadata: { page: 1 } });
  });

  it('a page that cannot be fetched fails with the reason; deleting it leaves the others', async () => {
    const res = await add({ url: `${web.url}/gone` });
    expect(res.status).toBe(202);
    const docs = await settled();
    const gone = docs.find((d) => d.filename === `${web.url}/gone`)!;
    expect(gone).toMatchObject({ status: 'failed' });
    expect(gone.error).toContain('status 404');
    const removed = await call(t.app, 'DELETE', `/rag_collections/${collectionId}/documents/${gone.id}`, {
      token: token(),
    });
    expect(removed.status).toBe(200);
    expect((await settled()).every((d) => d.status === 'ready')).toBe(true);
  });

  it('refuses a private address, a bad URL, a page that is no sitemap, another organization and too many pages', async () => {
    const count = async () => (await settled()).length;
    const before = await count();
    const metadata = await add({ url: 'http://169.254.169.254/latest/meta-data' });
    expect(metadata.status).toBeGreaterThanOrEqual(400);
    expect(metadata.status).toBeLessThan(500);
    expect(metadata.body.detail).toMatch(/page URL/i);
    expect(await add({ url: 'ftp://example.com/file' })).toMatchObject({
      status: 422,
      body: { code: 'invalid_url' },
    });
    expect(await add({ url: `${web.url}/not-a-sitemap`, sitemap: true })).toMatchObject({
      status: 422,
      body: { code: 'invalid_sitemap' },
    });
    expect(await add({ url: `${web.url}/sitemap.xml`, sitemap: true, filter: ['/nowhere'] })).toMatchObject({
      status: 422,
      body: { code: 'no_pages' },
    });
    expect((await add({ url: `${web.url}/guide` }, other.admin.token)).status).toBe(404);
    expect((await add({ url: `${web.url}/guide`, sitemap: true, max_pages: 501 })).status).toBe(422);
    expect(await count()).toBe(before);
  });
});
