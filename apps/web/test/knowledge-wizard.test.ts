import {
  createRagCollectionBody,
  updateRagCollectionBody,
  type Connector,
  type RagCollection,
} from '@atelier/schemas';
import { fullTextLanguages } from '@atelier/schemas/constants';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createBody,
  emptyWizardData,
  validateCollection,
  wizardDataOf,
} from '../src/features/knowledge/wizard-form';
import { canLeave, useWizardStore } from '../src/features/knowledge/wizard-store';
import { fullTextLanguageItems } from '../src/features/knowledge/format';

const WS = '11111111-1111-4111-8111-111111111111';
const MODEL = '22222222-2222-4222-8222-222222222222';
const CONNECTOR = '33333333-3333-4333-8333-333333333333';
const ID = '44444444-4444-4444-8444-444444444444';

const store = () => useWizardStore.getState();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const collection: RagCollection = {
  id: ID,
  workspace_id: WS,
  name: 'Handbook',
  description: 'HR',
  connector_id: CONNECTOR,
  connector_kind: 'builtin',
  collection_name: 'rc_44',
  embeddings_model_id: MODEL,
  dimension: 8,
  distance: 'cosine',
  splitter: 'markdown',
  chunk_size: 800,
  chunk_overlap: 80,
  top_k: 4,
  score_threshold: 0.2,
  rerank_model_id: null,
  ocr_model_id: null,
  hybrid: true,
  full_text_language: 'french',
  writable: true,
  document_count: 0,
  chunk_count: 0,
  vector_indexed: true,
  created_at: '',
  updated_at: '',
};

const filled = () => store().setData({ name: 'Docs', embeddings_model_id: MODEL });

beforeEach(() => store().reset());
afterEach(() => vi.unstubAllGlobals());

describe('collection wizard store: steps', () => {
  it('starts at step 0 and never goes below it', () => {
    expect(store().step).toBe(0);
    store().previous();
    expect(store().step).toBe(0);
  });

  it('moves forward from the built-in source, and the valid-step flag gates the Collection step', () => {
    store().next();
    expect(store().step).toBe(1);
    store().next();
    expect(store().step).toBe(1); // not valid yet
    store().setValid(true);
    store().next();
    expect(store().step).toBe(2);
    store().next();
    expect(store().step).toBe(2); // the last step
    store().previous();
    expect(store().step).toBe(1);
  });

  it('an external connector needs one of its collections before Next', () => {
    store().setData({ connector_id: CONNECTOR });
    expect(canLeave(store())).toBe(false);
    store().next();
    expect(store().step).toBe(0);
    store().setData({ collection_name: 'docs' });
    store().next();
    expect(store().step).toBe(1);
  });

  it('another source forgets the chosen collection and its preview', () => {
    store().setData({ connector_id: CONNECTOR, collection_name: 'docs' });
    useWizardStore.setState({ preview: { rows: [], limit: 10, offset: 0 } });
    store().setData({ connector_id: null });
    expect(store().data.collection_name).toBeNull();
    expect(store().preview).toBeNull();
  });

  it('reset goes back to 0 and clears data, models, connectors, preview and error', () => {
    filled();
    useWizardStore.setState({
      step: 2,
      isValid: true,
      models: { embeddings: [], rerank: [], ocr: [] },
      connectors: [{ id: CONNECTOR } as Connector],
      preview: { rows: [{ id: 'a', content: 'x', metadata: {} }], limit: 10, offset: 0 },
      error: 'boom',
    });
    store().reset();
    const s = store();
    expect(s.step).toBe(0);
    expect(s.data).toEqual(emptyWizardData());
    expect([s.models, s.connectors, s.preview, s.error]).toEqual([null, null, null, null]);
    expect(s.isValid).toBe(false);
  });
});

