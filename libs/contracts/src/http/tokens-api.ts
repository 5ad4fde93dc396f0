/** The public API of token-service: a project's API tokens for CI/CD. */
import { type ServiceApi } from './api-contract.js';
import {
  apiTokenSchema,
  createTokenRequestSchema,
  createTokenResponseSchema,
  tokenListResponseSchema,
} from './tokens.js';

export const tokensApi: ServiceApi = {
  tag: 'API Tokens',
  requestSchemas: {
    CreateTokenRequest: createTokenRequestSchema,
  },
  responseSchemas: {
    ApiToken: apiTokenSchema,
    CreateTokenResponse: createTokenResponseSchema,
    ApiTokenList: tokenListResponseSchema,
  },
  routes: [
    { path: '/v1/projects/:projectId/tokens{/*rest}', service: 'token', access: 'user', scope: 'project' },
  ],
  operations: {
    'POST /v1/projects/{projectId}/tokens': {
      operationId: 'createProjectToken',
      summary: 'Create a project API token',
      description: 'The full token is in this answer only: it cannot be retrieved again.',
      requestBody: { schema: createTokenRequestSchema, required: true },
      success: { status: 201, description: 'The token, shown this once', schema: createTokenResponseSchema },
      errors: { 409: 'The project holds the most live tokens it may; revoke one first (CONFLICT)' },
    },
    'GET /v1/projects/{projectId}/tokens': {
      operationId: 'listProjectTokens',
      summary: 'The live project API tokens, newest first',
      success: {
        status: 200,
        description: 'The tokens, each with its `tokenPrefix`',
        schema: tokenListResponseSchema,
      },
    },
    'DELETE /v1/projects/{projectId}/tokens/{tokenId}': {
      operationId: 'revokeProjectToken',
      summary: 'Revoke a project API token',
      success: { status: 204, description: 'Revoked: the token stops working within a second' },
      errors: { 404: 'No such project, or no live token with this id (NOT_FOUND)' },
    },
  },
};
