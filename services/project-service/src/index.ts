import { defineService } from '@tolk/service';
import { createProjectService } from './app.js';
import { configSchema } from './config.js';

/** project-service: projects and their members; consumes UserDeleted. */
export const projectService = defineService('project', {
  schema: 'projects',
  migrations: new URL('../migrations', import.meta.url),
  config: configSchema,
  create: createProjectService,
});
