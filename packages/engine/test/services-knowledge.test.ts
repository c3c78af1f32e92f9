import type { FlowDocument } from '@atelier/schemas';
import { describe, expect, it } from 'vitest';
import type { HttpServiceRequest, KnowledgeServices, LoaderRequest } from '../src';
import { node, runNode, stubServices } from './helpers';

const doc = (pageContent: string, metadata: Record<string, unknown> = {}): FlowDocument => ({
  pageContent,
  metadata,
});

describe('knowledge nodes without the knowledge capability', () => {
  it.each([
    node('knowledge_retrieve', 'kr01', { query: 'q', collection_id: 'c1' }),
    node('vector_store_insert', 'vi01', { documents: 'text', collection_id: 'c1' }),
    node('vector_store_delete', 'vd01', {
      deletion_condition_expr: 'x == 1',
      collection_id: 'c1',
      continue_on_failure: true,
    }),
    node('web_scraper', 'ws01', { url: 'https://example.com' }),
    node('sitemap_scraper', 'sm01', { url: 'https://example.com/sitemap.xml' }),
    node('gitbook_loader', 'gb01', { url: 'https://docs.example.com' }),
    node('notion_loader', 'no01', { integration_token: 't', database_id: 'd' }),
    node('figma_loader', 'fi01', { file_key: 'k', access_token: 't' }),
  ])('$type fails with a clear message', async (target) => {
    const { result } = await runNode(target, stubServices({ knowledge: {} }));
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(
      /requires the knowledge capability \(\w+\), which this server does not provide\.$/,
    );
  });
});

