import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The interactive API reference at `/docs`: Swagger UI (swagger-ui-dist) rendering
 * `/v1/openapi.json`. Its files are served by the gateway itself (`/docs/<file>`), so the page
 * loads nothing from anywhere else and calls only this origin.
 */

/** swagger-ui-dist's directory (the package has no `exports`: its package.json resolves). */
const SWAGGER_UI_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The files of swagger-ui-dist the page loads, by the name it loads them under `/docs/`. */
export const DOCS_ASSETS: Record<string, string> = {
  'swagger-ui.css': path.join(SWAGGER_UI_DIR, 'swagger-ui.css'),
  'swagger-ui-bundle.js': path.join(SWAGGER_UI_DIR, 'swagger-ui-bundle.js'),
};

/**
 * Starts Swagger UI on this origin's document. A script of its own (not inline), so the policy
 * needs no hash or 'unsafe-inline'. No validator badge: it would send the document elsewhere.
 */
export const DOCS_INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  validatorUrl: null,
  displayOperationId: false,
  persistAuthorization: false,
});
`;

export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tolk API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<main id="swagger-ui">
<noscript><p>The API reference needs JavaScript. The OpenAPI document it renders is at <a href="/v1/openapi.json">/v1/openapi.json</a>.</p></noscript>
</main>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

/**
 * The headers of the page and its files: scripts and styles from this origin only (no inline
 * script or style element runs), images from it or inline `data:` (Swagger UI's icons), requests
 * ("Try it out") to it alone, never framed.
 */
export const DOCS_HEADERS = {
  'Content-Security-Policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
} as const;
