import type { ViteUserConfig } from 'vitest/config';

/** On CI every package also writes a JSON report, which .ci/summary.mjs adds up. */
export const reporters: NonNullable<ViteUserConfig['test']>['reporters'] = process.env.CI
  ? ['default', ['json', { outputFile: 'test-results/vitest.json' }]]
  : ['default'];

/**
 * Suites on the shared test database: the files of a worker share one migrated database (a new PGlite
 * takes 3-8 s on a quiet 2-core machine and 15-20 s beside every other suite, measured), so they run
 * without isolation, and hooks get a budget sized from those numbers. Tests stay independent by
 * working in organizations (or collections) of their own.
 */
export const databaseSuite = { isolate: false, testTimeout: 30_000, hookTimeout: 120_000 } as const;