describe('knowledge nodes with the capability', () => {
  it('knowledge_retrieve asks for number_documents passages and gives them with their text', async () => {
    const calls: unknown[] = [];
    const knowledge: KnowledgeServices = {
      retrieve: async (req) => {
        calls.push(req);
        return [doc('Paris is the capital.', { source: 'a' }), doc('It has 2M people.')];
      },
    };
    const retrieve = node('knowledge_retrieve', 'kr01', {
      query: '{{#input_in01.query#}}',
      collection_id: 'col-1',
    });
    const { outputs } = await runNode(retrieve, stubServices({ knowledge }), { query: 'Paris?' });
    expect(calls[0]).toMatchObject({ collectionId: 'col-1', query: 'Paris?', limit: 10, filter: undefined });
    expect(outputs).toEqual({
      documents: [doc('Paris is the capital.', { source: 'a' }), doc('It has 2M people.')],
      context: 'Paris is the capital.\n\n---\n\nIt has 2M people.',
    });
  });

  it("knowledge_retrieve searching the run's question passes the conversation's earlier questions", async () => {
    const calls: { query: string; earlier?: readonly string[] }[] = [];
    const knowledge: KnowledgeServices = {
      retrieve: async (req) => {
        calls.push(req);
        return [];
      },
    };
    const history = [
      { role: 'user', content: 'When do orders ship?' },
      { role: 'assistant', content: 'On Tuesdays.' },
      { role: 'user', content: [{ type: 'text', text: 'From Lyon?' }] },
      { role: 'assistant', content: 'Yes.' },
    ];
    const inputs = { query: 'Within how many days?', history };
    const ofRun = node('knowledge_retrieve', 'kr01', {
      query: '{{#input_in01.query#}}',
      collection_id: 'c1',
    });
    await runNode(ofRun, stubServices({ knowledge }), inputs);
    expect(calls[0]).toMatchObject({
      query: 'Within how many days?',
      earlier: ['When do orders ship?', 'From Lyon?'],
    });
    // A node searching something else than the run's question searches it alone.
    const other = node('knowledge_retrieve', 'kr02', { query: 'shipping delays', collection_id: 'c1' });
    await runNode(other, stubServices({ knowledge }), inputs);
    expect(calls[1]).toMatchObject({ query: 'shipping delays', earlier: [] });
  });

  it('loaders pass their settings to services.knowledge.load', async () => {
    const calls: LoaderRequest[] = [];
    const knowledge: KnowledgeServices = {
      load: async (req) => {
        calls.push(req);
        return [doc(`loaded by ${req.loader}`)];
      },
    };
    const services = stubServices({ knowledge });
    const web = await runNode(
      node('web_scraper', 'ws01', { url: 'https://example.com', ignore_links: false }),
      services,
    );
    expect(web.outputs).toEqual({ documents: [doc('loaded by web')], content: 'loaded by web' });
    await runNode(
      node('notion_loader', 'no01', {
        integration_token: 'secret',
        database_id: 'db',
        filter_object: '{"property":"Done"}',
      }),
      services,
    );
    await runNode(
      node('figma_loader', 'fi01', { file_key: 'FILE', node_ids: '1:2, 3:4', toolId: 'tool-9' }),
      services,
    );
    await runNode(
      node('sitemap_scraper', 'sm01', { url: 'https://x.dev/sitemap.xml', filter_urls: '/docs, /blog' }),
      services,
    );
    await runNode(
      node('gitbook_loader', 'gb01', { url: 'https://docs.x.dev', load_all_paths: true }),
      services,
    );
    const strip = ({ signal: _s, ...rest }: LoaderRequest) => rest;
    expect(calls.map(strip)).toEqual([
      { loader: 'web', url: 'https://example.com', ignoreLinks: false, ignoreImages: true },
      {
        loader: 'notion',
        integrationToken: 'secret',
        databaseId: 'db',
        filter: { property: 'Done' },
        timeoutMs: 10_000,
      },
      { loader: 'figma', fileKey: 'FILE', nodeIds: ['1:2', '3:4'], accessToken: undefined, toolId: 'tool-9' },
      { loader: 'sitemap', url: 'https://x.dev/sitemap.xml', filterUrls: ['/docs', '/blog'], maxPages: 50 },
      { loader: 'gitbook', url: 'https://docs.x.dev', loadAllPaths: true },
    ]);
  });

  it('the figma loader needs a token or a tool', async () => {
    const { error } = await runNode(
      node('figma_loader', 'fi01', { file_key: 'k' }),
      stubServices({ knowledge: { load: async () => [] } }),
    );
    expect(error).toMatch(/needs an access token or a configured Figma tool/);
  });

  it('vector_store_insert sends the documents to the chosen target', async () => {
    const calls: unknown[] = [];
    const knowledge: KnowledgeServices = {
      insert: async (req) => {
        calls.push(req);
        return { inserted: req.documents.length, collectionId: 'new-col' };
      },
    };
    const insert = node('vector_store_insert', 'vi01', {
      documents: ['one', { pageContent: 'two', metadata: { n: 2 } }],
      mode: 'custom',
      rag_connector_id: 'conn-1',
      collection_name: 'faq',
      embeddings_model_id: 'emb-1',
      smart_insertion: 'true',
    });
    const { outputs } = await runNode(insert, stubServices({ knowledge }));
    expect(calls[0]).toMatchObject({
      documents: [doc('one'), doc('two', { n: 2 })],
      target: { mode: 'custom', connectorId: 'conn-1', collectionName: 'faq' },
      embeddingsModelId: 'emb-1',
      smartInsertion: true,
    });
    expect(outputs).toEqual({ inserted: 2, collection_id: 'new-col' });
  });

  it('vector_store_delete reports zero deletions on failure when asked to continue', async () => {
    const knowledge: KnowledgeServices = {
      deleteRecords: async () => {
        throw new Error('store offline');
      },
    };
    const settings = { deletion_condition_expr: 'source == "x"', collection_id: 'c1' };
    const lenient = await runNode(
      node('vector_store_delete', 'vd01', { ...settings, continue_on_failure: true }),
      stubServices({ knowledge }),
    );
    expect(lenient.outputs).toEqual({ deleted: 0, error: 'store offline' });
    const strict = await runNode(node('vector_store_delete', 'vd01', settings), stubServices({ knowledge }));
    expect(strict.error).toMatch(/store offline$/);
  });
});

