import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Workspace libraries, services and the gateway resolve to their TypeScript sources, everywhere
// tests run: each export of a package (`@tolk/locale-file`, `@tolk/locale-file/plural-groups`,
// `@tolk/token-service`) to its `tolk-source` file.
const root = fileURLToPath(new URL('.', import.meta.url));
const packageDirs = [
  ...['libs', 'services'].flatMap((folder) =>
    readdirSync(path.join(root, folder)).map((name) => path.join(root, folder, name)),
  ),
  path.join(root, 'gateway'),
];
const alias = packageDirs.flatMap((dir) => {
  const { name, exports = {} } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    name: string;
    exports?: Record<string, { 'tolk-source': string }>;
  };
  // `.` is the package itself, `./plural-groups` a subpath; names and subpaths are kebab-case.
  return Object.entries(exports).map(([subpath, conditions]) => ({
    find: new RegExp(`^${name}${subpath.slice(1)}$`),
    replacement: path.join(dir, conditions['tolk-source']),
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
