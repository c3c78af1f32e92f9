// The embedded database's own process: PGlite served over a Unix socket (./serve.ts), so that its work
// runs off the API's event loop and its WebAssembly heap is out of the API's memory. Started by
// `openDatabase({ embedded: 'process' })` (./process.ts), never by hand. It ends when its parent closes
// its standard input: on `close()`, and when the parent dies, whatever the way (within seconds even in
// the middle of a long statement: see the watcher below).
import { Worker } from 'node:worker_threads';
import { serve } from './serve';

/** How long a process whose parent died may take to end by itself before its watcher ends it. */
const PARENT_GONE_GRACE_MS = 5_000;

const socketPath = process.env.ATELIER_PGLITE_SOCKET;
if (!socketPath) throw new Error('ATELIER_PGLITE_SOCKET is required');

// A Ctrl-C in the terminal reaches the whole process group: the parent decides when the database ends.
process.on('SIGINT', () => undefined);

const served = await serve(process.env.ATELIER_PGLITE_DIR || undefined, socketPath);

let stopping = false;
function stop(): void {
  if (stopping) return;
  stopping = true;
  served.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`atelier embedded database: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
process.on('SIGTERM', stop);

// A statement holds this thread for as long as it runs (an index build: minutes), and with it the
// handlers above. A thread of its own watches the parent: once it is gone (this process handed to
// another) and the process has not ended by itself within the grace, it is ended, so that no orphan
// goes on working for nobody and holding the data directory.
new Worker(
  `const { workerData } = require('node:worker_threads');
   const parent = process.ppid;
   let goneAt = 0;
   setInterval(() => {
     if (process.ppid === parent) return;
     goneAt = goneAt || Date.now();
     if (Date.now() - goneAt >= workerData.graceMs) process.kill(workerData.pid, 'SIGKILL');
   }, 500);`,
  { eval: true, workerData: { pid: process.pid, graceMs: PARENT_GONE_GRACE_MS } },
).unref();

process.stdout.write('ready\n');
