export * from './events.js';
export * from './principal.js';
export * from './auth.js';
