import { readFile } from 'node:fs/promises';
import path from 'node:path';
import express, { Router, type Request, type Response } from 'express';

/** Paths the gateway answers itself or routes to a service: never the dashboard's, whatever is accepted. */
const RESERVED_PREFIXES = ['/v1', '/healthz', '/readyz', '/metrics', '/docs', '/internal'];

/**
 * The dashboard is one script and one stylesheet from this origin, and calls only this origin's
 * API: nothing inline, nothing from elsewhere, never framed.
 */
export const DASHBOARD_HEADERS = {
  'Content-Security-Policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
} as const;

// Vite names every file under assets/ after a hash of its content: it can be kept forever.
const IMMUTABLE = 'public, max-age=31536000, immutable';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="5">
<title>Tolk dashboard — not built yet</title>
</head>
<body>
<main>
<h1>The Tolk dashboard is not built yet</h1>
<p><code>npm start</code> builds it in the background when it is missing or out of date; this page
reloads every 5 seconds until it is there.</p>
<p>To build it yourself: <code>npm run build -w @tolk/dashboard</code> (or <code>npm run build</code>),
or point <code>DASHBOARD_DIR</code> at a directory holding a build.</p>
<p>The API does not need it: see <a href="/docs">/docs</a>.</p>
</main>
</body>
</html>
`;

function isReserved(pathname: string): boolean {
  return RESERVED_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/**
 * Only a browser navigation gets the app: it asks for text/html by name. API clients (`*\/*`,
 * application/json) keep getting the JSON 404 envelope for a path that is no route.
 */
function wantsHtml(req: Request): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && (req.get('accept') ?? '').includes('text/html');
}

/**
 * The web dashboard (dashboard/dist) at `/`: its files as they are, and for any other page a
 * browser asks for, the app's index.html (client-side routes such as /projects/p1 or
 * /device?code=...). index.html is read on every request, so a rebuild in the background (npm
 * start) is served at once; without a build, a short page says how to make one.
 */
export function createDashboardRouter(options: { dir: string }): Router {
  const indexFile = path.join(options.dir, 'index.html');
  const router = Router();

  const files = express.static(options.dir, {
    index: false,
    redirect: false,
    fallthrough: true,
    etag: true,
    lastModified: true,
    setHeaders(res, filePath) {
      res.set(DASHBOARD_HEADERS);
      const relative = path.relative(options.dir, filePath);
      res.setHeader(
        'Cache-Control',
        relative.startsWith(`assets${path.sep}`) && !relative.endsWith('.html') ? IMMUTABLE : 'no-cache',
      );
    },
  });

  router.use((req, res, next) => {
    if (isReserved(req.path) || req.path === '/index.html') return next();
    files(req, res, next);
  });

  router.use(async (req: Request, res: Response, next) => {
    // A hashed file that is gone (an old page after a rebuild) is a 404, never the page in its place.
    if (isReserved(req.path) || req.path.startsWith('/assets/') || !wantsHtml(req)) return next();
    res.set(DASHBOARD_HEADERS);
    res.setHeader('Cache-Control', 'no-cache');
    let html: string;
    try {
      html = await readFile(indexFile, 'utf8');
    } catch {
      res.status(503).setHeader('Retry-After', '5');
      res.type('html').send(NOT_BUILT_PAGE);
      return;
    }
    res.type('html').send(html);
  });

  return router;
}
