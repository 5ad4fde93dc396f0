import { runMigrations } from '@tolk/service';
import { tokenService } from './index.js';

/** `npm run migrate`: applies this service's migrations, then exits. */
runMigrations(tokenService);
