import { Router } from 'express';
import { ignoringQuery, route } from '@tolk/http';
import { DOCS_ASSETS, DOCS_HEADERS, DOCS_HTML, DOCS_INIT_SCRIPT } from './docs-page.js';
import { buildOpenApiDocument } from './openapi-document.js';

/**
 * `GET /v1/openapi.json` and `GET /docs` (with the files of its page under `/docs/`): public,
 * answered by the gateway itself. The document is generated once, when the gateway starts, from
 * the schemas the services validate with; a description that does not fit the route table stops
 * the start instead of misleading a reader.
 */
export function createApiReferenceRouter(): Router {
  const document = JSON.stringify(buildOpenApiDocument());
  const router = Router();

  route(router, '/v1/openapi.json', {
    get: (_req, res) => {
      // Changes with every deploy: caches must ask again.
      res.setHeader('Cache-Control', 'no-cache');
      res.type('application/json').send(document);
    },
  });

  // A page opened from links, which may carry tracking parameters: it reads no query and refuses none.
  route(router, '/docs', {
    get: ignoringQuery((_req, res) => {
      res.setHeader('Cache-Control', 'no-cache');
      res.set(DOCS_HEADERS);
      res.type('html').send(DOCS_HTML);
    }),
  });

  route(router, '/docs/init.js', {
    get: (_req, res) => {
      res.setHeader('Cache-Control', 'no-cache');
      res.set(DOCS_HEADERS);
      res.type('text/javascript').send(DOCS_INIT_SCRIPT);
    },
  });

  // Swagger UI's own files, as the installed version has them; revalidated by their ETag.
  for (const [name, file] of Object.entries(DOCS_ASSETS)) {
    route(router, `/docs/${name}`, {
      get: (_req, res, next) => {
        res.set(DOCS_HEADERS);
        res.sendFile(file, { headers: { 'Cache-Control': 'no-cache' } }, (err) => {
          if (err) next(err);
        });
      },
    });
  }

  return router;
}
