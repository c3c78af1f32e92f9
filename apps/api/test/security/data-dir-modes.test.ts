import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { openDatabase, queryRows } from '@atelier/db';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadConfig, secureDataDir } from '../../src/env';

// Database files under DATA_DIR were created readable and writable by everyone (968 of 1,087 files
// -rw-rw-rw-). Everything there is now owner-only: 0700 directories, 0600 files.

/** Every entry under a directory that group or others may read, write or enter, with its mode. */
function loose(root: string): string[] {
  const found: string[] = [];
  const visit = (path: string) => {
    const stat = lstatSync(path);
    if ((stat.mode & 0o077) !== 0)
      found.push(`${relative(root, path) || '.'} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  return found;
}

const count = (root: string): number => readdirSync(root, { recursive: true }).length;

const mode = (path: string) => (lstatSync(path).mode & 0o777).toString(8);

/** Starts as the server does: configuration (secrets kept in DATA_DIR), then the embedded database. */
async function start(dataDir: string) {
  const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir });
  secureDataDir(config.dataDir);
  const database = await openDatabase({ dataDir: join(config.dataDir, 'pglite') });
  return { config, database };
}

describe('files under DATA_DIR', () => {
  it('are owner-only: the embedded database, files it creates later, and the generated secrets', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'atelier-modes-')), 'data');
    const { database } = await start(dataDir);
    try {
      const files = count(dataDir);
      await database.db.execute(sql`create table modes_probe (id serial primary key, body text)`);
      await database.db.execute(
        sql`insert into modes_probe (body) select repeat('x', 500) from generate_series(1, 20000)`,
      );
      await database.db.execute(sql`create index on modes_probe (body)`);
      await database.db.execute(sql`checkpoint`);
      expect(count(dataDir)).toBeGreaterThan(files); // new relation files, indexes, WAL
      expect(loose(dataDir)).toEqual([]);
    } finally {
      await database.close();
    }
    expect(loose(dataDir)).toEqual([]);
    expect(mode(dataDir)).toBe('700');
    expect(mode(join(dataDir, 'jwt-secret'))).toBe('600');
    expect(mode(join(dataDir, 'encryption-key'))).toBe('600');
  });

  it('tightens an existing install whose files are readable and writable by everyone', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'atelier-modes-')), 'data');
    // A first start leaves a database and secrets; then everything is loosened as older versions left it.
    const first = await start(dataDir);
    const secret = first.config.jwtSecret;
    await first.database.close();
    writeFileSync(join(dataDir, 'notes.txt'), 'kept as it is', { mode: 0o666 });
    mkdirSync(join(dataDir, 'extra', 'deeper'), { recursive: true });
    const loosen = (path: string) => {
      const stat = lstatSync(path);
      chmodSync(path, stat.isDirectory() ? 0o777 : 0o666);
      if (stat.isDirectory()) for (const name of readdirSync(path)) loosen(join(path, name));
    };
    loosen(dataDir);
    expect(loose(dataDir).length).toBe(count(dataDir) + 1);

    const second = await start(dataDir);
    try {
      expect(second.config.jwtSecret).toBe(secret);
      expect(await queryRows(second.database.db, sql`select count(*)::int as n from pg_class`)).toEqual([
        { n: expect.any(Number) },
      ]);
    } finally {
      await second.database.close();
    }
    expect(loose(dataDir)).toEqual([]);
    expect(mode(join(dataDir, 'jwt-secret'))).toBe('600');
    expect(mode(join(dataDir, 'extra', 'deeper'))).toBe('700');
  });

  it('tightens a kept secret with loose modes when the configuration is read', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'atelier-modes-'));
    chmodSync(dataDir, 0o755);
    const key = Buffer.alloc(32, 3).toString('base64');
    writeFileSync(join(dataDir, 'encryption-key'), key, { mode: 0o644 });
    chmodSync(join(dataDir, 'encryption-key'), 0o644);
    const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir });
    expect(config.encryptionKey.toString('base64')).toBe(key);
    expect(mode(join(dataDir, 'encryption-key'))).toBe('600');
    expect(mode(join(dataDir, 'jwt-secret'))).toBe('600');
    expect(mode(dataDir)).toBe('700');
  });
});
