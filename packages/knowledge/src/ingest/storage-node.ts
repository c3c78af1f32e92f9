import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE, privateDir } from '@atelier/db';

const FILE = 'storage-node';
const ID = /^[0-9a-f-]{36}$/;

/**
 * The id of a DATA_DIR, kept in it (created on first use): uploads are marked with it, and only
 * processes on the same directory (one API, or replicas and workers sharing the volume) ingest them.
 * It survives restarts, so queued documents are taken up again.
 */
export function storageNodeId(dataDir: string): string {
  privateDir(dataDir);
  const path = join(dataDir, FILE);
  try {
    const id = readFileSync(path, 'utf8').trim();
    if (ID.test(id)) return id;
  } catch {
    // first use
  }
  const id = randomUUID();
  try {
    writeFileSync(path, `${id}\n`, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    return id;
  } catch {
    // Another process on the same directory wrote it first.
    return readFileSync(path, 'utf8').trim();
  }
}
