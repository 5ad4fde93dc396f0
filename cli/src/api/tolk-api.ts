import {
  MAX_GLOSSARY_PAGE_SIZE,
  deviceAuthorizationResponseSchema,
  glossaryPageSchema,
  keyRulesSchema,
  keyReadingResponseSchema,
  replaceGlossaryResponseSchema,
  type GlossaryEntry,
  type GlossaryEntryInput,
  localeDetailResponseSchema,
  localeListResponseSchema,
  localeResponseSchema,
  memoryLookupResponseSchema,
  PROVENANCE_MEMBER,
  projectListResponseSchema,
  projectResponseSchema,
  sessionResponseSchema,
  sourceFileResponseSchema,
  translationsResponseSchema,
  uploadResponseSchema,
  uploadTranslationsResponseSchema,
  userResponseSchema,
  type ProvenanceClaim,
} from '@tolk/contracts';
import { z } from 'zod';
import type { ApiClient } from './api-client.js';

/**
 * A project as the CLI reads it: the contract's, with `settings.i18nextPlurals` (whether keys
 * such as `item_one` are read as i18next plural groups, DESIGN §11), `settings.keyRules` and
 * `settings.outdateOnContextChange` (DESIGN §13) accepted whether or not the server sends them;
 * absent means on, and no rules.
 */
const projectSchema = projectResponseSchema.extend({
  settings: projectResponseSchema.shape.settings.extend({
    i18nextPlurals: z.boolean().optional(),
    keyRules: keyRulesSchema.optional(),
    outdateOnContextChange: z.boolean().optional(),
  }),
});

/** The public routes the CLI uses, each answer checked against its contract schema. */
export function tolkApi(client: ApiClient) {
  const project = (projectId: string) => `/v1/projects/${encodeURIComponent(projectId)}`;
  const locale = (projectId: string, code: string) =>
    `${project(projectId)}/locales/${encodeURIComponent(code)}`;
  return {
    startDeviceLogin: () =>
      client.request('POST', '/v1/auth/device', {
        body: {},
        authenticated: false,
        schema: deviceAuthorizationResponseSchema,
      }),
    pollDeviceLogin: (deviceCode: string) =>
      client.request('POST', '/v1/auth/device/token', {
        body: { deviceCode },
        authenticated: false,
        schema: sessionResponseSchema,
      }),
    logout: (refreshToken: string) =>
      client.request('POST', '/v1/auth/logout', { body: { refreshToken }, authenticated: false }),
    me: () => client.get('/v1/user/me', userResponseSchema),

    listProjects: () => client.get('/v1/projects', projectListResponseSchema),
    getProject: (projectId: string) => client.get(project(projectId), projectSchema),
    createProject: (body: { name: string; sourceLocale: string }) =>
      client.request('POST', '/v1/projects', { body, schema: projectResponseSchema }),

    getSource: (projectId: string) => client.get(`${project(projectId)}/source`, sourceFileResponseSchema),
    putSource: (projectId: string, content: unknown, dryRun: boolean) =>
      client.request('PUT', `${project(projectId)}/source`, {
        body: content,
        query: dryRun ? { dryRun: true } : undefined,
        schema: uploadResponseSchema,
      }),

    listLocales: (projectId: string) => client.get(`${project(projectId)}/locales`, localeListResponseSchema),
    addLocale: (projectId: string, code: string) =>
      client.request('POST', `${project(projectId)}/locales`, {
        body: { locale: code },
        schema: localeResponseSchema,
      }),
    getLocale: (projectId: string, code: string) =>
      client.get(locale(projectId, code), localeDetailResponseSchema),
    /** The translations and their revision (`etag`: null from a server that has none). */
    getTranslations: async (projectId: string, code: string) => {
      const { body, etag } = await client.exchange('GET', `${locale(projectId, code)}/translations`, {
        schema: translationsResponseSchema,
      });
      return { ...body, etag };
    },
    /**
     * `claim`: the keys the model wrote (and those reused from memory); every other key of the
     * upload is a person's, unless its value is the one the server has (DESIGN §13). `ifMatch`:
     * the `etag` of the download the upload was merged with; the server refuses it (412) when
     * its translations changed since.
     */
    putTranslations: (
      projectId: string,
      code: string,
      content: Record<string, unknown>,
      sourceVersion: number,
      options: { claim?: ProvenanceClaim; ifMatch?: string | null } = {},
    ) =>
      client.request('PUT', `${locale(projectId, code)}/translations`, {
        body: options.claim ? { ...content, [PROVENANCE_MEMBER]: options.claim } : content,
        query: { sourceVersion },
        headers: options.ifMatch ? { 'if-match': options.ifMatch } : undefined,
        schema: uploadTranslationsResponseSchema,
      }),

    lookUpMemory: (projectId: string, code: string, texts: string[], near = 0) =>
      client.request('POST', `${locale(projectId, code)}/memory`, {
        body: { texts, near },
        schema: memoryLookupResponseSchema,
      }),
    /**
     * Every entry of the glossary, a page at a time (a page holds at most 512 KiB of text), in
     * term order. An entry renamed while the pages are read may come twice: it is kept once, as
     * last read.
     */
    async getGlossary(projectId: string): Promise<{ entries: GlossaryEntry[] }> {
      const byId = new Map<string, GlossaryEntry>();
      let cursor: string | undefined;
      do {
        const page = await client.get(`${project(projectId)}/glossary`, glossaryPageSchema, {
          limit: MAX_GLOSSARY_PAGE_SIZE,
          cursor,
        });
        for (const entry of page.entries) byId.set(entry.entryId, entry);
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined);
      return { entries: [...byId.values()] };
    },
    /** An import: every entry at once; with `merge`, entries of other terms stay. */
    putGlossary: (projectId: string, entries: GlossaryEntryInput[], merge: boolean) =>
      client.request('PUT', `${project(projectId)}/glossary`, {
        body: { entries },
        query: merge ? { merge: true } : undefined,
        schema: replaceGlossaryResponseSchema,
      }),

    readProviderKey: (provider: string) =>
      client.get(`/v1/user/byok/${encodeURIComponent(provider)}`, keyReadingResponseSchema),
  };
}

export type TolkApi = ReturnType<typeof tolkApi>;
/** A project as the CLI reads it (see projectSchema). */
export type Project = z.infer<typeof projectSchema>;
