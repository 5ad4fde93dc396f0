import { fileURLToPath } from 'node:url';
import { defineService } from '@tolk/service';
import { createProjectAccountRemoval, createProjectApp } from './app.js';
import { configSchema } from './config.js';
import { subscribeProjectConsumer } from './entry-points/messaging/project-consumer.js';

/** project-service: projects and their members; consumes UserDeleted. */
export const projectService = defineService({
  name: 'project',
  schema: 'projects',
  migrations: fileURLToPath(new URL('../migrations', import.meta.url)),
  config: configSchema,
  outbox: true,
  create(deps) {
    const { bus, db, logger } = deps;
    const accountRemoval = createProjectAccountRemoval(deps);
    return {
      app: createProjectApp(deps),
      consume: (queue) => subscribeProjectConsumer({ bus, db, accountRemoval, logger, queue }),
    };
  },
});
