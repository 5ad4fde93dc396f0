import { runService } from '@tolk/service';
import { sourceService } from './index.js';

runService(sourceService);
