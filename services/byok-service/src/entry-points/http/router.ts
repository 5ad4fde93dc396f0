import { Router, type Request } from 'express';
import { parseInput } from '@tolk/errors';
import { requireUser, route } from '@tolk/http';
import type { KeyOwner } from '../../domain/key-cipher.js';
import type { ProviderKeys } from '../../domain/provider-keys.js';
import {
  parseProvider,
  storeKeyRequestSchema,
  type KeyListResponse,
  type KeyReadingResponse,
  type StoredKeyResponse,
} from './schemas.js';

/**
 * The signed-in user and the provider of the path, in that order: a project API token gets 403
 * whatever else is wrong with the request.
 */
function ownerOf(req: Request): KeyOwner {
  const { userId } = requireUser(req);
  return { userId, provider: parseProvider(req.params['provider']) };
}

export function createByokRouter(deps: { providerKeys: ProviderKeys }) {
  const { providerKeys } = deps;
  const router = Router();

  route(router, '/v1/user/byok', {
    get: async (req, res) => {
      const { userId } = requireUser(req);
      const body: KeyListResponse = { keys: await providerKeys.list(userId) };
      res.json(body);
    },
  });

  route(router, '/v1/user/byok/:provider', {
    get: async (req, res) => {
      const reading = await providerKeys.read(ownerOf(req));
      const body: KeyReadingResponse = { hasKey: reading.hasKey, apiKey: reading.apiKey };
      res.json(body);
    },
    put: async (req, res) => {
      const owner = ownerOf(req);
      const { apiKey } = parseInput(storeKeyRequestSchema, req.body);
      const status = await providerKeys.store(owner, apiKey);
      const body: StoredKeyResponse = {
        provider: status.provider,
        hasKey: true,
        hint: status.hint,
        updatedAt: status.updatedAt,
      };
      res.json(body);
    },
    delete: async (req, res) => {
      await providerKeys.remove(ownerOf(req));
      res.status(204).end();
    },
  });

  return router;
}
