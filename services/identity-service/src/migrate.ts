import { runMigrations } from '@tolk/service';
import { identityService } from './index.js';

/** `npm run migrate`: applies this service's migrations, then exits. */
runMigrations(identityService);
