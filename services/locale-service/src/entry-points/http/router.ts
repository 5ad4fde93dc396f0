import { Router, type Request } from 'express';
import { parseInput, route, withQuery } from '@tolk/http';
import type { Locale, Locales } from '../../domain/locales.js';
import {
  addLocaleBodySchema,
  parseLocaleParam,
  uploadTranslationsQuerySchema,
  type LocaleDetailResponse,
  type LocaleListResponse,
  type LocaleResponse,
  type TranslationsResponse,
} from './schemas.js';

/** A named path segment; never a list, since these routes have no wildcards. */
function param(req: Request, name: 'projectId' | 'locale'): string {
  const value = req.params[name];
  return typeof value === 'string' ? value : '';
}

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
    updatedAt: locale.updatedAt,
  };
}

export function createLocaleRouter(deps: { locales: Locales }) {
  const { locales } = deps;
  const router = Router();

  // Answers depend on who asks and change with every upload: no shared cache may keep one.
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  route(router, '/v1/projects/:projectId/locales', {
    get: async (req, res) => {
      const list = await locales.list(req.principal, param(req, 'projectId'));
      const body: LocaleListResponse = { locales: list.map(localeBody) };
      res.json(body);
    },
    post: async (req, res) => {
      const { locale } = parseInput(addLocaleBodySchema, req.body);
      const added = await locales.add(req.principal, param(req, 'projectId'), locale);
      res.status(201).json(localeBody(added));
    },
  });

  route(router, '/v1/projects/:projectId/locales/:locale', {
    get: async (req, res) => {
      const locale = parseLocaleParam(param(req, 'locale'));
      const detail = await locales.get(req.principal, param(req, 'projectId'), locale);
      const body: LocaleDetailResponse = {
        ...localeBody(detail),
        missing: detail.missing,
        outdated: detail.outdated,
      };
      res.json(body);
    },
    delete: async (req, res) => {
      const locale = parseLocaleParam(param(req, 'locale'));
      await locales.remove(req.principal, param(req, 'projectId'), locale);
      res.status(204).end();
    },
  });

  route(router, '/v1/projects/:projectId/locales/:locale/translations', {
    get: async (req, res) => {
      const locale = parseLocaleParam(param(req, 'locale'));
      const translations = await locales.download(req.principal, param(req, 'projectId'), locale);
      const body: TranslationsResponse = {
        locale: translations.locale,
        syncedVersion: translations.syncedVersion,
        translatedFrom: translations.translatedFrom,
        content: translations.content,
        updatedAt: translations.updatedAt,
        provenance: Object.fromEntries(translations.provenance),
      };
      res.json(body);
    },
    put: withQuery(uploadTranslationsQuerySchema, async (req, res, { sourceVersion }) => {
      const locale = parseLocaleParam(param(req, 'locale'));
      const updated = await locales.upload(
        req.principal,
        param(req, 'projectId'),
        locale,
        req.body,
        sourceVersion,
      );
      res.json(localeBody(updated));
    }),
  });

  return router;
}
