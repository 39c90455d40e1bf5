import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/** Drivers, frameworks and adapters the domain must never import (DESIGN: dependencies point inward). */
const outerLayers = [
  '@lectern/store-*',
  '@lectern/blob-*',
  '@lectern/bus-*',
  '@lectern/index-*',
  '@lectern/http-kit',
  '@lectern/testing',
  'kysely',
  'kysely/*',
  'pg',
  '@electric-sql/*',
  'express',
  'fastify',
  'kafkajs',
  'minio',
  '**/services/**',
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.tsbuild/**', '.tools/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'Named exports only (CONVENTIONS.md).' },
      ],
    },
  },
  {
    files: ['packages/core/**/*.ts', 'packages/errors/**/*.ts', 'packages/config/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: outerLayers, message: 'The core never imports an adapter, a driver or a framework.' }] },
      ],
    },
  },
  {
    files: ['packages/**/*.ts'],
    ignores: ['packages/testing/**', 'packages/core/**', 'packages/errors/**', 'packages/config/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@lectern/testing', '**/services/**'], message: 'Packages never import services or test code.' },
          ],
        },
      ],
    },
  },
  {
    // The editor app runs in the browser.
    files: ['apps/editor/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The console's browser script (services/management/src/http/console/assets).
    files: ['**/console/assets/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Vitest global setups and config files are loaded by their default export.
    files: ['test/engines/setup-*.ts', '*.config.ts', '*.config.js', 'apps/*/vite.config.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
