import { runMigrations } from '@tolk/service';
import { sourceService } from './index.js';

/** `npm run migrate`: applies this service's migrations, then exits. */
runMigrations(sourceService);
