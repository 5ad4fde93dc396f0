import { runMigrations } from '@tolk/service';
import { projectService } from './index.js';

/** `npm run migrate`: applies this service's migrations, then exits. */
runMigrations(projectService);
