import { defineConfig } from 'vitest/config';

const exclude = ['**/node_modules/**', '**/.tools/**', '**/dist/**'];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{packages,services}/*/src/**/*.test.ts'],
          exclude: [...exclude, '**/*.int.test.ts'],
        },
      },
      {
        test: {
          name: 'int',
          include: ['{packages,services,test}/**/*.int.test.ts'],
          exclude,
          globalSetup: ['test/engines/setup-postgres.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
