import { Router } from 'express';
import { ignoringQuery, route } from '@tolk/http';
import { DOCS_PAGE } from './docs-page.js';
import { buildOpenApiDocument } from './openapi-document.js';

/**
 * `GET /v1/openapi.json` and `GET /docs`: public, answered by the gateway itself. The document is
 * generated once, when the gateway starts, from the schemas the services validate with; a
 * description that does not fit the route table stops the start instead of misleading a reader.
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
      res.set(DOCS_PAGE.headers);
      res.type('html').send(DOCS_PAGE.html);
    }),
  });

  return router;
}
