import { defaultClientConditions, defineConfig } from 'vite';

/**
 * The dashboard's build: one hashed script and stylesheet under dist/assets/, an index.html that
 * loads them (no inline script: the gateway serves it under a strict Content-Security-Policy).
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  publicDir: 'public',
  // Workspace libraries (`@tolk/locale-file/plural-groups`) are bundled from their TypeScript
  // sources, as everything else runs them: a fresh clone's `npm start` builds no dist/ first.
  resolve: { conditions: ['tolk-source', ...defaultClientConditions] },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // The polyfill would be an inline script; every browser the dashboard supports has modulepreload.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: true,
  },
});
