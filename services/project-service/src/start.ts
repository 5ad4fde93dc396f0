import { runService } from '@tolk/service';
import { projectService } from './index.js';

runService(projectService);
