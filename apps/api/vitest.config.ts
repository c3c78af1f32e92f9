import { defineConfig } from 'vitest/config';
import { reporters } from '../../vitest.shared';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters,
    // Files in a worker share one migrated database (PGlite takes seconds to start); tests stay
    // independent by working in organizations of their own.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
