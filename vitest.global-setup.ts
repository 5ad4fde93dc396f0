import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { findInfrastructure, type Infrastructure } from '@tolk/testing';

declare module 'vitest' {
  export interface ProvidedContext {
    infrastructure: Infrastructure;
  }
}

export default async function setup(project: TestProject) {
  const { infrastructure, stop } = await findInfrastructure();
  const origin = Object.entries(infrastructure.origin)
    .map(([server, from]) => `${server} (${from})`)
    .join(', ');
  console.log(`Test infrastructure: ${origin}`);
  project.provide('infrastructure', infrastructure);
  return stop;
}
