import { fileURLToPath } from 'node:url';
import { defineService } from '@tolk/service';
import { createLocaleService } from './app.js';
import { configSchema } from './config.js';
import { localeConsumer } from './entry-points/messaging/locale-consumer.js';

/** locale-service: translations per locale; consumes project events and source changes. */
export const localeService = defineService({
  name: 'locale',
  schema: 'locales',
  migrations: fileURLToPath(new URL('../migrations', import.meta.url)),
  config: configSchema,
  outbox: true,
  consumes: true,
  create(deps) {
    const { app, sync, refresh } = createLocaleService(deps);
    return { app, consumer: localeConsumer(sync, refresh, deps.logger) };
  },
});
export { LOCALE_PROJECT_COLUMNS } from './data-access/projects-repository.js';
