/**
 * An app's tree for the end-to-end tests of a platform family: its files written into a CLI
 * harness, `tolk` run in it with the account's token, `translate` against the model stand-in,
 * and what pull must restore.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createCliHarness, type CliHarness } from './cli-harness.js';
import type { ProviderStandIn } from './provider-stand-ins.js';

export type AppProject = Awaited<ReturnType<typeof appProject>>;

export async function appProject(options: {
  apiUrl: string;
  token: string;
  model: ProviderStandIn;
  files: Record<string, string | Buffer>;
}) {
  const cli: CliHarness = await createCliHarness(options.apiUrl);
  for (const [path, content] of Object.entries(options.files)) {
    await mkdir(dirname(join(cli.cwd, path)), { recursive: true });
    await writeFile(join(cli.cwd, path), content);
  }
  const tolk = (args: string[]) => cli.tolk(args, { env: { TOLK_TOKEN: options.token } });
  return {
    cli,
    tolk,
    /** `tolk translate` against the model stand-in, one request at a time. */
    translate: (...args: string[]) =>
      tolk([
        'translate',
        '--base-url',
        options.model.baseURL,
        '--model',
        'stand-in',
        '--concurrency',
        '1',
        ...args,
      ]),
    /** The absolute path of a file of the app. */
    path: (path: string) => join(cli.cwd, path),
    bytes: (path: string) => readFile(join(cli.cwd, path)),
    text: (path: string) => readFile(join(cli.cwd, path), 'utf8'),
    /**
     * Deletes the files, runs `tolk pull`, and gives each file's bytes before and after, so the
     * test can see pull restore them byte for byte.
     */
    async pullRestores(paths: readonly string[]) {
      const before = await Promise.all(paths.map((path) => readFile(join(cli.cwd, path))));
      await Promise.all(paths.map((path) => rm(join(cli.cwd, path))));
      const pull = await tolk(['pull']);
      const after = await Promise.all(
        paths.map((path) => readFile(join(cli.cwd, path)).catch(() => Buffer.from('(missing)'))),
      );
      return { pull, before, after };
    },
    remove: () => cli.remove(),
  };
}