describe('document metadata', () => {
  const docs = [doc('a', { author: { name: 'Ada' }, year: 1843 }), doc('b', { year: 1950 })];

  it('extracts a field from one document or from each of a list', async () => {
    const many = await runNode(
      node('metadata_extraction', 'me01', { document: docs, metadata_field: 'year' }),
      stubServices(),
    );
    expect(many.outputs).toEqual({ value: [1843, 1950] });
    const one = await runNode(
      node('metadata_extraction', 'me01', { document: docs[0], metadata_field: 'author.name' }),
      stubServices(),
    );
    expect(one.outputs).toEqual({ value: 'Ada' });
  });

  it('updates metadata, overwriting or not', async () => {
    const set = { year: 2000, source: 'import' };
    const over = await runNode(
      node('metadata_update', 'mu01', { documents: docs, metadata: set }),
      stubServices(),
    );
    expect(over.outputs).toEqual({
      documents: [
        doc('a', { author: { name: 'Ada' }, year: 2000, source: 'import' }),
        doc('b', { year: 2000, source: 'import' }),
      ],
    });
    const keep = await runNode(
      node('metadata_update', 'mu01', { documents: docs, metadata: set, overwrite: false }),
      stubServices(),
    );
    expect((keep.outputs!.documents as FlowDocument[]).map((d) => d.metadata.year)).toEqual([1843, 1950]);
  });
});

describe('api_request', () => {
  const json = (value: unknown, status = 200) => ({
    status,
    statusText: status === 200 ? 'OK' : 'Not Found',
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: new Uint8Array(Buffer.from(JSON.stringify(value))),
  });

  it('sends method, URL with query parameters, headers and a JSON body, and parses a JSON answer', async () => {
    const calls: HttpServiceRequest[] = [];
    const http = async (req: HttpServiceRequest) => {
      calls.push(req);
      return json({ id: 7, ok: true });
    };
    const request = node('api_request', 'ap01', {
      method: 'POST',
      url: 'https://api.example.com/items?x=1',
      query_params: { q: '{{#input_in01.query#}}', tag: ['a', 'b'] },
      headers: { Authorization: 'Bearer t' },
      body: '{"name": "{{#input_in01.query#}}"}',
      timeout_sec: 5,
    });
    const { outputs } = await runNode(request, stubServices({ http }), { query: 'lamp' });
    const { signal: _signal, ...sent } = calls[0]!;
    expect(sent).toEqual({
      method: 'POST',
      url: 'https://api.example.com/items?x=1&q=lamp&tag=a&tag=b',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: '{"name": "lamp"}',
      timeoutMs: 5000,
    });
    expect(outputs).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: { id: 7, ok: true },
    });
  });

  it('fails on an error status without retrying a client error, or gives the status when told to', async () => {
    let calls = 0;
    const http = async () => {
      calls++;
      return json({ error: 'missing' }, 404);
    };
    const base = { url: 'https://api.example.com/x' };
    const failing = node('api_request', 'ap01', base, {
      data: { label: 'Fetch', retry: { max: 3, backoffMs: 0 } },
    });
    const { error } = await runNode(failing, stubServices({ http }));
    expect(error).toBe('Fetch failed: The API answered 404 Not Found: {"error":"missing"}');
    expect(calls).toBe(1);
    const lenient = await runNode(
      node('api_request', 'ap01', { ...base, fail_on_error_status: false }),
      stubServices({ http }),
    );
    expect(lenient.outputs).toMatchObject({ status: 404, body: { error: 'missing' } });
  });

  it('refuses a URL that is not http(s)', async () => {
    const { error } = await runNode(
      node('api_request', 'ap01', { url: 'file:///etc/passwd' }),
      stubServices(),
    );
    expect(error).toMatch(/The URL must be http\(s\)\.$/);
  });
});
