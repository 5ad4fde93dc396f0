import { runService } from '@tolk/service';
import { tokenService } from './index.js';

runService(tokenService);
