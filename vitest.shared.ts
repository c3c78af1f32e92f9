import type { ViteUserConfig } from 'vitest/config';

/** On CI every package also writes a JSON report, which .ci/summary.mjs adds up. */
export const reporters: NonNullable<ViteUserConfig['test']>['reporters'] = process.env.CI
  ? ['default', ['json', { outputFile: 'test-results/vitest.json' }]]
  : ['default'];
