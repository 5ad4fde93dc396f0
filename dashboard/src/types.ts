/**
 * The API's answers as the dashboard reads them: the schemas of GET /v1/openapi.json, as
 * generated into api-schema.ts (`npm run api-types`), named as the pages use them.
 */
import type { components } from './api-schema.js';

type Schemas = components['schemas'];

export type User = Schemas['User'];

export type SessionResponse = Schemas['Session'];

export type AiProvider = Schemas['ProviderKeyStatus']['provider'];

/** Every provider the API knows, each with its name: the compiler refuses one missing or one too many. */
export const PROVIDER_NAMES: Record<AiProvider, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  google: 'Google',
  mistral: 'Mistral',
  deepseek: 'DeepSeek',
  openrouter: 'OpenRouter',
};

export const AI_PROVIDERS = Object.keys(PROVIDER_NAMES) as readonly AiProvider[];

export type Project = Schemas['Project'];

/** Keys only people translate, never translated (targets carry the source text), left out of targets. */
export type KeyRules = Project['settings']['keyRules'];

export type Member = Schemas['Member'];

export type Locale = Schemas['Locale'];

/** `GET .../locales/{locale}`: the locale and which of its keys need translating. */
export type LocaleDetail = Schemas['LocaleDetail'];

export type Diff = Schemas['Diff'];

export type SourceFile = Schemas['SourceFile'];

export type SourceVersion = Schemas['SourceVersionList']['versions'][number];

export type ApiToken = Schemas['ApiToken'];

/** In the list view: the member who created the token (removing them revokes it). */
export type ListedToken = Schemas['ApiTokenList']['tokens'][number];

export type CreatedToken = Schemas['CreateTokenResponse'];

export type KeyStatus = Schemas['ProviderKeyStatus'];

/** A glossary entry (DESIGN §13): a term and its rendering per target locale, or kept as is. */
export type GlossaryEntry = Schemas['GlossaryEntry'];

/**
 * A page of the glossary: its entries in term order, what the whole glossary holds, the next
 * page's cursor. The dashboard always asks with a `limit`, and then every member is there.
 */
export type GlossaryPage = Required<Schemas['Glossary']>;
