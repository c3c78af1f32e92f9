import { defineConfig } from 'vitest/config';
import { reporters } from '../../vitest.shared';

export default defineConfig({ test: { include: ['test/**/*.test.ts'], reporters, testTimeout: 20_000 } });
