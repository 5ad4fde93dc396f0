import { runService } from '@tolk/service';
import { localeService } from './index.js';

runService(localeService);
