#!/usr/bin/env node
// The published package runs the bundle in dist/. In the Tolk repository before a build, the
// TypeScript sources run through tsx, the workspace libraries resolved to their sources too.
import { existsSync } from 'node:fs';
import { register } from 'node:module';

const bundle = new URL('../dist/tolk.js', import.meta.url);
if (existsSync(bundle)) {
  await import(bundle.href);
} else {
  const tsx = await import('tsx/esm/api');
  tsx.register();
  // Registered after tsx, so it runs first (hooks chain last in, first out).
  const sourceCondition = `export function resolve(specifier, context, next) {
    return next(specifier, { ...context, conditions: [...context.conditions, 'tolk-source'] });
  }`;
  register(`data:text/javascript,${encodeURIComponent(sourceCondition)}`);
  await import(new URL('../src/cli-main.ts', import.meta.url).href);
}
