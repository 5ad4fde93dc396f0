import { createAnthropic } from '@ai-sdk/anthropic';
import { createDeepSeek } from '@ai-sdk/deepseek';
import { createGoogle } from '@ai-sdk/google';
import { createMistral } from '@ai-sdk/mistral';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createOpenRouter } from '@openrouter/ai-sdk-provider';
import { AI_PROVIDERS, type AiProvider } from '@tolk/contracts';
import type { LanguageModel } from 'ai';
import { ProviderError } from './errors.js';

export type ProviderName = AiProvider;

export type ProviderInfo = {
  readonly name: ProviderName;
  /** Where the CLI's config looks for the key (only config reads the environment). */
  readonly envVar: string;
  readonly defaultModel: string;
};

/**
 * Default models: the cheap, high-volume, generally available tier of each provider as of
 * November 2026 (gpt-5-mini and gemini-2.5-flash are being shut down), good enough for UI strings
 * and overridable with `--model`. Each takes a JSON schema answer through the API used here.
 */
export const PROVIDERS: readonly ProviderInfo[] = [
  { name: 'openai', envVar: 'OPENAI_API_KEY', defaultModel: 'gpt-6-luna' },
  { name: 'anthropic', envVar: 'ANTHROPIC_API_KEY', defaultModel: 'claude-haiku-4-5' },
  { name: 'google', envVar: 'GOOGLE_GENERATIVE_AI_API_KEY', defaultModel: 'gemini-3.5-flash-lite' },
  { name: 'mistral', envVar: 'MISTRAL_API_KEY', defaultModel: 'mistral-small-latest' },
  { name: 'deepseek', envVar: 'DEEPSEEK_API_KEY', defaultModel: 'deepseek-v4-flash' },
  { name: 'openrouter', envVar: 'OPENROUTER_API_KEY', defaultModel: 'openai/gpt-6-luna' },
] satisfies readonly ProviderInfo[];

export function providerInfo(name: ProviderName): ProviderInfo {
  const info = PROVIDERS.find((p) => p.name === name);
  if (!info) {
    throw new ProviderError(`Unknown AI provider "${String(name)}"; use one of ${AI_PROVIDERS.join(', ')}`, {
      code: 'misconfigured',
    });
  }
  return info;
}

export type CreateModelOptions = {
  provider: ProviderName;
  model?: string;
  apiKey?: string;
  baseUrl?: string;
  fetch?: typeof fetch;
};

/**
 * The AI SDK model for a provider, always through the Chat Completions API for OpenAI and the
 * OpenAI-compatible endpoints.
 *
 * `baseUrl` with provider `openai` means "any OpenAI-compatible Chat Completions endpoint"
 * (Ollama `http://localhost:11434/v1`, vLLM, LM Studio): it is called through the SDK's
 * openai-compatible provider, which leaves out OpenAI-only behaviour keyed on model names, the
 * key is optional (local servers need none) and there is no default model, since only the user
 * knows what the server runs. It asks for a JSON schema answer (`json_schema` response format),
 * which Ollama, vLLM and LM Studio all accept (LM Studio rejects `json_object`).
 * With any other provider `baseUrl` only replaces that provider's URL (a proxy, a gateway, a
 * regional endpoint) and the provider's own protocol and key rules stay.
 */
export function createModel(options: CreateModelOptions): { model: LanguageModel; modelId: string } {
  const { provider, apiKey, baseUrl, fetch } = options;
  const info = providerInfo(provider);
  const overrides = { ...(baseUrl !== undefined && { baseURL: baseUrl }), ...(fetch && { fetch }) };

  if (provider === 'openai' && baseUrl !== undefined) {
    const modelId = options.model;
    if (!modelId) {
      throw new ProviderError(`Name the model to use at ${baseUrl} (--model); there is no default for it`, {
        code: 'misconfigured',
      });
    }
    const compatible = createOpenAICompatible({
      name: 'openai-compatible',
      baseURL: baseUrl,
      ...(apiKey && { apiKey }),
      ...(fetch && { fetch }),
      supportsStructuredOutputs: true,
    });
    return { model: compatible.chatModel(modelId), modelId };
  }

  // The SDK would fall back to reading the environment itself; the CLI's config does that.
  if (!apiKey) {
    throw new ProviderError(`No API key for ${provider}: set ${info.envVar}`, { code: 'misconfigured' });
  }
  const modelId = options.model || info.defaultModel;
  const settings = { apiKey, ...overrides };
  switch (provider) {
    case 'openai':
      // openai(model) is the Responses API in @ai-sdk/openai 4; .chat is Chat Completions.
      return { model: createOpenAI(settings).chat(modelId), modelId };
    case 'anthropic':
      return { model: createAnthropic(settings).messages(modelId), modelId };
    case 'google':
      return { model: createGoogle(settings).chat(modelId), modelId };
    case 'mistral':
      return { model: createMistral(settings).chat(modelId), modelId };
    case 'deepseek':
      return { model: createDeepSeek(settings).chat(modelId), modelId };
    case 'openrouter':
      return { model: createOpenRouter({ ...settings, compatibility: 'strict' }).chat(modelId), modelId };
  }
}
