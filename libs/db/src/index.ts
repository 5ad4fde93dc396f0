export * from './db.js';
export * from './pg-db.js';
export * from './migrate.js';
export * from './pglite-db.js';
