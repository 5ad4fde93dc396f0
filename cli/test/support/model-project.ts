import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { startSystem, type System } from '../../../test/e2e/system.js';
import { createCliHarness, type CliHarness } from './cli-harness.js';
import { startOpenAIStandIn, type ProviderStandIn } from './provider-stand-ins.js';

/** What a test of a project translated by the stand-in model works with. */
export type ModelProject = {
  readonly system: System;
  readonly openai: ProviderStandIn;
  readonly token: string;
  readonly cli: CliHarness;
  readonly projectId: string;
  tolk(...args: string[]): ReturnType<CliHarness['tolk']>;
  /** `tolk translate` with the stand-in model, one batch at a time. */
  translate(...args: string[]): ReturnType<CliHarness['tolk']>;
  /** The keys each request asked of the model, since the last reset. */
  keysAsked(): string[];
  /** The German translations as the API gives them, with their provenance. */
  downloaded(): Promise<{
    content: string;
    provenance: Record<string, { by: string; model?: string; at: number }>;
  }>;
};

/**
 * The real system (with provider keys) and the OpenAI stand-in for a test file; for each test a
 * user and a project of its own (`name`, target `de`) with `source` pushed as `locales/en.json`,
 * de behind on every key (another project of the same user would fill the keys from translation
 * memory), and the stand-in's requests cleared. Registers the vitest hooks itself.
 */
export function useModelProject(name: string, source: Record<string, string>): ModelProject {
  let system: System;
  let openai: ProviderStandIn;
  let token: string;
  let cli: CliHarness;
  let projectId: string;

  beforeAll(async () => {
    [system, openai] = await Promise.all([startSystem({ sources: true, byok: true }), startOpenAIStandIn()]);
  });
  afterAll(async () => {
    await openai?.close();
    await system?.close();
  });
  beforeEach(async () => {
    token = (await system.signUp()).token;
    cli = await createCliHarness(system.base);
    const init = await tolk('init', '--name', name, '--targets', 'de', '--yes', '--json');
    expect(init.code, init.stderr).toBe(0);
    projectId = init.json().projectId;
    await cli.writeJson('locales/en.json', source);
    expect((await tolk('push')).code).toBe(0);
    openai.requests.length = 0;
    return () => {
      openai.answerAlways(undefined);
      return cli.remove();
    };
  });

  const tolk = (...args: string[]) => cli.tolk(args, { env: { TOLK_TOKEN: token } });
  return {
    get system() {
      return system;
    },
    get openai() {
      return openai;
    },
    get token() {
      return token;
    },
    get cli() {
      return cli;
    },
    get projectId() {
      return projectId;
    },
    tolk,
    translate: (...args) =>
      tolk(
        'translate',
        '--base-url',
        openai.baseURL,
        '--model',
        'stand-in-model',
        '--concurrency',
        '1',
        ...args,
      ),
    keysAsked: () => openai.stringsReceived().flatMap((strings) => Object.keys(strings)),
    downloaded: async () => {
      const response = await system.call('GET', `/v1/projects/${projectId}/locales/de/translations`, token);
      expect(response.status).toBe(200);
      return response.body as Awaited<ReturnType<ModelProject['downloaded']>>;
    },
  };
}
