import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The editor's build: served by the Management service at /app/, every file but index.html under
 * /app/assets/ with a content hash in its name (cached for a year; index.html is never cached).
 * No inline script or style in the output (the app's CSP has no 'unsafe-inline'): the module
 * preload polyfill, which Vite would inline, is off (every browser we support has modulepreload).
 */
export default defineConfig({
  base: '/app/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    manifest: true,
    sourcemap: false,
  },
});
