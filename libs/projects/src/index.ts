export * from './project-access.js';
export * from './project-directory.js';
export * from './replica.js';
export * from './project-events.js';
export * from './writer-check.js';
