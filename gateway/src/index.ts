/** The gateway as a package: composed into one process by the embedded mode and the tests. */
export { createGatewayApp } from './app.js';
export { loadGatewayConfig, type GatewayConfig } from './config.js';
/** The published API description (GET /v1/openapi.json) and its shape, for its readers. */
export {
  buildOpenApiDocument,
  type OpenApiDocument,
  type OpenApiOperation,
} from './openapi/openapi-document.js';
