import { Router, type Request, type Response } from 'express';
import { SOURCE_VERSION_HEADER } from '@tolk/contracts';
import { noStore, pathParam, route, withQuery } from '@tolk/http';
import type { SourceFile } from '../../domain/source-reads.js';
import type { Sources } from '../../domain/sources.js';
import {
  carryOverQuerySchema,
  parseExpectedVersion,
  parseVersion,
  sourceDiffQuerySchema,
  uploadSourceQuerySchema,
  type CarryOverResponse,
  type DiffResponse,
  type SourceFileResponse,
  type SourceKeyCharactersResponse,
  type UploadResponse,
  type VersionListResponse,
} from './schemas.js';

function sendSourceFile(res: Response, file: SourceFile): void {
  const body: SourceFileResponse = {
    version: file.version,
    locale: file.locale,
    keyCount: file.keyCount,
    content: file.content,
    pendingDiff: file.pendingDiff,
    updatedAt: file.updatedAt,
  };
  res.setHeader('ETag', `"${file.version}"`);
  res.json(body);
}

export function createSourceRouter(deps: {
  sources: Sources;
  /** The request's JSON body, compressed for storage (started before it was parsed). */
  compressedBody?: (req: Request) => Promise<Buffer> | undefined;
}) {
  const { sources } = deps;
  const router = Router();

  // Answers depend on who asks and change with every upload: no shared cache may keep one.
  router.use(noStore);

  route(router, '/v1/projects/:projectId/source', {
    put: withQuery(uploadSourceQuerySchema, async (req, res, { dryRun }) => {
      const expected = parseExpectedVersion(req.headers['if-match']);
      const result = await sources.upload(req.principal, pathParam(req, 'projectId'), req.body, {
        dryRun,
        expected,
        raw: req.rawBody,
        document: deps.compressedBody?.(req),
      });
      const body: UploadResponse = {
        version: result.version,
        diff: result.diff,
        keyCount: result.keyCount,
        needsTranslation: result.needsTranslation,
      };
      if (!dryRun) res.setHeader('ETag', `"${result.version}"`);
      res.json(body);
    }),
    get: async (req, res) => {
      sendSourceFile(res, await sources.current(req.principal, pathParam(req, 'projectId')));
    },
  });

  route(router, '/v1/projects/:projectId/source/versions', {
    get: async (req, res) => {
      const body: VersionListResponse = {
        versions: await sources.list(req.principal, pathParam(req, 'projectId')),
      };
      res.json(body);
    },
  });

  route(router, '/v1/projects/:projectId/source/versions/:version', {
    get: async (req, res) => {
      const version = parseVersion(pathParam(req, 'version'), 'path.version');
      sendSourceFile(res, await sources.version(req.principal, pathParam(req, 'projectId'), version));
    },
  });

  route(router, '/v1/projects/:projectId/source/diff', {
    get: withQuery(sourceDiffQuerySchema, async (req, res, { from, to }) => {
      const diff = await sources.diff(req.principal, pathParam(req, 'projectId'), from, to);
      const body: DiffResponse = { added: diff.added, modified: diff.modified, deleted: diff.deleted };
      res.json(body);
    }),
  });

  // ---- internal: the service frame lets only internal callers reach these ----

  // A version's stored document for locale-service, as kept: gzip-compressed JSON with each key's
  // revision. `current` for the project's current version (0, the empty source, before any).
  route(router, '/internal/projects/:projectId/source/versions/:version', {
    get: async (req, res) => {
      const raw = pathParam(req, 'version');
      const wanted = raw === 'current' ? 'current' : parseVersion(raw, 'path.version');
      const stored = await sources.stored(pathParam(req, 'projectId'), wanted);
      res.setHeader(SOURCE_VERSION_HEADER, String(stored.version));
      res.type('application/octet-stream').send(stored.content);
    },
  });

  // The renames and restores of a range of versions, for locale-service's consumer (DESIGN §13).
  route(router, '/internal/projects/:projectId/source/carry-overs', {
    get: withQuery(carryOverQuerySchema, async (req, res, { after, through }) => {
      const body: CarryOverResponse = {
        versions: await sources.carryOvers(pathParam(req, 'projectId'), after, through),
      };
      res.json(body);
    }),
  });

  // The size of the current version's keys, for project-service's budget of key rules.
  route(router, '/internal/projects/:projectId/source/key-characters', {
    get: async (req, res) => {
      const body: SourceKeyCharactersResponse = await sources.keyCharacters(pathParam(req, 'projectId'));
      res.json(body);
    },
  });

  return router;
}
