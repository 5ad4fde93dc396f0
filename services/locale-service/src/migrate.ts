import { runMigrations } from '@tolk/service';
import { localeService } from './index.js';

/** `npm run migrate`: applies this service's migrations, then exits. */
runMigrations(localeService);
