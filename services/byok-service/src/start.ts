import { runService } from '@tolk/service';
import { byokService } from './index.js';

runService(byokService);
