import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  connectors,
  creditPlans,
  models,
  organizations,
  providers,
  ragCollections,
  ragDocuments,
  workspaces,
  type Db,
} from '@atelier/db';
import { createModelAccess, createSecretBox, type MeterScope } from '@atelier/metering';
import type { ModelType, ProviderKind } from '@atelier/schemas';
import { sharedTestDatabase, startFakeProvider, type FakeProvider } from '@atelier/testkit';
import type { Database } from '@atelier/db';
import { createKnowledge, toSqlClient, type Knowledge, type KnowledgeDeps, type QueryFn } from '../src/index';

/*
 * The environment of the ingestion, retrieval and engine tests: the shared test database (PGlite, or
 * PostgreSQL when DATABASE_URL is set), an organization with credits, the fake provider (bag-of-words
 * embeddings, word-overlap rerank) as its providers, the built-in connector, and a data directory.
 */

const KEY = 'sk-fake-knowledge-01';
/** The same key in every test process: a worker of one test file may ingest another file's upload. */
export const box = createSecretBox(Buffer.alloc(32, 7));
export const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;

export interface Env {
  db: Db;
  /** Raw parameterized SQL on the same database. */
  q: QueryFn;
  fake: FakeProvider;
  knowledge: Knowledge;
  dataDir: string;
  organizationId: string;
  workspaceId: string;
  connectorId: string;
  scope: MeterScope;
  models: Record<'embed' | 'rerank' | 'broken' | 'ocr', string>;
  errors: unknown[];
  close(): Promise<void>;
}

export interface EnvOptions {
  dimensions?: number;
  /** A database of its own (default: the shared test database); closed with the environment. */
  database?: Database;
  /** A data directory of its own: only this environment's worker takes its uploads. */
  dataDir?: string;
  indexDelayMs?: number;
}

export async function startEnv(name: string, options: EnvOptions = {}): Promise<Env> {
  const db = (options.database ?? (await sharedTestDatabase())).db;
  const fake = await startFakeProvider({ apiKey: KEY, embeddingDimensions: options.dimensions ?? 256 });
  const [org] = await db.insert(organizations).values({ name }).returning({ id: organizations.id });
  const organizationId = org!.id;
  const [ws] = await db.insert(workspaces).values({ organizationId, name }).returning({ id: workspaces.id });
  const workspaceId = ws!.id;
  await db.insert(creditPlans).values({
    organizationId,
    monthlyCredits: 100_000,
    remainingMonthlyCredits: 100_000,
    periodStart: new Date(),
  });
  const addProvider = async (kind: ProviderKind, baseUrl: string) => {
    const id = randomUUID();
    await db.insert(providers).values({
      id,
      organizationId,
      workspaceId,
      name: `${kind} ${id.slice(0, 4)}`,
      kind,
      baseUrl,
      apiKeyEncrypted: box.seal(KEY, id),
      apiKeyLast4: KEY.slice(-4),
    });
    return id;
  };
  const addModel = async (providerId: string, modelName: string, modelType: ModelType) => {
    const [row] = await db
      .insert(models)
      .values({
        organizationId,
        workspaceId,
        providerId,
        name: modelName,
        modelName,
        modelType,
        inputPer1k: 0.01,
      })
      .returning({ id: models.id });
    return row!.id;
  };
  const openai = await addProvider('openai_compatible', `${fake.url}/v1`);
  const reranker = await addProvider('rerank', `${fake.url}/v2`);
  const mistral = await addProvider('mistral', `${fake.url}/v1`);
  const ids = {
    ocr: await addModel(mistral, 'mistral-ocr-latest', 'ocr'),
    embed: await addModel(openai, 'text-embedding-3-small', 'text-embeddings'),
    rerank: await addModel(reranker, 'rerank-v3.5', 'rerank'),
    broken: await addModel(openai, 'fail-401', 'text-embeddings'),
  };
  const [connector] = await db
    .insert(connectors)
    .values({ organizationId, workspaceId, name: 'Built-in store', kind: 'builtin' })
    .returning({ id: connectors.id });
  // One data directory for every test process: any worker on the shared database may take any upload.
  const dataDir = options.dataDir ?? join(tmpdir(), 'atelier-knowledge-tests');
  await mkdir(join(dataDir, 'uploads'), { recursive: true });
  const errors: unknown[] = [];
  const knowledge = createKnowledge(knowledgeDeps(db, dataDir, errors), {
    pollMs: 100,
    leaseSeconds: 6,
    ...(options.indexDelayMs ? { indexDelayMs: options.indexDelayMs } : {}),
  });
  return {
    db,
    q: toSqlClient(db).query,
    fake,
    knowledge,
    dataDir,
    organizationId,
    workspaceId,
    connectorId: connector!.id,
    scope: {
      organizationId,
      workspaceId,
      userId: null,
      chatbotId: null,
      chatbotName: name,
      conversationId: null,
      storeContent: true,
    },
    models: ids,
    errors,
    async close() {
      await knowledge.close();
      await fake.close();
      await options.database?.close();
    },
  };
}

