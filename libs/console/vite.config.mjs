// Vite builds the console to dist/app (served by the gateway at /console).
// Dev server: `INQUEST_URL=http://localhost:8080 npm run dev -w @inquest/console` proxies /api and
// /console/config.json to a running Inquest.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const target = process.env.INQUEST_URL ?? 'http://localhost:8080';

export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  plugins: [react()],
  resolve: {
    // the workspace client from source (its package "import" entry exists only in a packed tarball)
    alias: {
      '@inquest/client': fileURLToPath(new URL('../client/src/index.ts', import.meta.url)),
      // the browser-safe part of config-model (merge and diff rules, no zod or Node built-ins)
      '@inquest/config-model/merge': fileURLToPath(
        new URL('../config-model/src/merge.ts', import.meta.url),
      ),
    },
  },
  build: {
    outDir: 'dist/app',
    emptyOutDir: true,
    sourcemap: true,
    // no inline <script>/<style>/data: modules: the gateway's CSP forbids them
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 600,
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': { target, changeOrigin: true },
      '/console/config.json': { target, changeOrigin: true },
    },
  },
});
