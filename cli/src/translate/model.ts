/**
 * The model a `tolk translate` run asks: `--provider` and `--model`, else the project's settings,
 * else OpenAI's default; its key from the environment or the keys stored in Tolk.
 */
import type { AiProvider, ProjectResponse } from '@tolk/contracts';
import { ProviderError, createModel, providerInfo } from '../ai/index.js';
import type { Credential } from '../api/auth.js';
import type { TolkApi } from '../api/tolk-api.js';
import { CliError, ExitCode } from '../errors.js';
import type { Io } from '../io.js';
import type { Output } from '../output.js';
import { resolveProviderKey } from './provider-key.js';

export type ChosenModel = {
  provider: AiProvider;
  modelId: string;
  model: ReturnType<typeof createModel>['model'];
};

/**
 * The model: a provider's configuration it refuses is a usage error (exit 2). A custom
 * OpenAI-compatible endpoint (`--base-url`) gets only a key the user put in the environment for it.
 */
export async function chooseModel(options: {
  io: Io;
  out: Output;
  api: TolkApi;
  apiUrl: string;
  credential: Credential;
  settings: Pick<ProjectResponse['settings'], 'provider' | 'model'>;
  provider?: AiProvider;
  model?: string;
  baseUrl?: string;
}): Promise<ChosenModel> {
  const { io, out, api, apiUrl, credential, settings } = options;
  const provider = options.provider ?? (settings.provider as AiProvider | null) ?? 'openai';
  const info = providerInfo(provider);
  const settingsModel =
    provider === (settings.provider ?? 'openai') ? (settings.model ?? undefined) : undefined;
  const compatibleEndpoint = provider === 'openai' && options.baseUrl !== undefined;
  const apiKey = compatibleEndpoint
    ? io.env[info.envVar]?.trim() || undefined
    : await resolveProviderKey({ io, out, api, apiUrl, credential, provider, envVar: info.envVar });
  try {
    const { model, modelId } = createModel({
      provider,
      model: options.model ?? settingsModel,
      apiKey,
      baseUrl: options.baseUrl,
    });
    return { provider, modelId, model };
  } catch (error) {
    if (error instanceof ProviderError) throw new CliError('PROVIDER_CONFIG', error.message, ExitCode.usage);
    throw error;
  }
}
