/**
 * A project of the tests of how files are read (a user, a CLI harness, `tolk init`, tolk.json's
 * file sets as the test gives them, the files written), with what those tests run and look at:
 * `translate` against the model stand-in, the server's translations of a locale.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { startSystem, type System } from '../../../test/e2e/system.js';
import { createCliHarness } from './cli-harness.js';
import { startOpenAIStandIn, type ProviderStandIn } from './provider-stand-ins.js';

/** The real system and the model stand-in of a test file: started before its tests, closed after. */
export function systemWithModel(): { readonly system: System; readonly model: ProviderStandIn } {
  const world = {} as { system: System; model: ProviderStandIn };
  beforeAll(async () => {
    [world.system, world.model] = await Promise.all([startSystem({ sources: true }), startOpenAIStandIn()]);
  });
  afterAll(async () => {
    await world.model?.close();
    await world.system?.close();
  });
  return world;
}

export type FileSetProject = Awaited<ReturnType<typeof fileSetProject>>;

export async function fileSetProject(options: {
  system: System;
  model: ProviderStandIn;
  targets: readonly string[];
  /** The `files` of tolk.json. */
  files: unknown;
  /** Path → content, written before anything runs. */
  contents?: Record<string, string | Buffer>;
}) {
  const { system, model } = options;
  const { token } = await system.signUp();
  const cli = await createCliHarness(system.base);
  const tolk = (...args: string[]) => cli.tolk(args, { env: { TOLK_TOKEN: token } });
  const init = await tolk(
    'init',
    '--name',
    'Files',
    '--targets',
    options.targets.join(','),
    '--yes',
    '--json',
  );
  expect(init.code, init.stderr).toBe(0);
  const projectId = init.json().projectId as string;
  await cli.writeJson('tolk.json', { ...(await cli.readJson('tolk.json')), files: options.files });
  const write = async (path: string, content: string | Buffer) => {
    await mkdir(dirname(join(cli.cwd, path)), { recursive: true });
    await writeFile(join(cli.cwd, path), content);
  };
  for (const [path, content] of Object.entries(options.contents ?? {})) await write(path, content);
  return {
    cli,
    projectId,
    tolk,
    write,
    read: (path: string) => readFile(join(cli.cwd, path)),
    /** `tolk translate` against the model stand-in, one request at a time. */
    translate: (...args: string[]) =>
      tolk('translate', '--base-url', model.baseURL, '--model', 'stand-in', '--concurrency', '1', ...args),
    /** The server's translations of `locale`: the document as stored, its values, who wrote each. */
    async stored(locale: string) {
      const response = await system.call(
        'GET',
        `/v1/projects/${projectId}/locales/${locale}/translations`,
        token,
      );
      expect(response.status).toBe(200);
      const body = response.body as { content: string; provenance: Record<string, { by: string }> };
      return {
        content: body.content,
        values: JSON.parse(body.content) as Record<string, string>,
        provenance: body.provenance,
      };
    },
    remove: () => cli.remove(),
  };
}
