import { randomUUID } from 'node:crypto';
import { connectors, ragCollections, type Db } from '@atelier/db';
import type { ConnectorRecord, Knowledge, VectorStore } from '@atelier/knowledge';
import { keyHint, type SecretBox } from '@atelier/metering';
import { assertSafeUrl, splitUserinfo, type UrlPolicy } from '@atelier/net';
import type {
  CollectionMetadata,
  Connector,
  ConnectorCollection,
  CreateConnectorBody,
  UpdateConnectorBody,
} from '@atelier/schemas';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import { AppError, conflict, notFound } from '../errors';
import type { WorkspacesService } from '../workspaces/workspaces-service';
import { connectorFields, SUPPORTED_CONNECTORS } from './catalog';
import { asAppError, mapped, withTimeout } from './errors';
import { requireSettings, sealSecret, splitSettings } from './sealed-settings';

export type ConnectorRow = typeof connectors.$inferSelect;
/** What the API needs of the knowledge capability. */
export type KnowledgeApi = Pick<
  Knowledge,
  'storeFor' | 'query' | 'notifyIngestion' | 'storageNode' | 'webSourcePages'
>;

/** How long a remote store may take to list its collections or answer a preview. */
export const STORE_TIMEOUT_MS = 10_000;

export interface ConnectorsDeps {
  db: Db;
  workspaces: WorkspacesService;
  box: SecretBox;
  /** What connector URLs may reach (checked when saved and before each use). */
  urlPolicy: UrlPolicy;
  knowledge: KnowledgeApi;
}

