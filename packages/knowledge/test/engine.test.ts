import { randomBytes } from 'node:crypto';
import { connectors, tools } from '@atelier/db';
import { splitUserinfo } from '@atelier/net';
import type { FlowDocument } from '@atelier/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KnowledgeError, parseCondition, parseFilterText, toSqlClient } from '../src/index';
import { resolveTool } from '../src/service/tools';
import { addCollection, box, embeddingCalls, queueDocument, settled, startEnv, type Env } from './ingest-env';
import { rejection } from './rejection';

let env: Env;
let other: Env;
const signal = new AbortController().signal;

beforeAll(async () => {
  env = await startEnv('Engine seam test org');
  other = await startEnv('Engine seam other org');
});
afterAll(async () => {
  await env?.close();
  await other?.close();
});

const docs = (...items: [string, Record<string, unknown>][]): FlowDocument[] =>
  items.map(([pageContent, metadata]) => ({ pageContent, metadata }));

const PAGES = docs(
  [
    'Refunds are paid within fourteen days of the return.',
    { source: 'https://shop.test/refunds', lang: 'en' },
  ],
  [
    'Les remboursements sont versés sous quatorze jours.',
    { source: 'https://shop.test/fr/refunds', lang: 'fr' },
  ],
  [
    'Shipping to Europe takes three to five working days.',
    { source: 'https://shop.test/shipping', lang: 'en' },
  ],
);