/** What the capability needs, on the test database, with any provider URL allowed. */
export function knowledgeDeps(db: Db, dataDir: string, errors: unknown[]): KnowledgeDeps {
  return {
    db,
    models: createModelAccess({ db, box, timeoutMs: 10_000, urlPolicy: { mode: 'any' } }),
    box,
    urlPolicy: { mode: 'any' },
    loaderPolicy: { mode: 'any' },
    dataDir,
    onError: (e) => errors.push(e),
  };
}

/** A RAG collection on the built-in store, named `rc_<id hex>` as the API names them. */
export async function addCollection(
  env: Env,
  values: Partial<typeof ragCollections.$inferInsert> = {},
): Promise<{ id: string; collectionName: string }> {
  const id = randomUUID();
  const collectionName = `rc_${id.replace(/-/g, '')}`;
  await env.db.insert(ragCollections).values({
    id,
    organizationId: env.organizationId,
    workspaceId: env.workspaceId,
    name: `Collection ${id.slice(0, 6)}`,
    connectorId: env.connectorId,
    collectionName,
    embeddingsModelId: env.models.embed,
    ...values,
  });
  return { id, collectionName };
}

/** Places a file in the uploads and queues it as the API does (same filename: the same row, re-queued). */
export async function queueDocument(
  env: Env,
  collectionId: string,
  filename: string,
  content: ({ fixture: string } | { text: string } | { data: Uint8Array }) & {
    /** The document's own metadata fields (set on the row before it is queued). */
    metadata?: Record<string, string | number | boolean>;
  },
  /** Another capability instance (its own data directory) to ingest the document instead of env's. */
  worker: { knowledge: Knowledge; dataDir: string } = env,
): Promise<string> {
  const [existing] = await env.q<{ id: string }>(
    'SELECT id FROM rag_documents WHERE collection_id = $1 AND filename = $2',
    [collectionId, filename],
  );
  const id = existing?.id ?? randomUUID();
  const storagePath = join('uploads', `${id}-${randomUUID().slice(0, 8)}`);
  const full = join(worker.dataDir, storagePath);
  if ('fixture' in content) await copyFile(join(FIXTURES, content.fixture), full);
  else await writeFile(full, 'text' in content ? content.text : content.data);
  const values = {
    status: 'queued' as const,
    storagePath,
    storageNode: worker.knowledge.storageNode(),
    sha256: randomUUID(),
    progress: 0,
    attempts: 0,
    error: null,
    lockedUntil: null,
    ...(content.metadata ? { metadata: content.metadata } : {}),
  };
  if (existing) {
    await env.q(
      "UPDATE rag_documents SET status = 'queued', storage_path = $2, storage_node = $4, sha256 = $3, progress = 0, attempts = 0, error = NULL, locked_until = NULL, metadata = coalesce($5::jsonb, metadata) WHERE id = $1",
      [
        id,
        storagePath,
        values.sha256,
        values.storageNode,
        content.metadata ? JSON.stringify(content.metadata) : null,
      ],
    );
  } else {
    await env.db.insert(ragDocuments).values({
      id,
      organizationId: env.organizationId,
      workspaceId: env.workspaceId,
      collectionId,
      filename,
      ...values,
    });
  }
  worker.knowledge.notifyIngestion();
  return id;
}

export type DocumentRow = typeof ragDocuments.$inferSelect;

export async function documentRow(env: Env, id: string): Promise<DocumentRow | undefined> {
  const [row] = await env.db.query.ragDocuments.findMany({ where: (d, { eq }) => eq(d.id, id) });
  return row;
}

/** Waits until the document is ready or failed (or gone), polling its row. */
export async function settled(env: Env, id: string, timeoutMs = 30_000): Promise<DocumentRow | undefined> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const row = await documentRow(env, id);
    if (!row || row.status === 'ready' || row.status === 'failed') return row;
    if (Date.now() > until) throw new Error(`document ${id} still ${row.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Embedding calls the fake provider received. */
export const embeddingCalls = (env: Env) =>
  env.fake.requests.filter((r) => r.path.endsWith('/embeddings')).length;

/** Inference-log rows of a model (each metered call writes one). */
export async function logRows(env: Env, modelId: string): Promise<number> {
  const [row] = await env.q<{ n: number }>(
    'SELECT count(*)::int AS n FROM inference_logs WHERE model_id = $1',
    [modelId],
  );
  return row!.n;
}
