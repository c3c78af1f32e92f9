import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.data/**',
      '**/.turbo/**',
      '**/test-results/**',
      'drizzle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Function']", message: 'No new Function: parse instead.' },
        { selector: "CallExpression[callee.name='eval']", message: 'No eval: parse instead.' },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.tsx', 'apps/web/src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Routes speak HTTP and call services; tables and queries live in the services.
    files: ['apps/api/src/routes/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@atelier/db', message: 'Routes call services: move the query into a service.' },
            { name: 'drizzle-orm', message: 'Routes call services: move the query into a service.' },
          ],
        },
      ],
    },
  },
  {
    // The web app takes values from the zod-free entries of @atelier/schemas (constants, final-output,
    // password-rules) and only types from the main one, which carries zod.
    files: ['apps/web/src/**/*.ts', 'apps/web/src/**/*.tsx'],
    ignores: [
      // The flow editor (its own lazy chunk) works on the graph schemas and the node catalog.
      'apps/web/src/features/flow-editor/**',
      // Parses the chat stream's events: a trust boundary.
      'apps/web/src/features/chat/stream-events.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@atelier/schemas',
              allowTypeImports: true,
              message: "Values come from '@atelier/schemas/constants' (no zod); use `import type` for types.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly' } },
  },
  {
    files: ['**/test/**', '**/e2e/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
);
