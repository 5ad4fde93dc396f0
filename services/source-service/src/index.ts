import { fileURLToPath } from 'node:url';
import { defineService } from '@tolk/service';
import { createSourceService } from './app.js';
import { configSchema } from './config.js';
import { sourceConsumer } from './entry-points/messaging/source-consumer.js';

/** source-service: source files and their versions; consumes project events and baselines. */
export const sourceService = defineService({
  name: 'source',
  schema: 'source',
  migrations: fileURLToPath(new URL('../migrations', import.meta.url)),
  config: configSchema,
  outbox: true,
  consumes: true,
  create(deps) {
    const { app, sync } = createSourceService(deps);
    return { app, consumer: sourceConsumer(sync) };
  },
});
export { SOURCE_PROJECT_COLUMNS } from './data-access/projects-repository.js';
