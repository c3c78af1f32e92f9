import { assertSafeUrl, withUserinfo } from '@atelier/net';
import type { ConnectorRecord, KnowledgeDeps } from '../facade';
import { createExternalPgvectorStore, createPgvectorStore } from '../stores/pgvector-store';
import { createQdrantStore } from '../stores/qdrant-store';
import { KnowledgeError, type VectorStore } from '../stores/vector-store';

/** Builds the store of one kind of connector (the URL already holds its credentials). */
export type StoreFactory = (connector: ConnectorRecord, deps: KnowledgeDeps) => Promise<VectorStore>;

/** A connector's sealed secret, opened: its context is the connector's id (as the API seals it). */
export function openSecret(connector: ConnectorRecord, deps: KnowledgeDeps): string | null {
  return connector.secretEncrypted ? deps.box.open(connector.secretEncrypted, connector.id) : null;
}

function connectorUrl(connector: ConnectorRecord): URL {
  const url = connector.settings.url;
  if (!url) throw new KnowledgeError(422, 'connector_url_missing', 'The connector has no URL.');
  try {
    return new URL(url);
  } catch {
    throw new KnowledgeError(422, 'invalid_connector_url', 'The connector URL is not a valid URL.');
  }
}

/**
 * A PostgreSQL connection string, its server checked by the SSRF guard (as an http URL of the same host
 * and port) before anything connects; a `host` in the query (a socket path, another server) is refused.
 */
async function safePostgresUrl(connector: ConnectorRecord, deps: KnowledgeDeps): Promise<string> {
  const url = connectorUrl(connector);
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new KnowledgeError(
      422,
      'invalid_connector_url',
      'A pgvector connector URL starts with postgres://.',
    );
  }
  if (!url.hostname || url.searchParams.has('host') || url.searchParams.has('hostaddr')) {
    throw new KnowledgeError(
      422,
      'invalid_connector_url',
      'The connection string names its server in the URL only.',
    );
  }
  await assertSafeUrl(`http://${url.host}/`, deps.urlPolicy, 'The connector URL');
  return connector.settings.url!;
}

/**
 * The most chunks a collection of the embedded database holds without an HNSW index. Exact top-10 over
 * 5,000 chunks of 1,536 dimensions took 28 ms on PGlite (20,000: 230 ms; with the index 24 ms), with
 * every result the true nearest, and no build ever holds the database.
 */
export const EMBEDDED_EXACT_SEARCH_CHUNKS = 5_000;

/**
 * One factory per kind of connector. The built-in store is Atelier's own database. An external
 * PostgreSQL gets its credentials (`user:password`, sealed apart) put back into its URL; Qdrant its API
 * key (every request through the SSRF-guarded client).
 */
export const STORE_FACTORIES: Record<ConnectorRecord['kind'], StoreFactory> = {
  // PGlite (WebAssembly) converts half floats in software: a halfvec HNSW build there took 7 times
  // as long as a vector one (2,000 chunks of 1,536 dimensions: 52.9 s against 7.3 s). And it does one
  // thing at a time: a build holds the whole database (7.3 s for those 2,000 chunks), so collections
  // there stay without an HNSW index, searched exactly, up to EMBEDDED_EXACT_SEARCH_CHUNKS.
  builtin: (_connector, deps) =>
    Promise.resolve(
      createPgvectorStore(
        deps.db,
        deps.embeddedDatabase
          ? { vectorIndex: 'vector', exactSearchUpTo: deps.exactSearchUpTo ?? EMBEDDED_EXACT_SEARCH_CHUNKS }
          : {},
      ),
    ),
  pgvector: async (connector, deps) => {
    const url = withUserinfo(await safePostgresUrl(connector, deps), openSecret(connector, deps));
    const schema = connector.settings.schema?.trim();
    return createExternalPgvectorStore(url, schema ? { schema } : {});
  },
  qdrant: async (connector, deps) => {
    const url = connectorUrl(connector);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new KnowledgeError(
        422,
        'invalid_connector_url',
        'A Qdrant connector URL starts with http:// or https://.',
      );
    }
    return createQdrantStore({
      url: url.toString(),
      apiKey: openSecret(connector, deps) ?? undefined,
      urlPolicy: deps.urlPolicy,
    });
  },
};

/** How long a store replaced by new settings stays open for the calls still using it. */
const RETIRE_AFTER_MS = 60_000;

/**
 * Stores per connector, cached by id and settings: a connector saved with new settings gets a new
 * store, and the old one is closed once the calls still using it had time to end.
 */
export function createStoreCache(deps: KnowledgeDeps, factories = STORE_FACTORIES) {
  let builtin: Promise<VectorStore> | undefined;
  const entries = new Map<string, { key: string; store: Promise<VectorStore> }>();
  const retiring = new Map<ReturnType<typeof setTimeout>, Promise<VectorStore>>();
  const closeQuietly = (store: Promise<VectorStore>) =>
    store.then((s) => s.close()).catch((error: unknown) => deps.onError(error, 'closing a vector store'));

  function storeFor(connector: ConnectorRecord): Promise<VectorStore> {
    if (connector.kind === 'builtin') {
      // Every workspace's built-in connector is the same database: one store serves them all.
      builtin ??= factories.builtin(connector, deps);
      return builtin;
    }
    const key = JSON.stringify([connector.kind, connector.settings, connector.secretEncrypted]);
    const entry = entries.get(connector.id);
    if (entry?.key === key) return entry.store;
    if (entry) {
      const timer = setTimeout(() => {
        retiring.delete(timer);
        void closeQuietly(entry.store);
      }, RETIRE_AFTER_MS);
      timer.unref();
      retiring.set(timer, entry.store);
    }
    const store = factories[connector.kind](connector, deps);
    entries.set(connector.id, { key, store });
    // A store that could not be built is not kept: the next call tries again.
    store.catch(() => {
      if (entries.get(connector.id)?.store === store) entries.delete(connector.id);
    });
    return store;
  }

  async function close(): Promise<void> {
    for (const timer of retiring.keys()) clearTimeout(timer);
    const all = [...retiring.values(), ...[...entries.values()].map((e) => e.store)];
    retiring.clear();
    if (builtin) all.push(builtin);
    entries.clear();
    builtin = undefined;
    await Promise.all(all.map(closeQuietly));
  }

  return { storeFor, close };
}
