import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Workspace libraries resolve to their TypeScript sources, everywhere tests run.
const libsDir = fileURLToPath(new URL('./libs', import.meta.url));
const alias = readdirSync(libsDir).map((name) => ({
  find: `@tolk/${name}`,
  replacement: `${libsDir}/${name}/src/index.ts`,
}));

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['**/test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    globalSetup: ['./vitest.global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './vitest.summary-reporter.ts'],
  },
});
