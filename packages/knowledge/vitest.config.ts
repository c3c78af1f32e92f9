import { defineConfig } from 'vitest/config';
import { databaseSuite, reporters } from '../../vitest.shared';

export default defineConfig({ test: { include: ['test/**/*.test.ts'], reporters, ...databaseSuite } });
