import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Owner-only modes for everything Atelier keeps under DATA_DIR (database files, generated secrets). */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Makes files the process creates from now on owner-only (the umask masks group and other bits):
 * PGlite writes through Node's fs for as long as the process runs. Worker threads cannot change the
 * process umask; there the modes are only tightened by `tightenTree`.
 */
export function restrictUmask(): void {
  try {
    process.umask(0o077);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_WORKER_UNSUPPORTED_OPERATION') throw error;
  }
}

/** Creates a directory (and missing parents) as owner-only; an existing one is tightened. */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  tighten(dir, PRIVATE_DIR_MODE);
}

/** Removes group and other permissions from an existing file or directory; returns whether it changed. */
function tighten(path: string, mode: number): boolean {
  const current = lstatSync(path).mode & 0o777;
  if ((current & 0o077) === 0) return false;
  chmodSync(path, mode);
  return true;
}

/**
 * Tightens a directory and everything under it to 0700 (directories) and 0600 (files): for installs
 * whose files were created readable and writable by everyone. Symbolic links are left alone. Returns how
 * many entries were changed.
 */
export function tightenTree(dir: string): number {
  let changed = tighten(dir, PRIVATE_DIR_MODE) ? 1 : 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) changed += tightenTree(path);
    else if (entry.isFile()) changed += tighten(path, PRIVATE_FILE_MODE) ? 1 : 0;
  }
  return changed;
}
