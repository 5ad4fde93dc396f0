/**
 * The AI providers the CLI translates with (DESIGN §9): the values of a BYOK key's provider and
 * of a project's `settings.provider`.
 */
export const AI_PROVIDERS = ['openai', 'anthropic', 'google', 'mistral', 'deepseek', 'openrouter'] as const;
export type AiProvider = (typeof AI_PROVIDERS)[number];