export function toConnector(row: ConnectorRow): Connector {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    name: row.name,
    kind: row.kind,
    description: row.description,
    settings: row.settings,
    secret_hint: keyHint(row.secretLast4),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Same scheme, host and port (URL.origin is "null" for postgres:// URLs). */
function sameServer(a: string, b: string): boolean {
  try {
    const [x, y] = [new URL(a), new URL(b)];
    return x.protocol === y.protocol && x.host === y.host;
  } catch {
    return false;
  }
}

const labelOf = (kind: string) => SUPPORTED_CONNECTORS.find((c) => c.kind === kind)?.label ?? kind;

/**
 * Connectors: where a workspace's vectors live. The built-in one (Atelier's database) exists once per
 * workspace, created on first use; external ones (pgvector, Qdrant) keep their secret sealed (a
 * connection string's `user:password`, an API key) and their URL checked by the SSRF guard.
 */
export function createConnectorsService(deps: ConnectorsDeps) {
  const { db } = deps;

  /** A pgvector URL is checked as the host and port it connects to; a socket or host override is refused. */
  async function checkUrl(kind: ConnectorRow['kind'], url: string) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new AppError(422, 'invalid_url', 'The connector URL is not a valid URL.');
    }
    let checked = url;
    if (kind === 'pgvector') {
      if (!/^postgres(ql)?:$/.test(parsed.protocol) || !parsed.hostname) {
        throw new AppError(
          422,
          'invalid_url',
          'A pgvector connection string looks like postgres://host:5432/db.',
        );
      }
      if (parsed.searchParams.has('host') || parsed.searchParams.has('hostaddr')) {
        throw new AppError(
          422,
          'unsafe_url',
          'The connection string may not name another host in its options.',
        );
      }
      checked = `http://${parsed.host}/`;
    }
    await mapped(() => assertSafeUrl(checked, deps.urlPolicy, 'The connector URL'));
  }

  async function find(principal: Principal, id: string): Promise<ConnectorRow> {
    const [row] = await db
      .select()
      .from(connectors)
      .where(and(eq(connectors.id, id), eq(connectors.organizationId, principal.organizationId)))
      .limit(1);
    if (!row) throw notFound('connector');
    await deps.workspaces.visible(principal, row.workspaceId).catch(() => {
      throw notFound('connector');
    });
    return row;
  }

  const builtinOf = (workspaceId: string) =>
    db
      .select()
      .from(connectors)
      .where(and(eq(connectors.workspaceId, workspaceId), eq(connectors.kind, 'builtin')))
      .limit(1);

  /** The workspace's built-in connector, created on first use (a lock keeps concurrent callers to one row). */
  async function ensureBuiltin(organizationId: string, workspaceId: string): Promise<ConnectorRow> {
    const [existing] = await builtinOf(workspaceId);
    if (existing) return existing;
    return db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`builtin-connector:${workspaceId}`}))`);
      const [row] = await tx
        .select()
        .from(connectors)
        .where(and(eq(connectors.workspaceId, workspaceId), eq(connectors.kind, 'builtin')))
        .limit(1);
      if (row) return row;
      const [created] = await tx
        .insert(connectors)
        .values({
          organizationId,
          workspaceId,
          name: 'Built-in store',
          kind: 'builtin',
          description: "Atelier's own database",
        })
        .returning();
      return created!;
    });
  }

  /** The store behind a connector; an external URL is checked again first (its DNS may have changed). */
  async function storeOf(row: ConnectorRow): Promise<VectorStore> {
    if (row.kind !== 'builtin' && row.settings.url) await checkUrl(row.kind, row.settings.url);
    const record: ConnectorRecord = {
      id: row.id,
      organizationId: row.organizationId,
      workspaceId: row.workspaceId,
      kind: row.kind,
      settings: row.settings,
      secretEncrypted: row.secretEncrypted,
    };
    return mapped(() => deps.knowledge.storeFor(record));
  }

  /** The built-in store's collections are shared by every workspace: only this workspace's are shown. */
  async function ownCollections(row: ConnectorRow): Promise<Map<string, string>> {
    const rows = await db
      .select({ name: ragCollections.collectionName, label: ragCollections.name })
      .from(ragCollections)
      .where(and(eq(ragCollections.connectorId, row.id), eq(ragCollections.workspaceId, row.workspaceId)));
    return new Map(rows.map((r) => [r.name, r.label]));
  }

  async function collectionsOf(row: ConnectorRow): Promise<ConnectorCollection[]> {
    const store = await storeOf(row);
    const all = await mapped(
      () => withTimeout(store.listCollections(), STORE_TIMEOUT_MS, 'The connector'),
      row.kind !== 'builtin',
    );
    const own = await ownCollections(row);
    return all
      .filter((c) => row.kind !== 'builtin' || own.has(c.name))
      .map((c) => ({
        name: c.name,
        description: own.get(c.name) ?? '',
        dimension: c.dimension,
        distance: c.distance,
        writable: c.writable,
      }));
  }

  /** A named collection of the connector, the built-in one's limited to this workspace's. */
  async function assertListed(row: ConnectorRow, name: string) {
    if (row.kind === 'builtin' && !(await ownCollections(row)).has(name)) throw notFound('collection');
  }

  /** The URL and secret to store: a pgvector URL's credentials and a Qdrant's api_key are the secret. */
  function storedSettings(
    id: string,
    kind: ConnectorRow['kind'],
    given: Record<string, string>,
    row?: ConnectorRow,
  ) {
    const fields = connectorFields(kind);
    const { plain, secret } = splitSettings(fields, labelOf(kind), given);
    const settings = { ...row?.settings, ...plain };
    let sealed: { secretEncrypted: string | null; secretLast4: string | null } = {
      secretEncrypted: row?.secretEncrypted ?? null,
      secretLast4: row?.secretLast4 ?? null,
    };
    if (kind === 'pgvector' && plain.url) {
      const { url, userinfo } = splitUserinfo(plain.url);
      settings.url = url;
      if (userinfo) sealed = sealSecret(deps.box, id, userinfo);
      else if (!(row?.settings.url && sameServer(row.settings.url, url)))
        sealed = { secretEncrypted: null, secretLast4: null };
    }
    if (secret) sealed = sealSecret(deps.box, id, secret);
    requireSettings(fields, labelOf(kind), settings, sealed.secretEncrypted !== null);
    return { settings, ...sealed, urlChanged: plain.url !== undefined };
  }

  return {
    find,
    ensureBuiltin,
    storeOf,
    assertListed,

    async list(principal: Principal, workspaceId: string): Promise<Connector[]> {
      await deps.workspaces.visible(principal, workspaceId);
      await ensureBuiltin(principal.organizationId, workspaceId);
      const rows = await db
        .select()
        .from(connectors)
        .where(
          and(
            eq(connectors.workspaceId, workspaceId),
            eq(connectors.organizationId, principal.organizationId),
          ),
        )
        .orderBy(sql`${connectors.kind} <> 'builtin'`, asc(connectors.createdAt));
      return rows.map(toConnector);
    },

    async get(principal: Principal, id: string): Promise<Connector> {
      return toConnector(await find(principal, id));
    },

    async create(principal: Principal, body: CreateConnectorBody): Promise<string> {
      await deps.workspaces.assertCanBuild(principal, body.workspace_id, 'change its connectors');
      const id = randomUUID();
      const { urlChanged: _changed, ...stored } = storedSettings(id, body.kind, body.settings);
      if (stored.settings.url) await checkUrl(body.kind, stored.settings.url);
      await db.insert(connectors).values({
        id,
        organizationId: principal.organizationId,
        workspaceId: body.workspace_id,
        name: body.name,
        kind: body.kind,
        description: body.description ?? '',
        ...stored,
      });
      return id;
    },

    async update(principal: Principal, id: string, body: UpdateConnectorBody): Promise<Connector> {
      const row = await find(principal, id);
      if (row.kind === 'builtin') {
        throw conflict('builtin_connector', 'The built-in store cannot be changed.');
      }
      await deps.workspaces.assertCanBuild(principal, row.workspaceId, 'change its connectors');
      const { urlChanged, ...stored } = storedSettings(id, row.kind, body.settings ?? {}, row);
      if (urlChanged && stored.settings.url) await checkUrl(row.kind, stored.settings.url);
      const [updated] = await db
        .update(connectors)
        .set({
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...stored,
          updatedAt: new Date(),
        })
        .where(and(eq(connectors.id, id), eq(connectors.organizationId, principal.organizationId)))
        .returning();
      return toConnector(updated!);
    },

    async remove(principal: Principal, id: string) {
      const row = await find(principal, id);
      if (row.kind === 'builtin') {
        throw conflict('builtin_connector', 'The built-in store cannot be deleted.');
      }
      await deps.workspaces.assertCanBuild(principal, row.workspaceId, 'change its connectors');
      const [used] = await db
        .select({ id: ragCollections.id })
        .from(ragCollections)
        .where(eq(ragCollections.connectorId, id))
        .limit(1);
      if (used) {
        throw conflict('connector_in_use', 'A RAG collection uses this connector: delete it first.');
      }
      await db
        .delete(connectors)
        .where(and(eq(connectors.id, id), eq(connectors.organizationId, principal.organizationId)));
    },

    /** Lists the connector's collections within the time limit: proves the URL and the credentials. */
    async test(principal: Principal, id: string) {
      const row = await find(principal, id);
      try {
        const collections = (await collectionsOf(row)).length;
        const plural = collections === 1 ? '' : 's';
        return { ok: true, detail: `Connected: ${collections} collection${plural} found.`, collections };
      } catch (error) {
        const known = asAppError(error);
        const detail = known instanceof AppError ? known.detail : 'The connector could not be reached.';
        return { ok: false, detail, collections: 0 };
      }
    },

    async collections(principal: Principal, id: string): Promise<ConnectorCollection[]> {
      return collectionsOf(await find(principal, id));
    },

    async metadata(principal: Principal, id: string, name: string): Promise<CollectionMetadata> {
      const row = await find(principal, id);
      await assertListed(row, name);
      const store = await storeOf(row);
      const info = await mapped(
        () => withTimeout(store.collectionInfo(name), STORE_TIMEOUT_MS, 'The connector'),
        row.kind !== 'builtin',
      );
      return {
        name: info.name,
        dimension: info.dimension,
        distance: info.distance,
        count: info.count,
        metadata_keys: info.metadataKeys,
        writable: info.writable,
      };
    },

    async preview(principal: Principal, id: string, name: string, page: { limit: number; offset: number }) {
      const row = await find(principal, id);
      await assertListed(row, name);
      const store = await storeOf(row);
      const chunks = await mapped(
        () => withTimeout(store.preview(name, page), STORE_TIMEOUT_MS, 'The connector'),
        row.kind !== 'builtin',
      );
      return {
        rows: chunks.map((c) => ({ id: c.id, content: c.content, metadata: c.metadata })),
        limit: page.limit,
        offset: page.offset,
      };
    },
  };
}

export type ConnectorsService = ReturnType<typeof createConnectorsService>;
