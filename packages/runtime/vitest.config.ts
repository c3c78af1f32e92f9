import { defineConfig } from 'vitest/config';
import { reporters } from '../../vitest.shared';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters,
    // Files in a worker share one migrated database: a new PGlite takes 3-8 s on a quiet 2-core
    // machine and 15-20 s when every package's suite runs beside it (measured), so it is made once.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
