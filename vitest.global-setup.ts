import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { describeInfrastructure, findInfrastructure, type Infrastructure } from '@tolk/testing';

declare module 'vitest' {
  export interface ProvidedContext {
    infrastructure: Infrastructure;
  }
}

export default async function setup(project: TestProject) {
  const { infrastructure, stop } = await findInfrastructure();
  console.log(describeInfrastructure(infrastructure));
  project.provide('infrastructure', infrastructure);
  return stop;
}
