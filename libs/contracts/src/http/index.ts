export * from './error-envelope.js';
export * from './identity.js';
export * from './projects.js';
export * from './source.js';
export * from './locales.js';
export * from './tokens.js';
export * from './byok.js';
export * from './glossary.js';
