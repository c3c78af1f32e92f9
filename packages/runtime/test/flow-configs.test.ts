import { flowConfigurations, organizations, queryRows, runs, statementRows } from '@atelier/db';
import type { FlowConfiguration } from '@atelier/schemas';
import { sharedTestDatabase } from '@atelier/testkit';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createFlowConfigs } from '../src';

const flow = (text: string): FlowConfiguration => ({
  nodes: [{ id: 'text_01', type: 'text', position: { x: 0, y: 0 }, data: { fields: { text } } }],
  edges: [],
});

async function twoOrganizations() {
  const { db } = await sharedTestDatabase();
  const [a, b] = await db
    .insert(organizations)
    .values([{ name: 'Configs A' }, { name: 'Configs B' }])
    .returning({ id: organizations.id });
  return { db, a: a!.id, b: b!.id };
}

const storedOf = async (db: Awaited<ReturnType<typeof twoOrganizations>>['db'], org: string) =>
  db.select().from(flowConfigurations).where(eq(flowConfigurations.organizationId, org));

describe('flow configurations, stored once', () => {
  it('names a configuration by its content and stores it once per organization', async () => {
    const { db, a, b } = await twoOrganizations();
    const configs = createFlowConfigs(db);
    const one = flow('one');
    const hash = await configs.store(a, one);
    // The same content in another object has the same name; a change gives another.
    expect(configs.hashOf(structuredClone(one))).toBe(hash);
    expect(configs.hashOf(flow('two'))).not.toBe(hash);
    expect(await configs.store(a, structuredClone(one))).toBe(hash);
    // Another process, which does not know it is stored, stores it again: still one row.
    expect(await createFlowConfigs(db).store(a, one)).toBe(hash);
    expect(await storedOf(db, a)).toHaveLength(1);
    // Another organization gets its own copy (deleting an organization deletes its configurations).
    await configs.store(b, one);
    expect(await storedOf(db, b)).toHaveLength(1);
    await db.delete(organizations).where(eq(organizations.id, b));
    expect(await storedOf(db, b)).toHaveLength(0);
    expect(await storedOf(db, a)).toHaveLength(1);
  });

  it('skips the insert for configurations this process stored, and reads the others once', async () => {
    const { db, a } = await twoOrganizations();
    const writer = createFlowConfigs(db);
    const config = flow('shared');
    const storing = writer.storing([
      { organizationId: a, configuration: config },
      { organizationId: a, configuration: config },
    ]);
    expect(storing).not.toBeNull();
    await statementRows(db, storing!);
    writer.stored([{ organizationId: a, configuration: config }]);
    expect(writer.storing([{ organizationId: a, configuration: config }])).toBeNull();
    const hash = writer.hashOf(config);
    // The writer runs it with the object it holds; another process reads it from the database once.
    expect(await writer.load(a, hash)).toBe(config);
    const reader = createFlowConfigs(db);
    const read = await reader.load(a, hash);
    expect(read).toEqual(config);
    expect(await reader.load(a, hash)).toBe(read);
    // Another organization's name for it reaches nothing.
    const { b } = await twoOrganizations();
    await expect(reader.load(b, hash)).rejects.toThrow(/is gone/);
  });

  it('a run cannot name a configuration its organization does not have', async () => {
    const { db, a, b } = await twoOrganizations();
    const hash = await createFlowConfigs(db).store(a, flow('private'));
    const insert = db.insert(runs).values({
      organizationId: b,
      workspaceId: b,
      chatbotType: 'workflow',
      trigger: 'test',
      configurationHash: hash,
    });
    await expect(insert).rejects.toThrow();
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from runs where organization_id = ${b}`,
    );
    expect(row!.n).toBe(0);
  });
});
