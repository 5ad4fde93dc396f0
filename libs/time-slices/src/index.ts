/**
 * Work in time slices (slice-clock.ts): the event loop serves other requests between slices of a
 * few milliseconds. Generic plumbing, no business rules: the service frame parses large JSON
 * bodies with it, @tolk/locale-file its stored documents and its walks over 200,000 keys.
 */
export * from './slice-clock.js';
export * from './parse-json-in-slices.js';
