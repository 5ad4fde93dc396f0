/** The gateway as a package: composed into one process by the embedded mode and the tests. */
export { createGatewayApp } from './app.js';
export { loadGatewayConfig, type GatewayConfig } from './config.js';
/** The shape of the published API description (GET /v1/openapi.json), for its readers. */
export type { OpenApiDocument, OpenApiOperation } from './openapi/openapi-document.js';
