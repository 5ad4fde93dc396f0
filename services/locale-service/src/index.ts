import { defineService } from '@tolk/service';
import { createLocaleService } from './app.js';
import { configSchema } from './config.js';

/** locale-service: translations per locale; consumes project events and source changes. */
export const localeService = defineService('locale', {
  schema: 'locales',
  migrations: new URL('../migrations', import.meta.url),
  config: configSchema,
  create: createLocaleService,
});
export { LOCALE_PROJECT_COLUMNS } from './data-access/projects-repository.js';
