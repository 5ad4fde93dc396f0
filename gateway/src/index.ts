/** The gateway as a package: composed into one process by the embedded mode and the tests. */
export { createGatewayApp } from './app.js';
export { loadGatewayConfig, type GatewayConfig } from './config.js';
