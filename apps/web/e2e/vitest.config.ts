import { defineConfig } from 'vitest/config';
import { reporters } from '../../../vitest.shared';

/**
 * Browser tests: Debian's Chromium driven by playwright-core against the real API and the built app.
 * SKIP_BROWSER_TESTS=1 leaves them out (CI runs them once, in its first pass, not again on PostgreSQL).
 */
const skip = process.env.SKIP_BROWSER_TESTS === '1';
if (skip) console.warn('browser tests skipped: SKIP_BROWSER_TESTS=1');

export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: skip ? [] : ['**/*.e2e.ts'],
    passWithNoTests: skip,
    globalSetup: skip ? [] : ['./global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    reporters: process.env.CI
      ? ['default', ['json', { outputFile: '../test-results/vitest-e2e.json' }]]
      : reporters,
  },
});
