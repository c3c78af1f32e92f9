import { createHash } from 'node:crypto';
import { joinStatements, queryRows, statementRows, stmt, type Db, type Statement } from '@atelier/db';
import type { FlowConfiguration } from '@atelier/schemas';
import { sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';

/** The configurations this process holds, parsed, by their JSON's size: about a thousand typical flows. */
const HELD_BYTES = 16 * 1024 * 1024;

export interface ConfigToStore {
  organizationId: string;
  configuration: FlowConfiguration;
}

/**
 * The flow configurations runs run, stored once per organization in `flow_configurations` and named
 * by the SHA-256 of their JSON: a run row carries the name, not a copy. A configuration is immutable
 * under its name, so this process keeps the ones it stored or read (parsed, shared by the runs that
 * run it: the engine never changes a configuration) without any invalidation. The runs of one
 * published version store it once and read it once per process.
 */
export interface FlowConfigs {
  /** The name of a configuration (worked out once per object: a cached published flow keeps it). */
  hashOf(configuration: FlowConfiguration): string;
  /**
   * The insert storing those of `items` this process does not know stored, for a CTE of the statement
   * that inserts their runs (`db.$with(...).as(...)`); null when all are known. Call `stored` once the
   * statement has committed.
   */
  storing(items: readonly ConfigToStore[]): Statement | null;
  /** Notes configurations as stored (their statement committed): later runs of them skip the CTE. */
  stored(items: readonly ConfigToStore[]): void;
  /** Stores a configuration on its own (when no run insert carries it) and answers its name. */
  store(organizationId: string, configuration: FlowConfiguration): Promise<string>;
  /** A run's configuration: held here, else read once (a 404-like error when it is gone). */
  load(organizationId: string, hash: string): Promise<FlowConfiguration>;
}

export function createFlowConfigs(db: Db): FlowConfigs {
  const hashes = new WeakMap<object, { hash: string; json: string }>();
  const held = new LRUCache<string, FlowConfiguration>({ maxSize: HELD_BYTES });
  const keyOf = (organizationId: string, hash: string) => `${organizationId}:${hash}`;

  function named(configuration: FlowConfiguration): { hash: string; json: string } {
    let entry = hashes.get(configuration);
    if (!entry) {
      const json = JSON.stringify(configuration);
      entry = { hash: createHash('sha256').update(json).digest('hex'), json };
      hashes.set(configuration, entry);
    }
    return entry;
  }

  function hold(organizationId: string, hash: string, configuration: FlowConfiguration, size: number) {
    const key = keyOf(organizationId, hash);
    if (!held.has(key)) held.set(key, configuration, { size: Math.max(1, size) });
  }

  return {
    hashOf: (configuration) => named(configuration).hash,

    storing(items) {
      const rows = new Map<string, Statement>();
      for (const { organizationId, configuration } of items) {
        const { hash, json } = named(configuration);
        const key = keyOf(organizationId, hash);
        if (held.has(key) || rows.has(key)) continue;
        rows.set(key, stmt`(${organizationId}::uuid, ${hash}::text, ${json}::jsonb)`);
      }
      if (rows.size === 0) return null;
      return stmt`insert into flow_configurations (organization_id, hash, configuration)
          values ${joinStatements([...rows.values()], ', ')}
          on conflict do nothing`;
    },

    stored(items) {
      for (const { organizationId, configuration } of items) {
        const { hash, json } = named(configuration);
        hold(organizationId, hash, configuration, json.length);
      }
    },

    async store(organizationId, configuration) {
      const items = [{ organizationId, configuration }];
      const storing = this.storing(items);
      if (storing) await statementRows(db, storing);
      this.stored(items);
      return named(configuration).hash;
    },

    async load(organizationId, hash) {
      const found = held.get(keyOf(organizationId, hash));
      if (found) return found;
      const [row] = await queryRows<{ json: string }>(
        db,
        sql`select configuration::text as json from flow_configurations
            where organization_id = ${organizationId} and hash = ${hash}`,
      );
      if (!row) throw new Error(`The flow configuration ${hash} of this run is gone.`);
      const configuration = JSON.parse(row.json) as FlowConfiguration;
      hold(organizationId, hash, configuration, row.json.length);
      return configuration;
    },
  };
}
