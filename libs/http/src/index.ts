export * from './errors.js';
export * from './error-middleware.js';
export * from './request-id.js';
export * from './validation.js';
export * from './principal.js';
export * from './internal-caller.js';
export * from './service-app.js';
export * from './routes.js';
