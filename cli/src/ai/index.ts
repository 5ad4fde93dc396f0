// The AI part of the CLI: provider models through the AI SDK, and batch translation whose
// answers are checked (keys, placeholders, ICU arguments, tags) before anything is written.
export { PROVIDERS, createModel, providerInfo } from './create-model.js';
export type { CreateModelOptions, ProviderInfo, ProviderName } from './create-model.js';
export { translateBatch, translateBatchForLocales } from './translate-batch.js';
export type {
  LocaleBatch,
  TokenUsage,
  TranslateBatchInput,
  TranslateBatchResult,
  TranslateLocalesInput,
} from './translate-batch.js';
export type { MemoryExample, PluralGroupRequest } from './translation-prompt.js';
export { ProviderError, TranslationRejectedError } from './errors.js';
export type { KeyProblem, ProviderErrorCode } from './errors.js';
