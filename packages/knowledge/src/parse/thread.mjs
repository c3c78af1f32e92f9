// The entry of a parser thread (see pool.ts). A worker thread starts without the TypeScript loader of the
// process that made it (tsx in the API and the worker, vitest's in tests), so tsx compiles thread.ts here:
// through its scoped CommonJS `require`, which runs in this thread (the ESM loader would add a hooks
// thread, about 25 MB more per parser thread). A compiled build that puts thread.js beside this file is
// imported as it is.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = new URL('./thread.js', import.meta.url);
const thread = existsSync(fileURLToPath(compiled))
  ? await import(compiled.href)
  : (await import('tsx/cjs/api')).require('./thread.ts', import.meta.url);

export default thread.default;
