import { sql } from 'drizzle-orm';
import type { Db } from './client';
import { applicationRoles, workspaceRoles } from './tables';

export const APPLICATION_ROLES = [
  {
    id: 'admin',
    name: 'Admin',
    description: 'Manages users, the organization and everything in it.',
    rank: 3,
  },
  {
    id: 'creator',
    name: 'Creator',
    description: 'Builds chatbots and workflows, providers and knowledge.',
    rank: 2,
  },
  { id: 'user', name: 'User', description: 'Chats with the assistants shared with them.', rank: 1 },
] as const;

export const WORKSPACE_ROLES = [
  {
    id: 'admin',
    name: 'Workspace admin',
    description: 'Renames, shares and deletes the workspace.',
    rank: 3,
  },
  { id: 'editor', name: 'Editor', description: 'Builds and edits what the workspace holds.', rank: 2 },
  { id: 'viewer', name: 'Viewer', description: 'Sees and uses what the workspace holds.', rank: 1 },
] as const;

/** Idempotent: reference rows are inserted or brought up to date. */
export async function seedReferenceData(db: Db): Promise<void> {
  await db
    .insert(applicationRoles)
    .values([...APPLICATION_ROLES])
    .onConflictDoUpdate({
      target: applicationRoles.id,
      set: { name: sql`excluded.name`, description: sql`excluded.description`, rank: sql`excluded.rank` },
    });
  await db
    .insert(workspaceRoles)
    .values([...WORKSPACE_ROLES])
    .onConflictDoUpdate({
      target: workspaceRoles.id,
      set: { name: sql`excluded.name`, description: sql`excluded.description`, rank: sql`excluded.rank` },
    });
}
