import { fileURLToPath } from 'node:url';
import { defineService } from '@tolk/service';
import { createProjectAccountRemoval, createProjectApp } from './app.js';
import { configSchema } from './config.js';
import { projectConsumer } from './entry-points/messaging/project-consumer.js';

/** project-service: projects and their members; consumes UserDeleted. */
export const projectService = defineService({
  name: 'project',
  schema: 'projects',
  migrations: fileURLToPath(new URL('../migrations', import.meta.url)),
  config: configSchema,
  outbox: true,
  consumes: true,
  create: (deps) => ({
    app: createProjectApp(deps),
    consumer: projectConsumer(createProjectAccountRemoval(deps)),
  }),
});
