export * from './events.js';
export * from './principal.js';
