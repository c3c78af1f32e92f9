import { defineConfig } from 'vitest/config';
import { reporters } from '../../vitest.shared';

// A new PGlite takes 3-8 s on a quiet 2-core machine and 15-20 s beside the other suites (measured).
export default defineConfig({
  test: { include: ['test/**/*.test.ts'], reporters, testTimeout: 30_000, hookTimeout: 120_000 },
});
