import { runMigrations } from '@tolk/service';
import { byokService } from './index.js';

/** `npm run migrate`: applies this service's migrations, then exits. */
runMigrations(byokService);
