import { runService } from '@tolk/service';
import { identityService } from './index.js';

runService(identityService);
