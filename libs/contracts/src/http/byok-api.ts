/** The public API of byok-service: the signed-in user's AI-provider keys (bring your own key). */
import { type ServiceApi } from './api-contract.js';
import {
  keyListResponseSchema,
  keyReadingResponseSchema,
  keyStatusSchema,
  storeKeyRequestSchema,
  storedKeyResponseSchema,
} from './byok.js';

export const byokApi: ServiceApi = {
  tag: 'CLI',
  requestSchemas: {
    StoreProviderKeyRequest: storeKeyRequestSchema,
  },
  responseSchemas: {
    ByokKeyStatus: keyReadingResponseSchema,
    StoredProviderKey: storedKeyResponseSchema,
    ProviderKeyStatus: keyStatusSchema,
    ProviderKeyList: keyListResponseSchema,
  },
  routes: [{ path: '/v1/user/byok{/*rest}', service: 'byok', access: 'user', noStore: true }],
  operations: {
    'GET /v1/user/byok': {
      operationId: 'listProviderKeys',
      summary: "The signed-in user's AI-provider keys, one entry per provider",
      success: {
        status: 200,
        description: 'Every provider, with or without a key',
        schema: keyListResponseSchema,
      },
    },
    'GET /v1/user/byok/{provider}': {
      operationId: 'getProviderKey',
      summary: "Read the user's key for a provider, decrypted",
      description:
        'The CLI polls it for a newly added key after it sends the user to the dashboard. ' +
        '`{"hasKey":false,"apiKey":""}` when there is none. Never cached (`Cache-Control: no-store`).',
      success: {
        status: 200,
        description: 'Whether there is a key, and the key',
        schema: keyReadingResponseSchema,
      },
    },
    'PUT /v1/user/byok/{provider}': {
      operationId: 'storeProviderKey',
      summary: "Store the user's key for a provider (encrypted at rest)",
      requestBody: { schema: storeKeyRequestSchema, required: true },
      success: {
        status: 200,
        description: 'Stored; only its last 4 characters are shown',
        schema: storedKeyResponseSchema,
      },
    },
    'DELETE /v1/user/byok/{provider}': {
      operationId: 'deleteProviderKey',
      summary: "Delete the user's key for a provider",
      success: { status: 204, description: 'Deleted, also when no key was stored' },
    },
  },
};