describe('the engine knowledge seam', () => {
  it('inserts into a collection, skips what is stored with smart insertion, retrieves and deletes', async () => {
    const { id } = await addCollection(env);
    const services = env.knowledge.engineServices(env.scope);
    const target = { mode: 'collection' as const, collectionId: id };
    const first = await services.insert!({ documents: PAGES, target, smartInsertion: true, signal });
    expect(first).toEqual({ inserted: 3, collectionId: id });

    const calls = embeddingCalls(env);
    const again = await services.insert!({ documents: PAGES, target, smartInsertion: true, signal });
    expect(again.inserted).toBe(0);
    expect(embeddingCalls(env)).toBe(calls);
    // Without smart insertion the same records are replaced (same ids), never duplicated.
    expect(
      (await services.insert!({ documents: PAGES, target, smartInsertion: false, signal })).inserted,
    ).toBe(3);

    const found = await services.retrieve!({
      collectionId: id,
      query: 'refunds paid within days',
      limit: 5,
      signal,
    });
    expect(found).toHaveLength(3);
    expect(found[0]!.pageContent).toContain('Refunds are paid');
    expect(found[0]!.metadata).toMatchObject({ source: 'https://shop.test/refunds', collection_id: id });
    expect(typeof found[0]!.metadata.score).toBe('number');

    const french = await services.retrieve!({
      collectionId: id,
      query: 'refunds',
      limit: 5,
      filter: 'lang: fr',
      signal,
    });
    expect(french.map((d) => d.metadata.lang)).toEqual(['fr']);
    const json = await services.retrieve!({
      collectionId: id,
      query: 'shipping',
      limit: 5,
      filter: '{"field":"source","op":"eq","value":"https://shop.test/shipping"}',
      signal,
    });
    expect(json.map((d) => d.metadata.source)).toEqual(['https://shop.test/shipping']);

    const removed = await services.deleteRecords!({
      condition: 'source == "https://shop.test/refunds" or lang = "fr"',
      target,
      signal,
    });
    expect(removed).toEqual({ deleted: 2 });
    const left = await services.retrieve!({ collectionId: id, query: 'refunds shipping', limit: 5, signal });
    expect(left.map((d) => d.metadata.source)).toEqual(['https://shop.test/shipping']);
  });

  it("the retrieve node's filter keeps to uploaded documents by their own fields", async () => {
    env.knowledge.startIngestionWorker({ concurrency: 1 });
    const { id } = await addCollection(env);
    const policy = (year: number, center: string) =>
      `Remote work: employees of the ${center} office may work from home two days a week (${year}).`;
    const paris = await queueDocument(env, id, 'remote-paris.md', {
      text: policy(2024, 'Paris'),
      metadata: { 'cost center': 'Paris', year: 2024 },
    });
    const lyon = await queueDocument(env, id, 'remote-lyon.md', {
      text: policy(2024, 'Lyon'),
      metadata: { 'cost center': 'Lyon', year: 2024 },
    });
    const old = await queueDocument(env, id, 'remote-paris-2019.md', {
      text: policy(2019, 'Paris'),
      metadata: { 'cost center': 'Paris', year: 2019 },
    });
    for (const doc of [paris, lyon, old]) expect(await settled(env, doc)).toMatchObject({ status: 'ready' });
    const services = env.knowledge.engineServices(env.scope);
    const found = await services.retrieve!({
      collectionId: id,
      query: 'How many days may I work from home?',
      limit: 5,
      filter: '"cost center" = Paris and year >= 2024',
      signal,
    });
    expect(found.map((d) => d.metadata.filename)).toEqual(['remote-paris.md']);
  });

  it("a chatflow's follow-up is searched with its earlier questions first, then alone, fused by rank", async () => {
    const { id } = await addCollection(env);
    const services = env.knowledge.engineServices(env.scope);
    await services.insert!({
      documents: docs(
        ['Customers may return unopened bags within 45 days for a refund.', { source: 'refunds' }],
        ['Orders ship from the roastery in Lyon; delivery takes two days.', { source: 'shipping' }],
      ),
      target: { mode: 'collection', collectionId: id },
      smartInsertion: false,
      signal,
    });
    const followUp = 'Within how many days?';
    const alone = await services.retrieve!({ collectionId: id, query: followUp, limit: 1, signal });
    expect(alone.map((d) => d.metadata.source)).toEqual(['refunds']);
    const inContext = await services.retrieve!({
      collectionId: id,
      query: followUp,
      earlier: ['When do orders ship from the roastery in Lyon?'],
      limit: 2,
      signal,
    });
    expect(inContext.map((d) => d.metadata.source)).toEqual(['shipping', 'refunds']);
    // Each keeps the score its best search gave it, not a fused rank.
    expect(inContext[1]!.metadata.score).toBe(alone[0]!.metadata.score);
    expect(
      (await services.retrieve!({ collectionId: id, query: followUp, earlier: ['x'], limit: 1, signal }))
        .length,
    ).toBe(1);
  });

  it('custom mode on the built-in store reaches only this workspace’s collections', async () => {
    const { id, collectionName } = await addCollection(env, { name: 'Support pages' });
    const services = env.knowledge.engineServices(env.scope);
    const byName = { mode: 'custom' as const, connectorId: env.connectorId, collectionName: 'Support pages' };
    expect(
      await services.insert!({ documents: PAGES.slice(0, 1), target: byName, smartInsertion: false, signal }),
    ).toEqual({
      inserted: 1,
      collectionId: id,
    });
    const byStoreName = { mode: 'custom' as const, connectorId: env.connectorId, collectionName };
    expect(await services.deleteRecords!({ condition: 'lang == "en"', target: byStoreName, signal })).toEqual(
      {
        deleted: 1,
      },
    );
    const unknown = { mode: 'custom' as const, connectorId: env.connectorId, collectionName: 'rc_elsewhere' };
    expect(
      (
        await rejection(
          services.insert!({ documents: PAGES, target: unknown, smartInsertion: false, signal }),
        )
      ).status,
    ).toBe(404);
  });

  it('never reaches another organization’s collection or connector', async () => {
    const { id, collectionName } = await addCollection(env);
    const theirs = other.knowledge.engineServices(other.scope);
    const stolen = { mode: 'collection' as const, collectionId: id };
    expect(
      (await rejection(theirs.retrieve!({ collectionId: id, query: 'x', limit: 1, signal }))).status,
    ).toBe(404);
    expect(
      (await rejection(theirs.insert!({ documents: PAGES, target: stolen, smartInsertion: false, signal })))
        .status,
    ).toBe(404);
    const viaConnector = { mode: 'custom' as const, connectorId: env.connectorId, collectionName };
    expect(
      (await rejection(theirs.deleteRecords!({ condition: 'lang = "en"', target: viaConnector, signal })))
        .code,
    ).toBe('connector_not_found');
  });

  it('refuses conditions outside the small language and models of the wrong type', async () => {
    const { id } = await addCollection(env);
    const services = env.knowledge.engineServices(env.scope);
    const target = { mode: 'collection' as const, collectionId: id };
    for (const condition of ['', 'lang', 'lang == ', 'drop table x; --', 'a == "b" or', '(a == 1']) {
      expect((await rejection(services.deleteRecords!({ condition, target, signal }))).code).toBe(
        'invalid_condition',
      );
    }
    const rerankAsEmbeddings = await addCollection(env, { embeddingsModelId: env.models.rerank });
    const wrong = { mode: 'collection' as const, collectionId: rerankAsEmbeddings.id };
    expect(
      (await rejection(services.insert!({ documents: PAGES, target: wrong, smartInsertion: false, signal })))
        .code,
    ).toBe('not_an_embeddings_model');
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'custom mode on an external PostgreSQL creates the collection with the model’s dimension',
    async () => {
      const { url, userinfo } = splitUserinfo(process.env.DATABASE_URL!);
      const [row] = await env.db
        .insert(connectors)
        .values({
          organizationId: env.organizationId,
          workspaceId: env.workspaceId,
          name: 'External',
          kind: 'pgvector',
          settings: { url, schema: 'kb_engine_test' },
        })
        .returning({ id: connectors.id });
      const connectorId = row!.id;
      if (userinfo) {
        await env.q('UPDATE connectors SET secret_encrypted = $2 WHERE id = $1', [
          connectorId,
          box.seal(userinfo, connectorId),
        ]);
      }
      const services = env.knowledge.engineServices(env.scope);
      const collectionName = `ext_${randomBytes(4).toString('hex')}`;
      const target = { mode: 'custom' as const, connectorId, collectionName };
      const result = await services.insert!({
        documents: PAGES,
        target,
        embeddingsModelId: env.models.embed,
        smartInsertion: true,
        signal,
      });
      expect(result).toEqual({ inserted: 3, collectionId: collectionName });
      const [sealed] = await env.q<{ s: string | null }>(
        'SELECT secret_encrypted AS s FROM connectors WHERE id = $1',
        [connectorId],
      );
      const store = await env.knowledge.storeFor({
        id: connectorId,
        organizationId: env.organizationId,
        workspaceId: env.workspaceId,
        kind: 'pgvector',
        settings: { url, schema: 'kb_engine_test' },
        secretEncrypted: sealed!.s,
      });
      expect(await store.collectionInfo(collectionName)).toMatchObject({ dimension: 256, count: 3 });
      expect(await services.deleteRecords!({ condition: 'lang == "fr"', target, signal })).toEqual({
        deleted: 1,
      });
      await store.dropCollection(collectionName);
    },
  );
});

describe('the condition language', () => {
  it('parses comparisons, lists, contains, and/or and parentheses into the filter language', () => {
    expect(parseCondition('source == "https://a.test/x"')).toEqual({
      field: 'source',
      op: 'eq',
      value: 'https://a.test/x',
    });
    expect(parseCondition('(lang = fr || lang = "de") && year >= 2023, tags contains \'policy\'')).toEqual({
      and: [
        {
          or: [
            { field: 'lang', op: 'eq', value: 'fr' },
            { field: 'lang', op: 'eq', value: 'de' },
          ],
        },
        { field: 'year', op: 'gte', value: 2023 },
        { field: 'tags', op: 'contains', value: 'policy' },
      ],
    });
    expect(parseCondition('metadata.status in ["draft", 3, true, null]')).toEqual({
      field: 'status',
      op: 'in',
      value: ['draft', 3, true, null],
    });
    expect(parseCondition('title != "say \\"hi\\""')).toEqual({
      field: 'title',
      op: 'ne',
      value: 'say "hi"',
    });
    expect(parseFilterText('  ')).toBeUndefined();
    expect(parseFilterText('{"and":[{"field":"a","op":"lt","value":2}]}')).toEqual({
      and: [{ field: 'a', op: 'lt', value: 2 }],
    });
    expect(() => parseFilterText('{not json')).toThrow(KnowledgeError);
  });
});

describe('stores per connector', () => {
  const record = (
    kind: 'builtin' | 'pgvector' | 'qdrant',
    settings: Record<string, string>,
    id = env.connectorId,
  ) => ({
    id,
    organizationId: env.organizationId,
    workspaceId: env.workspaceId,
    kind,
    settings,
    secretEncrypted: null,
  });
  const refused = async (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (e: unknown) => e as { status: number; code: string },
    );

  it('shares the built-in store, caches external ones by settings, and guards their URLs', async () => {
    const builtin = await env.knowledge.storeFor(record('builtin', {}));
    expect(await env.knowledge.storeFor(record('builtin', {}, other.connectorId))).toBe(builtin);

    const id = '00000000-0000-4000-8000-00000000e001';
    const a = await env.knowledge.storeFor(record('pgvector', { url: 'postgres://127.0.0.1:1/a' }, id));
    expect(await env.knowledge.storeFor(record('pgvector', { url: 'postgres://127.0.0.1:1/a' }, id))).toBe(a);
    expect(
      await env.knowledge.storeFor(record('pgvector', { url: 'postgres://127.0.0.1:1/b' }, id)),
    ).not.toBe(a);

    const qdrant = await env.knowledge.storeFor(record('qdrant', { url: 'http://127.0.0.1:6333' }, id));
    expect(qdrant.kind).toBe('qdrant');
    expect(
      await refused(env.knowledge.storeFor(record('qdrant', { url: 'ftp://127.0.0.1:6333' }, id))),
    ).toMatchObject({ status: 422, code: 'invalid_connector_url' });
    // The cloud metadata address, a socket path and a non-PostgreSQL URL never get a connection.
    for (const url of [
      'postgres://169.254.169.254/db',
      'postgres://db.test/x?host=/var/run',
      'http://127.0.0.1/x',
    ]) {
      const error = await refused(env.knowledge.storeFor(record('pgvector', { url }, id)));
      expect(error, url).toMatchObject({ status: 422 });
    }
  });
});

describe('stored tools for the loaders', () => {
  it('resolves a tool of the workspace with its secret opened, and nothing of another organization', async () => {
    const id = '00000000-0000-4000-8000-0000000f1a00'.replace('0f1a00', randomBytes(3).toString('hex'));
    await env.db.insert(tools).values({
      id,
      organizationId: env.organizationId,
      workspaceId: env.workspaceId,
      name: 'Figma',
      type: 'figma',
      settings: { team: 'design' },
      secretEncrypted: box.seal('figd_token_1', id),
    });
    const sql = toSqlClient(env.db);
    expect(await resolveTool(sql, box, env.scope, id)).toEqual({
      type: 'figma',
      settings: { team: 'design' },
      secret: 'figd_token_1',
    });
    expect(await resolveTool(sql, box, other.scope, id)).toBeNull();
    expect(await resolveTool(sql, box, env.scope, 'figma')).toBeNull();
  });
});
