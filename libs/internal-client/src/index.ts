export * from './internal-client.js';
