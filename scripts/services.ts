/** Every service of Tolk, in start order, as each package defines it (@tolk/service). */
import { byokService } from '@tolk/byok-service';
import { identityService } from '@tolk/identity-service';
import { localeService } from '@tolk/locale-service';
import { projectService } from '@tolk/project-service';
import type { ServiceConfig, ServiceDefinition } from '@tolk/service';
import { sourceService } from '@tolk/source-service';
import { tokenService } from '@tolk/token-service';

export const SERVICES: readonly ServiceDefinition<ServiceConfig>[] = [
  identityService,
  projectService,
  sourceService,
  localeService,
  tokenService,
  byokService,
];
