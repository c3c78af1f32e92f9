// The embedded database's own process: PGlite served over a Unix socket (./serve.ts), so that its work
// runs off the API's event loop and its WebAssembly heap is out of the API's memory. Started by
// `openDatabase({ embedded: 'process' })` (./process.ts), never by hand. It ends when its parent closes
// its standard input: on `close()`, and when the parent dies, whatever the way.
import { serve } from './serve';

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

process.stdout.write('ready\n');
