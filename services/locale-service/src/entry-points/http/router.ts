import { Router } from 'express';
import { parseInput } from '@tolk/errors';
import { noStore, pathParam, route, withQuery } from '@tolk/http';
import type { Locale } from '../../domain/locale-record.js';
import type { Locales } from '../../domain/locales.js';
import type { Memory } from '../../domain/memory.js';
import {
  addLocaleBodySchema,
  browseKeysQuerySchema,
  memoryLookupBodySchema,
  uploadTranslationsQuerySchema,
  type BrowseKeysResponse,
  type LocaleDetailResponse,
  type LocaleListResponse,
  type LocaleResponse,
  type MemoryLookupResponse,
  type TranslationsResponse,
  type UploadTranslationsResponse,
} from '@tolk/contracts';
import { parseExpectedRevision, parseLocaleParam } from './schemas.js';

/** Keys a page of the translation browser holds when the query does not say. */
const DEFAULT_BROWSE_LIMIT = 50;

function localeBody(locale: Locale): LocaleResponse {
  return {
    locale: locale.locale,
    status: locale.status,
    syncedVersion: locale.syncedVersion,
    sourceVersion: locale.sourceVersion,
    keyCount: locale.keyCount,
    translatedCount: locale.translatedCount,
    missingCount: locale.missingCount,
    outdatedCount: locale.outdatedCount,
    errorCount: locale.errorCount,
    warningCount: locale.warningCount,
    updatedAt: locale.updatedAt,
  };
}

export function createLocaleRouter(deps: { locales: Locales; memory: Pick<Memory, 'lookup'> }) {
  const { locales, memory } = deps;
  const router = Router();

  // Answers depend on who asks and change with every upload: no shared cache may keep one.
  router.use(noStore);

  route(router, '/v1/projects/:projectId/locales', {
    get: async (req, res) => {
      const list = await locales.list(req.principal, pathParam(req, 'projectId'));
      const body: LocaleListResponse = { locales: list.map(localeBody) };
      res.json(body);
    },
    post: async (req, res) => {
      const { locale } = parseInput(addLocaleBodySchema, req.body);
      const added = await locales.add(req.principal, pathParam(req, 'projectId'), locale);
      res.status(201).json(localeBody(added));
    },
  });

  route(router, '/v1/projects/:projectId/locales/:locale', {
    get: async (req, res) => {
      const locale = parseLocaleParam(pathParam(req, 'locale'));
      const detail = await locales.get(req.principal, pathParam(req, 'projectId'), locale);
      const body: LocaleDetailResponse = {
        ...localeBody(detail),
        missing: detail.missing,
        outdated: detail.outdated,
        findings: detail.findings,
      };
      res.json(body);
    },
    delete: async (req, res) => {
      const locale = parseLocaleParam(pathParam(req, 'locale'));
      await locales.remove(req.principal, pathParam(req, 'projectId'), locale);
      res.status(204).end();
    },
  });

  route(router, '/v1/projects/:projectId/locales/:locale/translations', {
    get: async (req, res) => {
      const locale = parseLocaleParam(pathParam(req, 'locale'));
      const translations = await locales.download(req.principal, pathParam(req, 'projectId'), locale);
      const body: TranslationsResponse = {
        locale: translations.locale,
        syncedVersion: translations.syncedVersion,
        translatedFrom: translations.translatedFrom,
        content: translations.content,
        updatedAt: translations.updatedAt,
        provenance: Object.fromEntries(translations.provenance),
        unknownWriters: translations.unknownWriters,
      };
      res.setHeader('ETag', `"${translations.revision}"`);
      res.json(body);
    },
    put: withQuery(uploadTranslationsQuerySchema, async (req, res, { sourceVersion }) => {
      const locale = parseLocaleParam(pathParam(req, 'locale'));
      const updated = await locales.upload(
        req.principal,
        pathParam(req, 'projectId'),
        locale,
        req.body,
        sourceVersion,
        parseExpectedRevision(req.headers['if-match']),
      );
      res.setHeader('ETag', `"${updated.revision}"`);
      const body: UploadTranslationsResponse = {
        ...localeBody(updated),
        ignored: updated.ignored,
        ignoredCount: updated.ignoredCount,
      };
      res.json(body);
    }),
  });

  route(router, '/v1/projects/:projectId/keys', {
    get: withQuery(browseKeysQuerySchema, async (req, res, query) => {
      const codes = query.locale
        ?.split(',')
        .map((code) => code.trim())
        .filter(Boolean)
        .map((code) => parseLocaleParam(code, 'query.locale'));
      const page: BrowseKeysResponse = await locales.browse(req.principal, pathParam(req, 'projectId'), {
        codes: codes && codes.length > 0 ? [...new Set(codes)] : undefined,
        status: query.status,
        by: query.by,
        findings: query.findings,
        q: query.q,
        offset: query.offset ?? 0,
        limit: query.limit ?? DEFAULT_BROWSE_LIMIT,
      });
      res.json(page);
    }),
  });

  route(router, '/v1/projects/:projectId/locales/:locale/memory', {
    // A lookup, not a change: POST only because the texts do not fit in a query string.
    post: async (req, res) => {
      const locale = parseLocaleParam(pathParam(req, 'locale'));
      const body = parseInput(memoryLookupBodySchema, req.body);
      const answer: MemoryLookupResponse = await memory.lookup(
        req.principal,
        pathParam(req, 'projectId'),
        locale,
        body,
      );
      res.json(answer);
    },
  });

  return router;
}
