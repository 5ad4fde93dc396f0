import {
  deviceAuthorizationResponseSchema,
  keyReadingResponseSchema,
  localeDetailResponseSchema,
  localeListResponseSchema,
  localeResponseSchema,
  projectListResponseSchema,
  projectResponseSchema,
  sessionResponseSchema,
  sourceFileResponseSchema,
  translationsResponseSchema,
  uploadResponseSchema,
  userResponseSchema,
} from '@tolk/contracts';
import { z } from 'zod';
import type { ApiClient } from './api-client.js';

/**
 * A project as the CLI reads it: the contract's, with `settings.i18nextPlurals` (whether keys
 * such as `item_one` are read as i18next plural groups, DESIGN §11) and
 * `settings.outdateOnContextChange` (DESIGN §13, the server's business) accepted whether or not
 * the server sends them; absent means on.
 */
const projectSchema = projectResponseSchema.extend({
  settings: projectResponseSchema.shape.settings.extend({
    i18nextPlurals: z.boolean().optional(),
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
    getTranslations: (projectId: string, code: string) =>
      client.get(`${locale(projectId, code)}/translations`, translationsResponseSchema),
    putTranslations: (projectId: string, code: string, content: unknown, sourceVersion: number) =>
      client.request('PUT', `${locale(projectId, code)}/translations`, {
        body: content,
        query: { sourceVersion },
        schema: localeResponseSchema,
      }),

    readProviderKey: (provider: string) =>
      client.get(`/v1/user/byok/${encodeURIComponent(provider)}`, keyReadingResponseSchema),
  };
}

export type TolkApi = ReturnType<typeof tolkApi>;
/** A project as the CLI reads it (see projectSchema). */
export type Project = z.infer<typeof projectSchema>;
