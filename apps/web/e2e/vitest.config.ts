import { defineConfig } from 'vitest/config';
import { reporters } from '../../../vitest.shared';

/** Browser tests: Debian's Chromium driven by playwright-core against the real API and the built app. */
export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['**/*.e2e.ts'],
    globalSetup: ['./global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    reporters: process.env.CI
      ? ['default', ['json', { outputFile: '../test-results/vitest-e2e.json' }]]
      : reporters,
  },
});
