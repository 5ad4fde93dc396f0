import { Router } from 'express';
import { parseInput, requireUser, route } from '@tolk/http';
import type { User } from '../../data-access/users-repository.js';
import type { Accounts } from '../../domain/accounts.js';
import type { DeviceLogin } from '../../domain/device-login.js';
import type { Session, Sessions } from '../../domain/sessions.js';
import {
  deviceAuthorizationRequestSchema,
  deviceTokenRequestSchema,
  loginRequestSchema,
  refreshTokenRequestSchema,
  signupRequestSchema,
  userCodeRequestSchema,
  type DeviceAuthorizationResponse,
  type SessionResponse,
  type UserResponse,
} from './schemas.js';

function toUserResponse(user: User): UserResponse {
  return { userId: user.userId, email: user.email, name: user.name, createdAt: user.createdAt };
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
}) {
  const { accounts, sessions, deviceLogin } = deps;
  const router = Router();

  // Tokens and personal data: no shared or browser cache may keep any answer (RFC 6749 §5.1).
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

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
  });

  return router;
}
