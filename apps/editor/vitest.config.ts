import { fileURLToPath, pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vitest/config';

/**
 * Server sources read files beside themselves with `new URL(file, import.meta.url)`. In a browser
 * environment (happy-dom) Vite would rewrite that into an asset URL of the dev server; the
 * real-server tests load those sources, so their `import.meta.url` is made the file's own URL first.
 */
const serverFileUrls: Plugin = {
  name: 'lectern-server-file-urls',
  enforce: 'pre',
  transform(code, id) {
    if (!/\/(services|packages)\/[^/]+\/src\//.test(id) || !code.includes('import.meta.url')) return null;
    return {
      code: code.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(id.split('?')[0] ?? id).href)),
      map: null,
    };
  },
};

/**
 * The editor's component tests (happy-dom), run with `pnpm exec vitest run --config
 * apps/editor/vitest.config.ts <file>` until the root config's `editor` project takes them in.
 */
// eslint-disable-next-line no-restricted-syntax -- Vitest loads its config by its default export.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  plugins: [serverFileUrls, react()],
  test: { include: ['apps/editor/src/**/*.test.{ts,tsx}'], environment: 'node' },
});
