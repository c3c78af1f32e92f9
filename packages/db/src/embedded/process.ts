// Starts (or finds) the embedded database's process for a data directory: see ./server.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { privateDir, restrictUmask } from '../private-files';

/** node-postgres reaches a Unix socket as `{host: dir, port}`: the file is `dir/.s.PGSQL.port`. */
export const SOCKET_PORT = 5432;
const SOCKET_FILE = `.s.PGSQL.${SOCKET_PORT}`;
/** A Unix socket path is at most 107 bytes on Linux (sun_path). */
const MAX_SOCKET_PATH = 100;
const START_TIMEOUT_MS = 600_000;
const STOP_TIMEOUT_MS = 15_000;

export interface EmbeddedServer {
  /** The directory holding the socket (node-postgres' `host`). */
  socketDir: string;
  /** The process serving the database; null when another process already serves this data directory. */
  child: ChildProcess | null;
  /** Stops the process (waits for PGlite to close its files); a no-op for a server found running. */
  stop(): Promise<void>;
}

/** Whether something answers on a Unix socket now. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * How to start the database process: built, its bundle beside this package's (`dist/embedded/server.js`,
 * plain Node as in the Docker image); from source, `server.ts` through the TypeScript loader the API
 * itself runs with.
 */
function serverCommand(): string[] {
  if (import.meta.url.endsWith('.js')) {
    return [fileURLToPath(new URL('./embedded/server.js', import.meta.url))];
  }
  const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return ['--import', tsxLoader, fileURLToPath(new URL('./server.ts', import.meta.url))];
}

/**
 * The database process for `dataDir` (in memory when omitted). One PGlite per data directory: when a
 * process already serves it (the API, while the CLI runs), its socket is used instead of a second one.
 */
export async function startEmbeddedServer(dataDir: string | undefined): Promise<EmbeddedServer> {
  restrictUmask();
  let socketDir: string;
  let temporary = false;
  if (dataDir && join(dataDir, SOCKET_FILE).length <= MAX_SOCKET_PATH) {
    privateDir(dataDir);
    socketDir = dataDir;
    if (await answers(join(socketDir, SOCKET_FILE))) return { socketDir, child: null, stop: async () => {} };
  } else {
    // In memory, or a data directory too deep for a socket path: a private directory of its own.
    socketDir = mkdtempSync(join(tmpdir(), 'atelier-db-'));
    temporary = true;
  }

  const child = spawn(process.execPath, serverCommand(), {
    env: {
      ...process.env,
      ATELIER_PGLITE_SOCKET: join(socketDir, SOCKET_FILE),
      ATELIER_PGLITE_DIR: dataDir ?? '',
    },
    // Its standard input is the tie to this process: closed by stop(), and by the kernel if we die.
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const cleanUp = () => {
    if (temporary) rmSync(socketDir, { recursive: true, force: true });
  };

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the embedded database did not start in time'));
    }, START_TIMEOUT_MS);
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('ready\n')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the embedded database exited while starting (code ${code})`));
    });
  }).catch((error: unknown) => {
    cleanUp();
    throw error;
  });
  // Not to keep this process alive by itself: the pool's sockets and the server do that.
  child.unref();
  (child.stdout as unknown as { unref?: () => void }).unref?.();
  (child.stdin as unknown as { unref?: () => void }).unref?.();

  let stopping: Promise<void> | null = null;
  return {
    socketDir,
    child,
    stop() {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.stdin!.end();
          const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
          await exited;
          clearTimeout(timer);
        }
        cleanUp();
      })();
      return stopping;
    },
  };
}
