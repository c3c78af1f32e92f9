// PGlite (with pgvector) on a data directory, served over a Unix socket with the PostgreSQL wire
// protocol (see ./multiplexer.ts). Run by the embedded database's process (./server.ts).
import { unlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { privateDir, restrictUmask, tightenTree } from '../private-files';
import { createMultiplexer } from './multiplexer';

export interface Served {
  /** Stops listening, closes the connections and then PGlite (its files written). */
  stop(): Promise<void>;
}

export async function serve(dataDir: string | undefined, socketPath: string): Promise<Served> {
  // Database files are owner-only (the socket too: created under this umask, in a 0700 directory).
  restrictUmask();
  if (dataDir) {
    privateDir(dataDir);
    tightenTree(dataDir);
  }
  const db = await PGlite.create({ dataDir, extensions: { vector } });
  // A new cluster is unpacked with its own modes (0666 files), whatever the umask.
  if (dataDir) tightenTree(dataDir);

  const mux = createMultiplexer(db);
  const server = createServer((socket) => mux.attach(socket));
  try {
    unlinkSync(socketPath); // left by a process that died: the parent found nobody answering on it
  } catch {
    // none
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  let stopping: Promise<void> | null = null;
  return {
    stop() {
      stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        await mux.close();
        await closed;
        await db.close();
      })();
      return stopping;
    },
  };
}
