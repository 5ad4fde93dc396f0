import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Workspace libraries resolve to their TypeScript sources, everywhere tests run: each export of a
// library (`@tolk/locale-file`, `@tolk/locale-file/plural-groups`) to its `tolk-source` file.
const libsDir = fileURLToPath(new URL('./libs', import.meta.url));
const alias = readdirSync(libsDir).flatMap((name) => {
  const { exports } = JSON.parse(readFileSync(path.join(libsDir, name, 'package.json'), 'utf8')) as {
    exports: Record<string, { 'tolk-source': string }>;
  };
  // `.` is the package itself, `./plural-groups` a subpath; names and subpaths are kebab-case.
  return Object.entries(exports).map(([subpath, conditions]) => ({
    find: new RegExp(`^@tolk/${name}${subpath.slice(1)}$`),
    replacement: path.join(libsDir, name, conditions['tolk-source']),
  }));
});

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