describe('collection wizard store: saving', () => {
  it('creates when the data has no id, with a body the API accepts', async () => {
    const fetch = vi.fn(async () => json(201, { id: ID }));
    vi.stubGlobal('fetch', fetch);
    filled();
    await expect(store().save(WS)).resolves.toBe(ID);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.method).toBe('POST');
    expect(url).toMatch(/\/rag_collections$/);
    const body = JSON.parse(String(init.body));
    expect(createRagCollectionBody.safeParse(body).success).toBe(true);
    expect(body).not.toHaveProperty('connector_id'); // built-in
    expect(body.full_text_language).toBe('simple');
    expect(store().data.id).toBe(ID); // saving again updates
  });

  it('an external collection is sent with its connector and collection name', () => {
    const body = createBody(
      {
        ...emptyWizardData(),
        name: 'X',
        embeddings_model_id: MODEL,
        connector_id: CONNECTOR,
        collection_name: 'docs',
      },
      WS,
    );
    expect(createRagCollectionBody.parse(body)).toMatchObject({
      connector_id: CONNECTOR,
      collection_name: 'docs',
    });
  });

  it('updates when the data has an id', async () => {
    const fetch = vi.fn(async () => json(200, { rag_collection: collection }));
    vi.stubGlobal('fetch', fetch);
    store().load(collection);
    store().setData({ name: 'Handbook 2', score_threshold: '' });
    await expect(store().save(WS)).resolves.toBe(ID);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.method).toBe('PUT');
    expect(url).toMatch(new RegExp(`/rag_collections/${ID}$`));
    const body = updateRagCollectionBody.parse(JSON.parse(String(init.body)));
    expect(body).toMatchObject({
      name: 'Handbook 2',
      chunk_size: 800,
      top_k: 4,
      score_threshold: null,
      hybrid: true,
      full_text_language: 'french',
    });
  });

  it('a refused save keeps the step and shows the API detail', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(409, { detail: 'name taken', code: 'conflict' })),
    );
    filled();
    await expect(store().save(WS)).resolves.toBeNull();
    expect(store().error).toBe('name taken');
    expect(store().saving).toBe(false);
  });

  it('loads connectors and the three model lists (embeddings, rerank, OCR), and a failed load becomes the error', async () => {
    const model = (id: string) => ({ id, name: id, provider: { id: 'p', name: 'P' } });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url.includes('/connectors')
          ? json(200, { connectors: [{ id: CONNECTOR }] })
          : json(200, {
              models: [
                model(url.includes('/models_embeddings') ? 'embeddings' : /model_types=(\w+)/.exec(url)![1]!),
              ],
            }),
      ),
    );
    await store().loadConnectors(WS);
    await store().loadModels(WS);
    expect(store().connectors).toHaveLength(1);
    expect(store().models).toEqual({
      embeddings: [model('embeddings')],
      rerank: [model('rerank')],
      ocr: [model('ocr')],
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(500, { detail: 'down', code: 'x' })),
    );
    await store().loadConnectors(WS);
    expect(store().error).toBe('down');
  });

  it('asks the preview ten rows at a time from an offset', async () => {
    const fetch = vi.fn(async () => json(200, { rows: [], limit: 10, offset: 20 }));
    vi.stubGlobal('fetch', fetch);
    store().setData({ connector_id: CONNECTOR, collection_name: 'my docs' });
    await store().loadPreview(CONNECTOR, 'my docs', 20);
    expect(String((fetch.mock.calls[0] as unknown as [string])[0])).toMatch(
      new RegExp(`/connectors/${CONNECTOR}/collections/my%20docs/preview\\?limit=10&offset=20$`),
    );
    expect(store().preview?.offset).toBe(20);
  });
});

describe('collection step validation', () => {
  const ok = { ...emptyWizardData(), name: 'Docs', embeddings_model_id: MODEL };

  it('the defaults with a name and a model are valid', () => {
    expect(validateCollection(ok)).toEqual({});
  });

  it('names each wrong field', () => {
    expect(validateCollection(emptyWizardData())).toMatchObject({
      name: 'common.required',
      embeddings_model_id: 'common.required',
    });
    expect(validateCollection({ ...ok, chunk_size: '10' }).chunk_size).toBeDefined();
    expect(validateCollection({ ...ok, chunk_overlap: '1000' }).chunk_overlap).toBe(
      'knowledge.wizard.errors.overlapTooLarge',
    );
    expect(validateCollection({ ...ok, top_k: '0' }).top_k).toBeDefined();
    expect(validateCollection({ ...ok, top_k: '2.5' }).top_k).toBeDefined();
    expect(validateCollection({ ...ok, score_threshold: '2' }).score_threshold).toBeDefined();
    expect(validateCollection({ ...ok, score_threshold: '-0.5' })).toEqual({});
  });

  it('an edited collection reads back as the form it was saved from', () => {
    expect(wizardDataOf(collection)).toMatchObject({
      id: ID,
      connector_id: null,
      collection_name: null,
      chunk_size: '800',
      score_threshold: '0.2',
      full_text_language: 'french',
    });
  });

  it("lists the full-text languages by their names in the reader's language, any language first", () => {
    const en = fullTextLanguageItems('en', 'Any language');
    expect(en).toHaveLength(fullTextLanguages.length);
    expect(en[0]).toEqual({ value: 'simple', label: 'Any language' });
    expect(en.find((i) => i.value === 'french')?.label).toBe('French');
    const fr = fullTextLanguageItems('fr', 'Toute langue');
    expect(fr.find((i) => i.value === 'german')?.label).toBe('Allemand');
    expect(fr.slice(1, 3).map((i) => i.label)).toEqual(['Allemand', 'Anglais']);
  });
});
