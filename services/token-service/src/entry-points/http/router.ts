import { Router } from 'express';
import {
  TOKEN_INTROSPECTION_PATH,
  TOKEN_USAGE_PATH,
  tokenIntrospectionRequestSchema,
  tokenUsageReportSchema,
} from '@tolk/contracts';
import { parseInput } from '@tolk/errors';
import { pathParam, route } from '@tolk/http';
import { authorizeProject } from '@tolk/projects';
import type { LiveToken } from '../../data-access/tokens-repository.js';
import type { ListedToken, Tokens } from '../../domain/tokens.js';
import {
  createTokenRequestSchema,
  type CreateTokenResponse,
  type IntrospectionResponse,
  type TokenListResponse,
} from './schemas.js';

function liveTokenBody(live: LiveToken): IntrospectionResponse {
  return { tokenId: live.tokenId, projectId: live.projectId, permissions: live.permissions };
}

function listedTokenBody(token: ListedToken): TokenListResponse['tokens'][number] {
  return {
    tokenId: token.tokenId,
    tokenPrefix: token.tokenPrefix,
    label: token.label,
    permissions: token.permissions,
    lastUsedAt: token.lastUsedAt,
    createdAt: token.createdAt,
    createdBy: { userId: token.createdBy },
  };
}

export function createTokenRouter(deps: { tokens: Tokens }) {
  const { tokens } = deps;
  const router = Router();

  route(router, '/v1/projects/:projectId/tokens', {
    get: async (req, res) => {
      const list = await tokens.list(req.principal, pathParam(req, 'projectId'));
      const body: TokenListResponse = { tokens: list.map(listedTokenBody) };
      res.json(body);
    },
    post: async (req, res) => {
      const projectId = pathParam(req, 'projectId');
      // Before the body is looked at: a project API token gets 403 whatever its body holds.
      authorizeProject(req.principal, projectId, 'manage');
      const input = parseInput(createTokenRequestSchema, req.body);
      const created = await tokens.create(req.principal, projectId, input);
      const body: CreateTokenResponse = {
        tokenId: created.tokenId,
        tokenPrefix: null,
        label: created.label,
        permissions: created.permissions,
        lastUsedAt: null,
        createdAt: created.createdAt,
        token: created.token,
      };
      res.status(201).json(body);
    },
  });

  route(router, '/v1/projects/:projectId/tokens/:tokenId', {
    delete: async (req, res) => {
      await tokens.revoke(req.principal, pathParam(req, 'projectId'), pathParam(req, 'tokenId'));
      res.status(204).end();
    },
  });

  // ---- internal: the service frame lets only internal callers (the gateway) reach these ----

  route(router, TOKEN_INTROSPECTION_PATH, {
    post: async (req, res) => {
      const { tokenHash } = parseInput(tokenIntrospectionRequestSchema, req.body);
      const live = await tokens.introspect(tokenHash);
      res.json(liveTokenBody(live));
    },
  });

  route(router, TOKEN_USAGE_PATH, {
    post: async (req, res) => {
      const { uses } = parseInput(tokenUsageReportSchema, req.body);
      await tokens.recordUses(uses);
      res.status(204).end();
    },
  });

  // liveTokenPath of @tolk/contracts
  route(router, '/internal/tokens/:tokenId', {
    get: async (req, res) => {
      const live = await tokens.liveById(pathParam(req, 'tokenId'));
      res.json(liveTokenBody(live));
    },
  });

  return router;
}
