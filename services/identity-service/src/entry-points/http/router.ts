import { Router } from 'express';
import { parseInput } from '@tolk/errors';
import { noStore, requireUser, route, withQuery } from '@tolk/http';
import type { User } from '../../data-access/users-repository.js';
import type { Accounts } from '../../domain/accounts.js';
import type { DeviceLogin } from '../../domain/device-login.js';
import type { Session, Sessions } from '../../domain/sessions.js';
import type { UserDirectory } from '../../domain/user-directory.js';
import {
  deleteAccountRequestSchema,
  deviceAuthorizationRequestSchema,
  deviceTokenRequestSchema,
  loginRequestSchema,
  refreshTokenRequestSchema,
  signupRequestSchema,
  userByEmailQuerySchema,
  userCodeRequestSchema,
  usersLookupRequestSchema,
  type DeviceAuthorizationResponse,
  type DirectoryUserResponse,
  type SessionResponse,
  type UserResponse,
} from './schemas.js';

function toUserResponse(user: User): UserResponse {
  return { userId: user.userId, email: user.email, name: user.name, createdAt: user.createdAt };
}

function toDirectoryUserResponse(user: User): DirectoryUserResponse {
  return { userId: user.userId, email: user.email, name: user.name };
}

function toSessionResponse(session: Session): SessionResponse {
  return {
    user: toUserResponse(session.user),
    accessToken: session.accessToken,
    refreshToken: session.refreshToken,
    expiresIn: session.expiresIn,
  };
}

export function createIdentityRouter(deps: {
  accounts: Accounts;
  sessions: Sessions;
  deviceLogin: DeviceLogin;
  userDirectory: UserDirectory;
}) {
  const { accounts, sessions, deviceLogin, userDirectory } = deps;
  const router = Router();

  // Tokens and personal data: no shared or browser cache may keep any answer (RFC 6749 §5.1).
  router.use(noStore);

  route(router, '/v1/auth/signup', {
    post: async (req, res) => {
      const input = parseInput(signupRequestSchema, req.body);
      res.status(201).json(toSessionResponse(await accounts.signUp(input)));
    },
  });

  route(router, '/v1/auth/login', {
    post: async (req, res) => {
      const input = parseInput(loginRequestSchema, req.body);
      res.json(toSessionResponse(await accounts.logIn(input)));
    },
  });

  route(router, '/v1/auth/refresh', {
    post: async (req, res) => {
      const { refreshToken } = parseInput(refreshTokenRequestSchema, req.body);
      res.json(toSessionResponse(await sessions.refresh(refreshToken)));
    },
  });

  route(router, '/v1/auth/logout', {
    post: async (req, res) => {
      const { refreshToken } = parseInput(refreshTokenRequestSchema, req.body);
      await sessions.logout(refreshToken);
      res.status(204).end();
    },
  });

  route(router, '/v1/auth/device', {
    post: async (req, res) => {
      parseInput(deviceAuthorizationRequestSchema, req.body);
      const authorization: DeviceAuthorizationResponse = await deviceLogin.start();
      res.json(authorization);
    },
  });

  route(router, '/v1/auth/device/token', {
    post: async (req, res) => {
      const { deviceCode } = parseInput(deviceTokenRequestSchema, req.body);
      res.json(toSessionResponse(await deviceLogin.poll(deviceCode)));
    },
  });

  route(router, '/v1/auth/device/approve', {
    post: async (req, res) => {
      const { userId } = requireUser(req);
      const { userCode } = parseInput(userCodeRequestSchema, req.body);
      await deviceLogin.approve(userId, userCode);
      res.status(204).end();
    },
  });

  route(router, '/v1/auth/device/deny', {
    post: async (req, res) => {
      const { userId } = requireUser(req);
      const { userCode } = parseInput(userCodeRequestSchema, req.body);
      await deviceLogin.deny(userId, userCode);
      res.status(204).end();
    },
  });

  route(router, '/v1/user/me', {
    get: async (req, res) => {
      const { userId } = requireUser(req);
      res.json(toUserResponse(await accounts.getUser(userId)));
    },
    delete: async (req, res) => {
      const { userId } = requireUser(req);
      const input = parseInput(deleteAccountRequestSchema, req.body);
      await accounts.deleteAccount(userId, input?.confirm);
      res.status(204).end();
    },
  });

  // ---- internal: the service frame lets only internal callers (other services) reach these ----

  route(router, '/internal/users', {
    get: withQuery(userByEmailQuerySchema, async (_req, res, { email }) => {
      res.json(toDirectoryUserResponse(await userDirectory.getByEmail(email)));
    }),
  });

  route(router, '/internal/users/lookup', {
    post: async (req, res) => {
      const { userIds } = parseInput(usersLookupRequestSchema, req.body);
      const users = await userDirectory.findByIds(userIds);
      res.json({ users: users.map(toDirectoryUserResponse) });
    },
  });

  return router;
}
