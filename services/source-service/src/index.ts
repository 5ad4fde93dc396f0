import { defineService } from '@tolk/service';
import { createSourceService } from './app.js';
import { configSchema } from './config.js';

/** source-service: source files and their versions; consumes project events and baselines. */
export const sourceService = defineService('source', {
  schema: 'source',
  migrations: new URL('../migrations', import.meta.url),
  config: configSchema,
  create: createSourceService,
});
export { SOURCE_PROJECT_COLUMNS } from './data-access/projects-repository.js';
