import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  connectors,
  models,
  providers,
  ragCollections,
  ragDocuments,
  userWorkspaceRoles,
  workspaces,
  type Db,
} from '@atelier/db';
import type { LoadedCollection } from '@atelier/knowledge';
import { meteredCall, type MeterScope, type ModelAccess } from '@atelier/metering';
import type {
  CreateRagCollectionBody,
  QueryCollectionAnswer,
  QueryCollectionBody,
  RagCollection,
  UpdateRagCollectionBody,
} from '@atelier/schemas';
import { and, asc, count, eq, inArray, sql, sum } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import { creditsLeftSql, insufficientCredits, type CreditsService } from '../credits/credits-service';
import { AppError, conflict, forbidden, notFound } from '../errors';
import { canBuild, type WorkspacesService } from '../workspaces/workspaces-service';
import type { ConnectorRow, ConnectorsService, KnowledgeApi } from './connectors-service';
import { STORE_TIMEOUT_MS } from './connectors-service';
import { isUniqueViolation, mapped, withTimeout } from './errors';

type CollectionRow = typeof ragCollections.$inferSelect;
export interface FoundCollection {
  row: CollectionRow;
  connector: ConnectorRow;
}

export interface CollectionsDeps {
  db: Db;
  workspaces: WorkspacesService;
  credits: CreditsService;
  connectors: ConnectorsService;
  modelAccess: ModelAccess;
  knowledge: KnowledgeApi;
  dataDir: string;
}

const PROBE_TEXT = 'Atelier measures the dimension of this embeddings model.';
const PROBE_TIMEOUT_MS = 30_000;

/** Where a collection's uploads wait until ingested: `<dataDir>/uploads/<org>/<collection>`. */
export const uploadsDirOf = (dataDir: string, organizationId: string, collectionId: string) =>
  join(dataDir, 'uploads', organizationId, collectionId);

/** The scope of a call made for a user outside any chatbot (its inference log has no chatbot). */
export const userScope = (principal: Principal, workspaceId: string): MeterScope => ({
  organizationId: principal.organizationId,
  workspaceId,
  userId: principal.userId,
  chatbotId: null,
  chatbotName: '',
  conversationId: null,
  storeContent: true,
});

