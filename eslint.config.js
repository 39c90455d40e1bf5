import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/** Drivers, frameworks and adapters the domain must never import (DESIGN: dependencies point inward). */
const outerLayers = [
  '@lectern/store-*',
  '@lectern/blob-*',
  '@lectern/bus-*',
  '@lectern/index-*',
  '@lectern/recs-*',
  '@lectern/search-engine',
  '@lectern/engines',
  '@lectern/read-path',
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

const packagesNeverImport = {
  group: ['@lectern/testing', '**/services/**'],
  message: 'Packages never import services or test code.',
};

/**
 * Engine adapters: packages that implement a port of the core on one engine (blob-fs, blob-s3,
 * bus-kafka, index-sql, index-elasticsearch, recs-sql, recs-search, …). They stand side by side on
 * one floor above the core and the store: an adapter imports the core, @lectern/store-sql (the
 * store floor, whose tables several adapters share), errors, config, http-kit and driver-like
 * libraries such as a search-engine client package, never another adapter. A new adapter is
 * named with one of these prefixes (or its folder name is added here).
 */
const adapterGlobs = ['blob-*', 'bus-*', 'index-*', 'recs-*'];

/** An import of `@lectern/<name>` or a relative path into `packages/<name>` or `services/<name>`. */
const importsOf = (name) => [`@lectern/${name}`, `@lectern/${name}/*`, `**/${name}/src/**`];

function adapterRule() {
  const group = adapterGlobs.flatMap(importsOf);
  const message = 'An adapter never imports another adapter: adapters stand side by side (eslint.config.js).';
  return { 'no-restricted-imports': ['error', { patterns: [packagesNeverImport, { group, message }] }] };
}

/** Every service: a folder of services/ whose package is `@lectern/<folder>`. */
const services = readdirSync(new URL('./services/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * services/lectern is the all-in-one composition (`lectern start`): it runs every service in one
 * process, so it is the one service that imports the others.
 */
const compositionServices = ['lectern'];

function serviceRule(service) {
  const others = services.filter((s) => s !== service);
  const message = 'A service never imports another service: share code through a package (eslint.config.js).';
  return { 'no-restricted-imports': ['error', { patterns: [{ group: others.flatMap(importsOf), message }] }] };
}

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
    rules: { 'no-restricted-imports': ['error', { patterns: [packagesNeverImport] }] },
  },
  // Adapters side by side (issue 29): no adapter imports another.
  {
    files: adapterGlobs.map((name) => `packages/${name}/**/*.ts`),
    rules: adapterRule(),
  },
  // Services side by side: no service imports another, but the all-in-one composition.
  ...services
    .filter((service) => !compositionServices.includes(service))
    .map((service) => ({
      files: [`services/${service}/**/*.{ts,tsx}`],
      rules: serviceRule(service),
    })),
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
    files: ['test/engines/setup-*.ts', 'test/kube/setup-*.ts', '*.config.ts', '*.config.js', 'apps/*/vite.config.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
