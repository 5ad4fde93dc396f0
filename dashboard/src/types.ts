/**
 * The API's answers as the dashboard reads them. They mirror the zod schemas in
 * libs/contracts/src/http (the truth for these shapes; also GET /v1/openapi.json).
 */

export type User = { userId: string; email: string; name: string | null; createdAt: number };

export type SessionResponse = { user: User; accessToken: string; refreshToken: string; expiresIn: number };

export const AI_PROVIDERS = ['openai', 'anthropic', 'google', 'mistral', 'deepseek', 'openrouter'] as const;
export type AiProvider = (typeof AI_PROVIDERS)[number];

export const PROVIDER_NAMES: Record<AiProvider, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  google: 'Google',
  mistral: 'Mistral',
  deepseek: 'DeepSeek',
  openrouter: 'OpenRouter',
};

/** Keys only people translate, never translated (targets carry the source text), left out of targets. */
export type KeyRules = { humanOnly: string[]; neverTranslate: string[]; exclude: string[] };

export type Project = {
  projectId: string;
  name: string;
  sourceLocale: string;
  settings: {
    provider: string | null;
    model: string | null;
    instructions: string | null;
    /** Whether keys `item_one`, `item_other` are read as i18next plural groups (DESIGN §11). */
    i18nextPlurals: boolean;
    /** Glob patterns over keys (DESIGN §13); absent from a server older than them. */
    keyRules?: KeyRules;
    /** Whether a changed context annotation outdates its key in every target (DESIGN §13). */
    outdateOnContextChange: boolean;
  };
  role: 'owner' | 'member' | null;
  createdAt: number;
  updatedAt: number;
};

export type Member = { userId: string; email: string | null; role: 'owner' | 'member' };

export type Locale = {
  locale: string;
  status: 'behind' | 'up_to_date';
  syncedVersion: number;
  sourceVersion: number;
  keyCount: number;
  translatedCount: number;
  missingCount: number;
  outdatedCount: number;
  /** Keys whose translation has an error finding (DESIGN §15). */
  errorCount: number;
  /** Keys whose translation has warning findings and no error. */
  warningCount: number;
  updatedAt: number;
};

/** `GET .../locales/{locale}`: the locale and which of its keys need translating. */
export type LocaleDetail = Locale & { missing: string[]; outdated: string[] };

export type Diff = { added: string[]; modified: string[]; deleted: string[] };

export type SourceFile = {
  version: number;
  locale: string;
  keyCount: number;
  content: string;
  pendingDiff: Diff;
  updatedAt: number;
};

export type SourceVersion = {
  version: number;
  keyCount: number;
  added: number;
  modified: number;
  deleted: number;
  createdAt: number;
  /** Renames (translations carried to the new key) and restores (DESIGN §13): how many, and the first ones. */
  renamed: number;
  restored: number;
  renames: { from: string; to: string }[];
  restores: { key: string; version: number }[];
};

export type ApiToken = {
  tokenId: string;
  tokenPrefix: string | null;
  label: string;
  permissions: 'read' | 'read_write';
  lastUsedAt: number | null;
  createdAt: number;
};

/** In the list view: the member who created the token (removing them revokes it). */
export type ListedToken = ApiToken & { createdBy: { userId: string } };

export type CreatedToken = ApiToken & { token: string };

export type KeyStatus = {
  provider: AiProvider;
  hasKey: boolean;
  hint: string | null;
  updatedAt: number | null;
};

/** A glossary entry (DESIGN §13): a term and its rendering per target locale, or kept as is. */
export type GlossaryEntry = {
  entryId: string;
  term: string;
  caseSensitive: boolean;
  keepAsIs: boolean;
  note: string | null;
  translations: Record<string, string>;
  createdAt: number;
  updatedAt: number;
};

/** A page of the glossary: its entries in term order, what the whole glossary holds, the next page's cursor. */
export type GlossaryPage = {
  entries: GlossaryEntry[];
  total: number;
  bytes: number;
  nextCursor: string | null;
};
