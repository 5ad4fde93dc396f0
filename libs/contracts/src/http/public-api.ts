import { operationsOf, type ApiOperation, type ApiRoute, type ServiceApi } from './api-contract.js';
import { byokApi } from './byok-api.js';
import { glossaryApi } from './glossary-api.js';
import { identityApi } from './identity-api.js';
import { localesApi } from './locales-api.js';
import { projectsApi } from './projects-api.js';
import { sourceApi } from './source-api.js';
import { tokensApi } from './tokens-api.js';

/** Every service's part of the public API, in the order the OpenAPI document lists them. */
export const PUBLIC_API: readonly ServiceApi[] = [
  identityApi,
  projectsApi,
  glossaryApi,
  sourceApi,
  localesApi,
  tokensApi,
  byokApi,
];

/** Every route the gateway exposes. Methods are the service's business: it answers 405 itself. */
export const PUBLIC_ROUTES: readonly ApiRoute[] = PUBLIC_API.flatMap((api) => api.routes);

/** Every public operation of the services. */
export const PUBLIC_OPERATIONS: readonly ApiOperation[] = PUBLIC_API.flatMap(operationsOf);
