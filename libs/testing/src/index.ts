export * from './infrastructure.js';
export * from './database.js';
export * from './http.js';
export * from './private-rabbit.js';
export * from './prometheus.js';
export * from './json-schema.js';
export * from './queues.js';
