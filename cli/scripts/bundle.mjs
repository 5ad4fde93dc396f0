// Bundles the CLI into dist/tolk.js for npm: the private workspace libraries (@tolk/contracts,
// @tolk/locale-file and its @tolk/time-slices) are compiled in from their sources, every npm
// dependency stays an import (installed from cli/package.json's dependencies). None uses
// @tolk/http: the service frame (express, jsonwebtoken, ...) never reaches the bundle, and
// importing it from the CLI fails the build.
// `--outfile <path>` writes the bundle elsewhere (tests run a bundle fresh from the sources); the
// path must lie under cli/ for the npm dependencies to resolve from cli/node_modules and above.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const cliDir = fileURLToPath(new URL('..', import.meta.url));
const libsDir = fileURLToPath(new URL('../../libs/', import.meta.url));
const internal = {
  '@tolk/contracts': `${libsDir}contracts/src/index.ts`,
  '@tolk/locale-file': `${libsDir}locale-file/src/index.ts`,
  '@tolk/time-slices': `${libsDir}time-slices/src/index.ts`,
};

const workspaceLibraries = {
  name: 'workspace-libraries',
  setup(builder) {
    builder.onResolve({ filter: /^@tolk\// }, (args) => {
      const path = internal[args.path];
      if (!path) return { errors: [{ text: `${args.path} is not a library the CLI may bundle` }] };
      return { path };
    });
    // Everything else that is not a relative path is an npm package or a node: builtin.
    builder.onResolve({ filter: /^[^./]/ }, (args) => ({ path: args.path, external: true }));
  },
};

const { values } = parseArgs({ options: { outfile: { type: 'string' } } });
const outfile = values.outfile ? resolve(values.outfile) : `${cliDir}dist/tolk.js`;

const { version } = JSON.parse(await readFile(`${cliDir}package.json`, 'utf8'));
const result = await build({
  entryPoints: [`${cliDir}src/cli-main.ts`],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  plugins: [workspaceLibraries],
  legalComments: 'none',
  metafile: true,
  banner: { js: `// tolk ${version} (Apache-2.0)` },
});

const imported = new Set(
  Object.values(result.metafile.outputs).flatMap((output) => output.imports.map((entry) => entry.path)),
);
const dependencies = Object.keys(
  JSON.parse(await readFile(`${cliDir}package.json`, 'utf8')).dependencies ?? {},
);
const undeclared = [...imported].filter(
  (name) =>
    !name.startsWith('node:') && !dependencies.some((dep) => name === dep || name.startsWith(`${dep}/`)),
);
if (undeclared.length > 0) {
  console.error(`${outfile} imports packages cli/package.json does not depend on: ${undeclared.join(', ')}`);
  process.exit(1);
}
console.log(`${outfile}: imports ${[...imported].sort().join(', ')}`);
