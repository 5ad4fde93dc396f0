// The locale file format shared by the source and translations of a project, and by the CLI:
// flattening with ARB-style annotations, rebuilding the original nesting, and key-level diffs.
export * from './parse-locale-file.js';
export * from './rebuild-document.js';
export * from './diff.js';
