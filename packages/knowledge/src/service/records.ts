import type { FullTextLanguage } from '@atelier/schemas/constants';
import type { CollectionRecord, ConnectorRecord } from '../facade';

export type { CollectionRecord };
import type { SqlClient } from '../stores/sql-client';
import { KnowledgeError, type Distance } from '../stores/vector-store';

/** Ids from flows and URLs are free text: anything but a UUID is simply not found. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The organization and workspace a call acts for: rows of any other are never read. */
export interface Tenant {
  organizationId: string;
  workspaceId: string;
}

interface CollectionRow {
  id: string;
  organization_id: string;
  workspace_id: string;
  name: string;
  collection_name: string;
  embeddings_model_id: string | null;
  dimension: number | null;
  distance: Distance;
  splitter: CollectionRecord['splitter'];
  chunk_size: number;
  chunk_overlap: number;
  top_k: number;
  score_threshold: number | null;
  rerank_model_id: string | null;
  ocr_model_id: string | null;
  hybrid: boolean;
  full_text_language: FullTextLanguage;
  connector_id: string;
  connector_kind: ConnectorRecord['kind'];
  connector_settings: Record<string, string> | string;
  connector_secret: string | null;
}

const COLLECTION_SELECT = `SELECT c.id, c.organization_id, c.workspace_id, c.name, c.collection_name,
  c.embeddings_model_id, c.dimension, c.distance, c.splitter, c.chunk_size, c.chunk_overlap, c.top_k,
  c.score_threshold, c.rerank_model_id, c.ocr_model_id, c.hybrid, c.full_text_language, k.id AS connector_id, k.kind AS connector_kind,
  k.settings AS connector_settings, k.secret_encrypted AS connector_secret
  FROM rag_collections c JOIN connectors k ON k.id = c.connector_id`;

function toCollection(row: CollectionRow): CollectionRecord {
  const settings =
    typeof row.connector_settings === 'string'
      ? (JSON.parse(row.connector_settings) as Record<string, string>)
      : row.connector_settings;
  return {
    id: row.id,
    organizationId: row.organization_id,
    workspaceId: row.workspace_id,
    name: row.name,
    collectionName: row.collection_name,
    embeddingsModelId: row.embeddings_model_id,
    dimension: row.dimension,
    distance: row.distance,
    splitter: row.splitter,
    chunkSize: row.chunk_size,
    chunkOverlap: row.chunk_overlap,
    topK: row.top_k,
    scoreThreshold: row.score_threshold === null ? null : Number(row.score_threshold),
    rerankModelId: row.rerank_model_id,
    ocrModelId: row.ocr_model_id,
    hybrid: row.hybrid,
    fullTextLanguage: row.full_text_language,
    connector: {
      id: row.connector_id,
      organizationId: row.organization_id,
      workspaceId: row.workspace_id,
      kind: row.connector_kind,
      settings,
      secretEncrypted: row.connector_secret,
    },
  };
}

const collectionNotFound = (id: string) =>
  new KnowledgeError(404, 'collection_not_found', `The collection ${id} does not exist in this workspace.`);

/** A collection of the tenant's workspace with its connector; any other id answers 404. */
export async function loadCollection(sql: SqlClient, tenant: Tenant, id: string): Promise<CollectionRecord> {
  if (!UUID.test(id)) throw collectionNotFound(id);
  const [row] = await sql.query<CollectionRow>(
    `${COLLECTION_SELECT} WHERE c.id = $1 AND c.organization_id = $2 AND c.workspace_id = $3`,
    [id, tenant.organizationId, tenant.workspaceId],
  );
  if (!row) throw collectionNotFound(id);
  return toCollection(row);
}

/** A collection by id whatever its workspace: for the ingestion worker, which follows a document row. */
export async function loadCollectionById(sql: SqlClient, id: string): Promise<CollectionRecord | null> {
  const [row] = await sql.query<CollectionRow>(`${COLLECTION_SELECT} WHERE c.id = $1`, [id]);
  return row ? toCollection(row) : null;
}

/** A collection of this workspace on this connector, by its store name or its own name. */
export async function findCollectionOnConnector(
  sql: SqlClient,
  tenant: Tenant,
  connectorId: string,
  name: string,
): Promise<CollectionRecord | null> {
  const [row] = await sql.query<CollectionRow>(
    `${COLLECTION_SELECT} WHERE c.connector_id = $1 AND c.organization_id = $2 AND c.workspace_id = $3
       AND (c.collection_name = $4 OR c.name = $4) ORDER BY (c.collection_name = $4) DESC LIMIT 1`,
    [connectorId, tenant.organizationId, tenant.workspaceId, name],
  );
  return row ? toCollection(row) : null;
}

/** A connector of the tenant's workspace; any other id answers 404. */
export async function loadConnector(sql: SqlClient, tenant: Tenant, id: string): Promise<ConnectorRecord> {
  const notFound = new KnowledgeError(
    404,
    'connector_not_found',
    `The connector ${id} does not exist in this workspace.`,
  );
  if (!UUID.test(id)) throw notFound;
  const [row] = await sql.query<{
    kind: ConnectorRecord['kind'];
    settings: Record<string, string> | string;
    secret_encrypted: string | null;
  }>(
    'SELECT kind, settings, secret_encrypted FROM connectors WHERE id = $1 AND organization_id = $2 AND workspace_id = $3',
    [id, tenant.organizationId, tenant.workspaceId],
  );
  if (!row) throw notFound;
  return {
    id,
    organizationId: tenant.organizationId,
    workspaceId: tenant.workspaceId,
    kind: row.kind,
    settings:
      typeof row.settings === 'string' ? (JSON.parse(row.settings) as Record<string, string>) : row.settings,
    secretEncrypted: row.secret_encrypted,
  };
}

/** Records the dimension the first embedding gave a collection created without one. */
export async function setDimension(sql: SqlClient, collectionId: string, dimension: number): Promise<void> {
  await sql.query(
    'UPDATE rag_collections SET dimension = $2, updated_at = now() WHERE id = $1 AND dimension IS NULL',
    [collectionId, dimension],
  );
}
