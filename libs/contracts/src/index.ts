export * from './events.js';
export * from './principal.js';
export * from './auth.js';
export * from './locale.js';
export * from './providers.js';
export * from './project-events.js';
export * from './source-events.js';
export * from './project-tokens.js';
