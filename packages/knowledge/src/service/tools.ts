import type { SecretBox } from '@atelier/metering';
import type { SqlClient } from '../stores/sql-client';
import { UUID, type Tenant } from './records';

/** A stored tool configuration as the loaders use it: its secret opened. */
export interface ResolvedTool {
  type: string;
  settings: Record<string, string>;
  secret: string | null;
}

/**
 * A tool of the tenant's workspace by id (what nodes reference as `toolId`), its secret opened with the
 * tool's id as context (as the API seals it); null for any other id.
 */
export async function resolveTool(
  sql: SqlClient,
  box: SecretBox,
  tenant: Tenant,
  toolId: string,
): Promise<ResolvedTool | null> {
  if (!UUID.test(toolId)) return null;
  const [row] = await sql.query<{
    type: string;
    settings: Record<string, string> | string;
    secret_encrypted: string | null;
  }>(
    'SELECT type, settings, secret_encrypted FROM tools WHERE id = $1 AND organization_id = $2 AND workspace_id = $3',
    [toolId, tenant.organizationId, tenant.workspaceId],
  );
  if (!row) return null;
  return {
    type: row.type,
    settings:
      typeof row.settings === 'string' ? (JSON.parse(row.settings) as Record<string, string>) : row.settings,
    secret: row.secret_encrypted ? box.open(row.secret_encrypted, toolId) : null,
  };
}
