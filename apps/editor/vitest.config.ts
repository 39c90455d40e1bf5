import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * The editor's component tests (happy-dom), run with `pnpm exec vitest run --root apps/editor`
 * until the root config's `editor` project takes them in.
 */
// eslint-disable-next-line no-restricted-syntax -- Vitest loads its config by its default export.
export default defineConfig({
  plugins: [react()],
  test: { include: ['src/**/*.test.{ts,tsx}'], environment: 'node' },
});
