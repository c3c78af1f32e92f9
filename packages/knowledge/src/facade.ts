import type { Db } from '@atelier/db';
import type { KnowledgeServices } from '@atelier/engine';
import type { MeterScope, ModelAccess, ModelTarget, SecretBox } from '@atelier/metering';
import type { UrlPolicy } from '@atelier/net';
import type { QueryCollectionAnswer, QueryCollectionBody } from '@atelier/schemas';
import type { FullTextLanguage } from '@atelier/schemas/constants';
import type { WebSource } from './ingest/web-source';
import type { Distance, VectorStore } from './stores/vector-store';

/**
 * The knowledge capability as its hosts (the runtime, the API) see it. Access checks (who may see a
 * workspace) stay in the API; everything here is told the organization and workspace it acts for and
 * never reaches another one's rows.
 */
export interface KnowledgeDeps {
  db: Db;
  models: ModelAccess;
  box: SecretBox;
  /** What connector URLs may reach (the provider policy: a vector database is an operator's choice). */
  urlPolicy: UrlPolicy;
  /** What loader nodes may fetch (the node policy: URLs come from flows and their users). */
  loaderPolicy: UrlPolicy;
  /** Base URLs of the Notion and Figma APIs for the loaders (tests, proxies); unset: the real APIs. */
  loaderEndpoints?: { notion?: string | undefined; figma?: string | undefined } | undefined;
  /** Uploads wait in `<dataDir>/uploads` until ingested. */
  dataDir: string;
  /**
   * The database is the embedded PGlite (WebAssembly, one statement at a time): the built-in store's
   * collections made from now on get a `vector` HNSW index, not a `halfvec` one (see store-factory.ts).
   */
  embeddedDatabase?: boolean;
  /** On the embedded database: the most chunks a collection holds without an HNSW index (tests). */
  exactSearchUpTo?: number;
  onError(error: unknown, context: string): void;
}

/** A connector row as the capability needs it (secret still sealed). */
export interface ConnectorRecord {
  id: string;
  organizationId: string;
  workspaceId: string;
  kind: 'builtin' | 'pgvector' | 'qdrant';
  settings: Record<string, string>;
  secretEncrypted: string | null;
}

/** A RAG collection as ingestion and retrieval need it. */
export interface CollectionRecord {
  id: string;
  organizationId: string;
  workspaceId: string;
  name: string;
  collectionName: string;
  embeddingsModelId: string | null;
  dimension: number | null;
  distance: Distance;
  splitter: 'recursive' | 'markdown' | 'html';
  chunkSize: number;
  chunkOverlap: number;
  topK: number;
  scoreThreshold: number | null;
  rerankModelId: string | null;
  ocrModelId: string | null;
  hybrid: boolean;
  /** The language its full-text search reads chunks in (the store collection is made with it). */
  fullTextLanguage: FullTextLanguage;
  connector: ConnectorRecord;
}

/** A collection read by the caller, with its embeddings model (null: not found in its workspace). */
export interface LoadedCollection {
  collection: CollectionRecord;
  embeddings: ModelTarget | null;
}

export interface Knowledge {
  /** The store behind a connector (cached per connector and settings; closed by `close`). */
  storeFor(connector: ConnectorRecord): Promise<VectorStore>;
  /**
   * Top-k retrieval from one collection: embed (metered), search, optional hybrid/rerank/threshold.
   * `loaded`: the collection (and its embeddings model) as the caller already read them with its access
   * checks, in the scope's workspace; otherwise they are read here.
   */
  query(
    scope: MeterScope,
    collectionId: string,
    body: QueryCollectionBody,
    loaded?: LoadedCollection,
  ): Promise<QueryCollectionAnswer>;
  /**
   * The page addresses a web source adds to a collection (ingest/web-source.ts): the page, checked
   * against the loaders' policy, or its sitemap's pages, read now. The worker fetches each page.
   */
  webSourcePages(source: WebSource, signal: AbortSignal): Promise<string[]>;
  /** The id of this process's DATA_DIR: uploads are marked with it (see ingest/storage-node.ts). */
  storageNode(): string;
  /** Wakes the ingestion worker (documents are claimed from `rag_documents`, so nothing is lost if not). */
  notifyIngestion(): void;
  /** Starts claiming queued documents in this process (the process that executes runs). */
  startIngestionWorker(options: { concurrency: number }): void;
  /** The engine's knowledge seam for one run. */
  engineServices(scope: MeterScope): KnowledgeServices;
  close(): Promise<void>;
}