function toRagCollection(
  { row, connector }: FoundCollection,
  counts: { documents: number; chunks: number },
  writable: boolean,
  vectorIndexed: boolean | null,
): RagCollection {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    name: row.name,
    description: row.description,
    connector_id: row.connectorId,
    connector_kind: connector.kind,
    collection_name: row.collectionName,
    embeddings_model_id: row.embeddingsModelId,
    dimension: row.dimension,
    distance: row.distance,
    splitter: row.splitter,
    chunk_size: row.chunkSize,
    chunk_overlap: row.chunkOverlap,
    top_k: row.topK,
    score_threshold: row.scoreThreshold,
    rerank_model_id: row.rerankModelId,
    ocr_model_id: row.ocrModelId,
    hybrid: row.hybrid,
    full_text_language: row.fullTextLanguage,
    writable,
    document_count: counts.documents,
    chunk_count: counts.chunks,
    vector_indexed: vectorIndexed,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function checkChunks(size: number, overlap: number) {
  if (overlap >= size) {
    throw new AppError(422, 'invalid_chunk_overlap', 'chunk_overlap must be smaller than chunk_size.');
  }
}

/** Only the built-in store reads chunks in a language: an external one's text search is its own. */
function checkTextLanguage(kind: string, language: string) {
  if (kind !== 'builtin' && language !== 'simple') {
    throw new AppError(
      422,
      'full_text_language_unsupported',
      'Only collections in the Atelier database read their text in a language; leave it as simple.',
    );
  }
}

/**
 * RAG collections: a searchable set of chunks in one connector's collection, embedded with one
 * embeddings model. A built-in one gets its own store collection (`rc_` and its id's hex) sized by
 * embedding a probe text once (a metered call); an external one names an existing collection of its
 * connector, whose dimension it takes.
 */
export function createCollectionsService(deps: CollectionsDeps) {
  const { db } = deps;

  async function find(principal: Principal, id: string): Promise<FoundCollection> {
    const [found] = await db
      .select({ row: ragCollections, connector: connectors })
      .from(ragCollections)
      .innerJoin(connectors, eq(connectors.id, ragCollections.connectorId))
      .where(and(eq(ragCollections.id, id), eq(ragCollections.organizationId, principal.organizationId)))
      .limit(1);
    if (!found) throw notFound('RAG collection');
    await deps.workspaces.visible(principal, found.row.workspaceId).catch(() => {
      throw notFound('RAG collection');
    });
    return found;
  }

  /**
   * What a query checks and needs, in one prepared round trip: the collection with its connector, the
   * caller's role in its workspace (visible, then allowed to build), the organization's credits left and
   * the embeddings model with its provider.
   */
  const queryLoad = db
    .select({
      row: ragCollections,
      connector: connectors,
      role: userWorkspaceRoles.workspaceRoleId,
      creditsLeft: creditsLeftSql(ragCollections.organizationId),
      model: models,
      provider: providers,
    })
    .from(ragCollections)
    .innerJoin(connectors, eq(connectors.id, ragCollections.connectorId))
    .innerJoin(
      workspaces,
      and(
        eq(workspaces.id, ragCollections.workspaceId),
        eq(workspaces.organizationId, ragCollections.organizationId),
      ),
    )
    .leftJoin(
      userWorkspaceRoles,
      and(
        eq(userWorkspaceRoles.workspaceId, ragCollections.workspaceId),
        eq(userWorkspaceRoles.userId, sql.placeholder('userId')),
      ),
    )
    .leftJoin(
      models,
      and(
        eq(models.id, ragCollections.embeddingsModelId),
        eq(models.organizationId, ragCollections.organizationId),
        eq(models.workspaceId, ragCollections.workspaceId),
      ),
    )
    .leftJoin(providers, eq(providers.id, models.providerId))
    .where(
      and(
        eq(ragCollections.id, sql.placeholder('id')),
        eq(ragCollections.organizationId, sql.placeholder('organizationId')),
      ),
    )
    .limit(1)
    .prepare('rag_collection_query_load');

  async function loadForQuery(principal: Principal, id: string): Promise<LoadedCollection> {
    // The route's schema has checked `id` is a UUID.
    const [found] = await queryLoad.execute({
      id,
      organizationId: principal.organizationId,
      userId: principal.userId,
    });
    // As `find` and `assertCanBuild` answer: invisible is not found, visible without the right is 403.
    if (!found || (principal.role !== 'admin' && found.role === null)) throw notFound('RAG collection');
    if (!canBuild(principal.role, found.role)) {
      throw forbidden('Only editors and administrators of this workspace can query its collections.');
    }
    if (!(Number(found.creditsLeft) > 0)) throw insufficientCredits();
    const { row, connector } = found;
    return {
      collection: {
        id: row.id,
        organizationId: row.organizationId,
        workspaceId: row.workspaceId,
        name: row.name,
        collectionName: row.collectionName,
        embeddingsModelId: row.embeddingsModelId,
        dimension: row.dimension,
        distance: row.distance,
        splitter: row.splitter,
        chunkSize: row.chunkSize,
        chunkOverlap: row.chunkOverlap,
        topK: row.topK,
        scoreThreshold: row.scoreThreshold === null ? null : Number(row.scoreThreshold),
        rerankModelId: row.rerankModelId,
        ocrModelId: row.ocrModelId,
        hybrid: row.hybrid,
        fullTextLanguage: row.fullTextLanguage,
        connector: {
          id: connector.id,
          organizationId: connector.organizationId,
          workspaceId: connector.workspaceId,
          kind: connector.kind,
          settings: connector.settings,
          secretEncrypted: connector.secretEncrypted,
        },
      },
      embeddings: found.model && found.provider ? { model: found.model, provider: found.provider } : null,
    };
  }

  const canEdit = (principal: Principal, workspaceId: string) =>
    deps.workspaces.assertCanBuild(principal, workspaceId, 'change its knowledge');

  /** A model of the workspace of the given type (422 otherwise). */
  async function modelOf(principal: Principal, workspaceId: string, modelId: string, type: string) {
    const target = await deps.modelAccess.target(principal.organizationId, workspaceId, modelId);
    if (target.model.modelType !== type) {
      throw new AppError(
        422,
        'invalid_model_type',
        `The model "${target.model.name}" is not ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type} model.`,
      );
    }
    return target;
  }

  /** The embeddings model's dimension, from one embedded probe text (metered and logged like any call). */
  async function probeDimension(principal: Principal, workspaceId: string, modelId: string) {
    const primary = await modelOf(principal, workspaceId, modelId, 'text-embeddings');
    await deps.credits.ensureAvailable(principal.organizationId);
    const result = await meteredCall({
      db,
      scope: userScope(principal, workspaceId),
      primary,
      prompt: PROBE_TEXT,
      userMessage: PROBE_TEXT,
      streamed: false,
      description: (t) => `Dimension of ${t.model.name} for a RAG collection`,
      call: async (t) => {
        const adapter = deps.modelAccess.adaptersFor(t.provider).embeddings;
        if (!adapter) throw new AppError(422, 'unsupported_model_type', 'This provider cannot embed text.');
        const answer = await adapter.embed(t.model.modelName, [PROBE_TEXT], {
          signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
        });
        return { value: answer.vectors[0]?.length ?? 0, used: answer.usage, response: '[1 vector(s)]' };
      },
    });
    if (result.value < 1) throw new AppError(502, 'invalid_embeddings', 'The model answered no vector.');
    return result.value;
  }

  async function countsOf(ids: string[]) {
    const map = new Map<string, { documents: number; chunks: number }>();
    if (ids.length === 0) return map;
    const rows = await db
      .select({ id: ragDocuments.collectionId, documents: count(), chunks: sum(ragDocuments.chunkCount) })
      .from(ragDocuments)
      .where(inArray(ragDocuments.collectionId, ids))
      .groupBy(ragDocuments.collectionId);
    for (const r of rows) map.set(r.id, { documents: r.documents, chunks: Number(r.chunks ?? 0) });
    return map;
  }

  /** Whether each collection takes uploads: built-in ones do; an external one when its store says so. */
  async function writableOf(found: FoundCollection[]) {
    const result = new Map<string, boolean>();
    const byConnector = new Map<string, FoundCollection[]>();
    for (const f of found) {
      if (f.connector.kind === 'builtin') result.set(f.row.id, true);
      else byConnector.set(f.connector.id, [...(byConnector.get(f.connector.id) ?? []), f]);
    }
    await Promise.all(
      [...byConnector.values()].map(async (group) => {
        const listed = await deps.connectors
          .storeOf(group[0]!.connector)
          .then((store) => withTimeout(store.listCollections(), STORE_TIMEOUT_MS, 'The connector'))
          .catch(() => []);
        for (const f of group) {
          result.set(f.row.id, listed.find((c) => c.name === f.row.collectionName)?.writable ?? false);
        }
      }),
    );
    return result;
  }

  /** Built-in collections: whether their vector searches are ready (index built, or small enough to be exact). */
  async function indexedOf(found: FoundCollection[]) {
    const result = new Map<string, boolean>();
    await Promise.all(
      found
        .filter((f) => f.connector.kind === 'builtin')
        .map(async (f) => {
          const store = await deps.connectors.storeOf(f.connector);
          const indexed = await store.vectorSearchReady?.(f.row.collectionName).catch(() => false);
          result.set(f.row.id, indexed ?? false);
        }),
    );
    return result;
  }

  async function view(found: FoundCollection[]): Promise<RagCollection[]> {
    const [counts, writable, indexed] = await Promise.all([
      countsOf(found.map((f) => f.row.id)),
      writableOf(found),
      indexedOf(found),
    ]);
    return found.map((f) =>
      toRagCollection(
        f,
        counts.get(f.row.id) ?? { documents: 0, chunks: 0 },
        writable.get(f.row.id) ?? false,
        f.connector.kind === 'builtin' ? (indexed.get(f.row.id) ?? false) : null,
      ),
    );
  }

  async function documentCount(id: string) {
    return (await countsOf([id])).get(id)?.documents ?? 0;
  }

  return {
    find,
    canEdit,
    writable: async (found: FoundCollection) => (await writableOf([found])).get(found.row.id) ?? false,

    async list(principal: Principal, workspaceId: string): Promise<RagCollection[]> {
      await deps.workspaces.visible(principal, workspaceId);
      const found = await db
        .select({ row: ragCollections, connector: connectors })
        .from(ragCollections)
        .innerJoin(connectors, eq(connectors.id, ragCollections.connectorId))
        .where(
          and(
            eq(ragCollections.workspaceId, workspaceId),
            eq(ragCollections.organizationId, principal.organizationId),
          ),
        )
        .orderBy(asc(ragCollections.createdAt));
      return view(found);
    },

    async get(principal: Principal, id: string): Promise<RagCollection> {
      return (await view([await find(principal, id)]))[0]!;
    },

    async create(principal: Principal, body: CreateRagCollectionBody): Promise<string> {
      const workspaceId = body.workspace_id;
      await canEdit(principal, workspaceId);
      const connector = body.connector_id
        ? await deps.connectors.find(principal, body.connector_id)
        : await deps.connectors.ensureBuiltin(principal.organizationId, workspaceId);
      if (connector.workspaceId !== workspaceId) throw notFound('connector');
      await modelOf(principal, workspaceId, body.embeddings_model_id, 'text-embeddings');
      if (body.rerank_model_id) await modelOf(principal, workspaceId, body.rerank_model_id, 'rerank');
      if (body.ocr_model_id) await modelOf(principal, workspaceId, body.ocr_model_id, 'ocr');
      const chunkSize = body.chunk_size ?? 1000;
      const chunkOverlap = body.chunk_overlap ?? Math.min(200, Math.floor(chunkSize / 5));
      checkChunks(chunkSize, chunkOverlap);
      const textLanguage = body.full_text_language ?? 'simple';
      checkTextLanguage(connector.kind, textLanguage);

      const id = randomUUID();
      const store = await deps.connectors.storeOf(connector);
      let collectionName: string;
      let dimension: number;
      let distance = body.distance ?? 'cosine';
      if (connector.kind === 'builtin') {
        collectionName = `rc_${id.replace(/-/g, '')}`;
        dimension = await probeDimension(principal, workspaceId, body.embeddings_model_id);
        // Its vector index is built once its first ingestion is written (ingest/worker.ts).
        await mapped(() =>
          store.createCollection({
            name: collectionName,
            dimension,
            distance,
            deferVectorIndex: true,
            textLanguage,
          }),
        );
      } else {
        if (!body.collection_name) {
          throw new AppError(422, 'collection_name_required', 'Choose a collection of the connector.');
        }
        collectionName = body.collection_name;
        const info = await mapped(
          () => withTimeout(store.collectionInfo(collectionName), STORE_TIMEOUT_MS, 'The connector'),
          true,
        );
        dimension = info.dimension;
        distance = info.distance;
      }
      try {
        await db.insert(ragCollections).values({
          id,
          organizationId: principal.organizationId,
          workspaceId,
          name: body.name,
          description: body.description ?? '',
          connectorId: connector.id,
          collectionName,
          embeddingsModelId: body.embeddings_model_id,
          dimension,
          distance,
          splitter: body.splitter ?? 'recursive',
          chunkSize,
          chunkOverlap,
          topK: body.top_k ?? 4,
          scoreThreshold: body.score_threshold ?? null,
          rerankModelId: body.rerank_model_id ?? null,
          ocrModelId: body.ocr_model_id ?? null,
          hybrid: body.hybrid ?? false,
          fullTextLanguage: textLanguage,
          createdBy: principal.userId,
        });
      } catch (error) {
        if (connector.kind === 'builtin') await store.dropCollection(collectionName).catch(() => undefined);
        if (isUniqueViolation(error)) {
          throw conflict(
            'collection_exists',
            'A RAG collection already uses this collection of the connector.',
          );
        }
        throw error;
      }
      return id;
    },

    async update(principal: Principal, id: string, body: UpdateRagCollectionBody): Promise<RagCollection> {
      const found = await find(principal, id);
      const { row, connector } = found;
      await canEdit(principal, row.workspaceId);
      const modelChanged =
        body.embeddings_model_id !== undefined && body.embeddings_model_id !== row.embeddingsModelId;
      const languageChanged =
        body.full_text_language !== undefined && body.full_text_language !== row.fullTextLanguage;
      if (languageChanged) checkTextLanguage(connector.kind, body.full_text_language!);
      let dimension = row.dimension;
      if (modelChanged || languageChanged) {
        const store = await deps.connectors.storeOf(connector);
        const stored = await mapped(() =>
          withTimeout(store.collectionInfo(row.collectionName), STORE_TIMEOUT_MS, 'The connector'),
        ).catch(() => ({ count: 0 }));
        if ((await documentCount(id)) > 0 || stored.count > 0) {
          throw conflict(
            'collection_not_empty',
            modelChanged
              ? 'The embeddings model cannot change while the collection holds documents: their vectors came from the current model.'
              : 'The full-text language cannot change while the collection holds documents: their words were read in the current one.',
          );
        }
        if (modelChanged)
          await modelOf(principal, row.workspaceId, body.embeddings_model_id!, 'text-embeddings');
        if (connector.kind === 'builtin') {
          if (modelChanged)
            dimension = await probeDimension(principal, row.workspaceId, body.embeddings_model_id!);
          // The empty store collection is made again with the new dimension or language.
          if (dimension !== row.dimension || languageChanged) {
            await mapped(() => store.dropCollection(row.collectionName));
            await mapped(() =>
              store.createCollection({
                name: row.collectionName,
                dimension: dimension!,
                distance: row.distance,
                deferVectorIndex: true,
                textLanguage: body.full_text_language ?? row.fullTextLanguage,
              }),
            );
          }
        }
      }
      if (body.rerank_model_id) await modelOf(principal, row.workspaceId, body.rerank_model_id, 'rerank');
      if (body.ocr_model_id) await modelOf(principal, row.workspaceId, body.ocr_model_id, 'ocr');
      checkChunks(body.chunk_size ?? row.chunkSize, body.chunk_overlap ?? row.chunkOverlap);
      const {
        embeddings_model_id,
        chunk_size,
        chunk_overlap,
        top_k,
        score_threshold,
        rerank_model_id,
        ocr_model_id,
        full_text_language,
        ...rest
      } = body;
      const [updated] = await db
        .update(ragCollections)
        .set({
          ...rest,
          ...(embeddings_model_id !== undefined ? { embeddingsModelId: embeddings_model_id, dimension } : {}),
          ...(chunk_size !== undefined ? { chunkSize: chunk_size } : {}),
          ...(chunk_overlap !== undefined ? { chunkOverlap: chunk_overlap } : {}),
          ...(top_k !== undefined ? { topK: top_k } : {}),
          ...(score_threshold !== undefined ? { scoreThreshold: score_threshold } : {}),
          ...(rerank_model_id !== undefined ? { rerankModelId: rerank_model_id } : {}),
          ...(ocr_model_id !== undefined ? { ocrModelId: ocr_model_id } : {}),
          ...(full_text_language !== undefined ? { fullTextLanguage: full_text_language } : {}),
          updatedAt: new Date(),
        })
        .where(and(eq(ragCollections.id, id), eq(ragCollections.organizationId, principal.organizationId)))
        .returning();
      return (await view([{ row: updated!, connector }]))[0]!;
    },

    /** Built-in: its store collection is dropped. External: the data stays where it is. Uploads go. */
    async remove(principal: Principal, id: string) {
      const { row, connector } = await find(principal, id);
      await canEdit(principal, row.workspaceId);
      // The row goes first: an ingestion still running then finds its collection gone and never makes
      // the store collection again (ingest/worker.ts drops it if it raced past that check).
      await db
        .delete(ragCollections)
        .where(and(eq(ragCollections.id, id), eq(ragCollections.organizationId, principal.organizationId)));
      if (connector.kind === 'builtin') {
        const store = await deps.connectors.storeOf(connector);
        await mapped(() => store.dropCollection(row.collectionName)).catch((error: unknown) => {
          if ((error as { status?: number }).status !== 404) throw error;
        });
      }
      await rm(uploadsDirOf(deps.dataDir, row.organizationId, row.id), { recursive: true, force: true });
    },

    async query(principal: Principal, id: string, body: QueryCollectionBody): Promise<QueryCollectionAnswer> {
      const loaded = await loadForQuery(principal, id);
      const scope = userScope(principal, loaded.collection.workspaceId);
      return mapped(() => deps.knowledge.query(scope, id, body, loaded));
    },
  };
}

export type CollectionsService = ReturnType<typeof createCollectionsService>;
