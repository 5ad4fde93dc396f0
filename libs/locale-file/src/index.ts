// The locale file format shared by the source and translations of a project, and by the CLI:
// flattening with ARB-style annotations, rebuilding the original nesting (of the source, or of a
// translation in the source's shape), key-level diffs, the placeholder check, the ICU rules and
// CLDR plural categories and i18next plural groups (DESIGN §11), and the stored form.
export * from './errors.js';
export * from './parse-locale-file.js';
export * from './rebuild-document.js';
export * from './rebuild-translation.js';
export * from './diff.js';
export * from './placeholders.js';
export * from './stored-source.js';
export * from './version-cache.js';
export * from './stored-document.js';
export * from './plural-categories.js';
export * from './icu-messages.js';
export * from './plural-groups.js';
export * from './time-slices.js';
export * from './markup.js';
export * from './findings.js';
