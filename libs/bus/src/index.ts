export * from './bus.js';
export * from './rabbit-bus.js';
export * from './outbox.js';
export * from './tables.js';
export * from './idempotent.js';
export * from './in-process-bus.js';
