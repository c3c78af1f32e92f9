import { randomUUID } from 'node:crypto';
import { tools, type Db } from '@atelier/db';
import { keyHint, type SecretBox } from '@atelier/metering';
import type { CreateToolBody, Tool, UpdateToolBody } from '@atelier/schemas';
import { and, asc, eq } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import { AppError, notFound } from '../errors';
import type { WorkspacesService } from '../workspaces/workspaces-service';
import { TOOL_TYPES, toolFields } from './catalog';
import { requireSettings, sealSecret, splitSettings } from './sealed-settings';

type ToolRow = typeof tools.$inferSelect;

export function toTool(row: ToolRow): Tool {
  return {
    tool_id: row.id,
    workspace_id: row.workspaceId,
    name: row.name,
    type: row.type,
    description: row.description,
    settings: row.settings,
    secret_hint: keyHint(row.secretLast4),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const labelOf = (type: string) => TOOL_TYPES.find((t) => t.type === type)?.label ?? type;

/** A site URL is a plain http(s) URL; the loaders reach it through the SSRF-guarded client. */
function checkSiteUrl(settings: Record<string, string>) {
  const url = settings.site_url;
  if (url === undefined) return;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || parsed.username) {
    throw new AppError(422, 'invalid_url', 'The site URL must be an http(s) URL without credentials.');
  }
}

/**
 * Stored tool configurations (a Figma token, a Jira site…) that flow nodes reference by `toolId`:
 * the type's one secret sealed (context: the tool's id) and shown only as a hint.
 */
export function createToolsService(deps: { db: Db; workspaces: WorkspacesService; box: SecretBox }) {
  const { db } = deps;

  async function find(principal: Principal, id: string): Promise<ToolRow> {
    const [row] = await db
      .select()
      .from(tools)
      .where(and(eq(tools.id, id), eq(tools.organizationId, principal.organizationId)))
      .limit(1);
    if (!row) throw notFound('tool');
    await deps.workspaces.visible(principal, row.workspaceId).catch(() => {
      throw notFound('tool');
    });
    return row;
  }

  function stored(id: string, type: ToolRow['type'], given: Record<string, string>, row?: ToolRow) {
    const fields = toolFields(type);
    const { plain, secret } = splitSettings(fields, labelOf(type), given);
    const settings = { ...row?.settings, ...plain };
    const sealed = secret
      ? sealSecret(deps.box, id, secret)
      : { secretEncrypted: row?.secretEncrypted ?? null, secretLast4: row?.secretLast4 ?? null };
    requireSettings(fields, labelOf(type), settings, sealed.secretEncrypted !== null);
    checkSiteUrl(settings);
    return { settings, ...sealed };
  }

  const canEdit = (principal: Principal, workspaceId: string) =>
    deps.workspaces.assertCanBuild(principal, workspaceId, 'change its tools');

  return {
    types: () => TOOL_TYPES,

    async list(principal: Principal, workspaceId: string): Promise<Tool[]> {
      await deps.workspaces.visible(principal, workspaceId);
      const rows = await db
        .select()
        .from(tools)
        .where(and(eq(tools.workspaceId, workspaceId), eq(tools.organizationId, principal.organizationId)))
        .orderBy(asc(tools.createdAt));
      return rows.map(toTool);
    },

    async get(principal: Principal, id: string): Promise<Tool> {
      return toTool(await find(principal, id));
    },

    async create(principal: Principal, body: CreateToolBody): Promise<string> {
      await canEdit(principal, body.workspace_id);
      const id = randomUUID();
      await db.insert(tools).values({
        id,
        organizationId: principal.organizationId,
        workspaceId: body.workspace_id,
        name: body.name,
        type: body.type,
        description: body.description ?? '',
        ...stored(id, body.type, body.settings),
      });
      return id;
    },

    async update(principal: Principal, id: string, body: UpdateToolBody): Promise<Tool> {
      const row = await find(principal, id);
      await canEdit(principal, row.workspaceId);
      const [updated] = await db
        .update(tools)
        .set({
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...stored(id, row.type, body.settings ?? {}, row),
          updatedAt: new Date(),
        })
        .where(and(eq(tools.id, id), eq(tools.organizationId, principal.organizationId)))
        .returning();
      return toTool(updated!);
    },

    async remove(principal: Principal, id: string) {
      const row = await find(principal, id);
      await canEdit(principal, row.workspaceId);
      await db.delete(tools).where(and(eq(tools.id, id), eq(tools.organizationId, principal.organizationId)));
    },
  };
}

export type ToolsService = ReturnType<typeof createToolsService>;
