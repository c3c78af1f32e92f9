import { defineConfig } from 'vitest/config';
import { reporters } from '../../vitest.shared';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters,
    // One database per worker; a new PGlite takes 3-8 s quiet, 15-20 s beside other suites.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
