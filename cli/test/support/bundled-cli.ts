/**
 * The CLI bundled from its sources by the package's own bundle script, as npm ships it, into a
 * directory of its own (cli-version names the file, node runs it): tests that run `tolk` as a
 * child process many times (git's merge driver, the CI script) start it in a third of the time
 * the sources take through tsx, and never run a stale bundle. It lies under cli/ so its npm
 * dependencies resolve from cli/node_modules.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const cliDir = fileURLToPath(new URL('../../', import.meta.url));

export async function bundleCli(prefix = 'tolk-'): Promise<{ dir: string; file: string }> {
  const cache = join(cliDir, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const dir = await mkdtemp(join(cache, prefix));
  const file = join(dir, 'tolk.mjs');
  await promisify(execFile)(process.execPath, [join(cliDir, 'scripts', 'bundle.mjs'), '--outfile', file]);
  return { dir, file };
}
