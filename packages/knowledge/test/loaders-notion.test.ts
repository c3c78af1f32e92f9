import { type FakeNotion, type FakeNotionPage, startFakeNotion, startFakeWeb } from '@atelier/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { loadDocuments } from '../src/loaders/index';
import { loaderDeps, req } from './loaders-helpers';

const DB = '0123456789abcdef0123456789abcdef';
const TOKEN = 'secret_notion_token';

const page = (n: number, extra: Partial<FakeNotionPage> = {}): FakeNotionPage => ({
  title: `Page ${n}`,
  properties: {
    Rank: n,
    Published: n % 2 === 0,
    Tags: n === 1 ? ['tea', 'green'] : ['coffee'],
    Summary: `Summary ${n}`,
  },
  blocks: [{ type: 'paragraph', text: `Body of page ${n}.` }],
  ...extra,
});

let notion: FakeNotion | undefined;
afterEach(() => notion?.close());

const load = (
  options: { token?: string; db?: string; filter?: Record<string, unknown>; timeoutMs?: number } = {},
) =>
  loadDocuments(
    req({
      loader: 'notion',
      integrationToken: options.token ?? TOKEN,
      databaseId: options.db ?? DB,
      filter: options.filter ?? {},
      timeoutMs: options.timeoutMs ?? 5000,
    }),
    loaderDeps({ endpoints: { notion: notion!.url } }),
  );

const queries = () => notion!.requests.filter((r) => r.path.endsWith('/query'));

describe('Notion database loader', () => {
  it('pages through the database and through every page’s blocks', async () => {
    const blocks = Array.from({ length: 5 }, (_, i) => ({ type: 'paragraph', text: `Line ${i + 1}` }));
    notion = await startFakeNotion({
      token: TOKEN,
      pageSize: 2,
      databases: { [DB]: [page(1, { blocks }), page(2), page(3), page(4), page(5)] },
    });
    const docs = await load();
    expect(docs.map((d) => d.metadata.title)).toEqual(['Page 1', 'Page 2', 'Page 3', 'Page 4', 'Page 5']);
    expect(docs[0]!.pageContent).toBe('Line 1\nLine 2\nLine 3\nLine 4\nLine 5');
    expect(queries().map((r) => JSON.parse(r.body) as unknown)).toEqual([
      { page_size: 100 },
      { page_size: 100, start_cursor: '2' },
      { page_size: 100, start_cursor: '4' },
    ]);
    const firstPageBlocks = notion.requests.filter((r) => r.path.includes(notion!.pageIds['Page 1']!));
    expect(firstPageBlocks.map((r) => r.path.split('?')[1])).toEqual([
      'page_size=100',
      'page_size=100&start_cursor=2',
      'page_size=100&start_cursor=4',
    ]);
    expect(queries()[0]!.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      'notion-version': '2022-06-28',
    });
  });

  it('flattens blocks to text (nested ones indented) and gives the properties as metadata', async () => {
    notion = await startFakeNotion({
      token: TOKEN,
      databases: {
        [DB]: [
          page(1, {
            blocks: [
              { type: 'heading_1', text: 'Brewing' },
              {
                type: 'bulleted_list_item',
                text: 'Water',
                children: [{ type: 'paragraph', text: 'at 80°C' }],
              },
              { type: 'to_do', text: 'Buy leaves', checked: true },
              { type: 'code', text: 'brew()', language: 'javascript' },
              { type: 'divider' },
              { type: 'child_page', text: 'Sub page' },
            ],
          }),
        ],
      },
    });
    const [doc] = await load();
    expect(doc!.pageContent).toBe(
      '# Brewing\n- Water\n  at 80°C\n[x] Buy leaves\n```javascript\nbrew()\n```\nSub page',
    );
    expect(doc!.metadata).toEqual({
      Name: 'Page 1',
      Rank: 1,
      Published: false,
      Tags: ['tea', 'green'],
      Summary: 'Summary 1',
      id: notion.pageIds['Page 1'],
      source: expect.stringMatching(/^https:\/\/www\.notion\.so\/Page-1-[0-9a-f]{32}$/) as unknown,
      title: 'Page 1',
    });
  });

  it('sends the filter object, and none when it is empty', async () => {
    notion = await startFakeNotion({
      token: TOKEN,
      databases: { [DB]: [page(1), page(2), page(3), page(4)] },
    });
    const filter = {
      and: [
        { property: 'Published', checkbox: { equals: true } },
        { property: 'Rank', number: { greater_than: 2 } },
      ],
    };
    expect((await load({ filter })).map((d) => d.metadata.title)).toEqual(['Page 4']);
    expect(JSON.parse(queries()[0]!.body)).toEqual({ filter, page_size: 100 });
    await expect(load({ filter: { property: 'Nope', checkbox: { equals: true } } })).rejects.toMatchObject({
      status: 422,
      message: 'Notion refused the request: Could not find property with name or id: Nope',
    });
  });

  it('accepts the database id with dashes or as the database URL', async () => {
    notion = await startFakeNotion({ token: TOKEN, databases: { [DB]: [page(1)] } });
    const dashed = `01234567-89ab-cdef-0123-456789abcdef`;
    expect(await load({ db: dashed })).toHaveLength(1);
    expect(
      await load({ db: `https://www.notion.so/acme/${DB}?v=fedcba9876543210fedcba9876543210` }),
    ).toHaveLength(1);
    await expect(load({ db: 'not-an-id' })).rejects.toMatchObject({
      status: 422,
      code: 'invalid_database_id',
    });
  });

  it('says when the token is refused, missing, or the database unknown', async () => {
    notion = await startFakeNotion({ token: TOKEN, databases: { [DB]: [page(1)] } });
    await expect(load({ token: 'wrong' })).rejects.toMatchObject({
      status: 401,
      retryable: false,
      message: 'The Notion integration token was refused.',
    });
    const before = notion.requests.length;
    await expect(load({ token: ' ' })).rejects.toMatchObject({
      code: 'missing_token',
      message: 'The Notion loader needs an integration token.',
    });
    expect(notion.requests.length).toBe(before);
    await expect(load({ db: 'ffffffffffffffffffffffffffffffff' })).rejects.toMatchObject({
      status: 404,
      message: expect.stringContaining('shared with the integration') as unknown,
    });
  });

  it('honors the request timeout', async () => {
    notion = await startFakeNotion({ token: TOKEN, delayMs: 1500, databases: { [DB]: [page(1)] } });
    const started = Date.now();
    await expect(load({ timeoutMs: 200 })).rejects.toMatchObject({ code: 'request_timeout' });
    expect(Date.now() - started).toBeLessThan(1200);
  });

  it('tries again after 429 (Retry-After), then says Notion is limiting requests', async () => {
    const busy = await startFakeWeb({
      routes: {
        [`/v1/databases/${DB}/query`]: {
          status: 429,
          headers: { 'retry-after': '0' },
          contentType: 'application/json',
          body: '{}',
        },
      },
    });
    try {
      const request = req({
        loader: 'notion',
        integrationToken: TOKEN,
        databaseId: DB,
        filter: {},
        timeoutMs: 1000,
      });
      await expect(
        loadDocuments(request, loaderDeps({ endpoints: { notion: busy.url } })),
      ).rejects.toMatchObject({
        status: 429,
        retryable: true,
        message: 'Notion is limiting requests; try again later.',
      });
      expect(busy.requests).toHaveLength(4);
    } finally {
      await busy.close();
    }
  });
});
