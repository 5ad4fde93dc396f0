import { AppError, NotFoundError } from '@tolk/errors';
import type { Db } from '@tolk/db';
import type { DeviceCodesRepository } from '../data-access/device-codes-repository.js';
import type { UsersRepository } from '../data-access/users-repository.js';
import type { Accounts } from './accounts.js';
import { hashOpaqueToken, newOpaqueToken } from './opaque-tokens.js';
import type { Session, Sessions } from './sessions.js';
import { formatUserCode, generateUserCode } from './user-codes.js';

export type DeviceAuthorization = {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  verificationUriComplete: string;
  expiresIn: number;
  interval: number;
};

const DEVICE_CODE_PREFIX = 'tolkd';
/** RFC 8628 §3.5: every slow_down adds five seconds to the interval. */
const SLOW_DOWN_STEP_SECONDS = 5;
const USER_CODE_ATTEMPTS = 5;

/**
 * `tolk login` (RFC 8628 device authorization grant): the CLI starts a login and polls with the
 * device code while the person approves the user code in the dashboard, signed in there.
 */
export function createDeviceLogin(deps: {
  db: Db;
  deviceCodes: DeviceCodesRepository;
  users: UsersRepository;
  accounts: Accounts;
  sessions: Sessions;
  publicUrl: string;
  codeTtlSeconds: number;
  pollIntervalSeconds: number;
  now: () => number;
}) {
  const { db, deviceCodes, users, accounts, sessions, now } = deps;
  const verificationUri = `${deps.publicUrl}/device`;

  async function decide(userId: string, userCode: string, status: 'approved' | 'denied'): Promise<void> {
    await accounts.getUser(userId);
    if (!(await deviceCodes.decide({ userCode, status, userId, at: now() }))) {
      throw new NotFoundError(
        `No pending device login with code ${formatUserCode(userCode)}; it may have expired or already been approved or denied`,
      );
    }
  }

  return {
    async start(): Promise<DeviceAuthorization> {
      const createdAt = now();
      await deviceCodes.deleteExpired(createdAt);
      const deviceCode = newOpaqueToken(DEVICE_CODE_PREFIX);
      for (let attempt = 0; attempt < USER_CODE_ATTEMPTS; attempt++) {
        const userCode = generateUserCode();
        const stored = await deviceCodes.insertUnlessUserCodeTaken({
          deviceCodeHash: hashOpaqueToken(deviceCode),
          userCode,
          intervalSeconds: deps.pollIntervalSeconds,
          createdAt,
          expiresAt: createdAt + deps.codeTtlSeconds * 1000,
        });
        if (stored) {
          const shown = formatUserCode(userCode);
          return {
            deviceCode,
            userCode: shown,
            verificationUri,
            verificationUriComplete: `${verificationUri}?code=${shown}`,
            expiresIn: deps.codeTtlSeconds,
            interval: deps.pollIntervalSeconds,
          };
        }
      }
      throw new Error(`No free user code after ${USER_CODE_ATTEMPTS} attempts`);
    },

    /** Tokens once the login is approved, exactly once; otherwise the RFC 8628 error to poll on. */
    async poll(deviceCode: string): Promise<Session> {
      const deviceCodeHash = hashOpaqueToken(deviceCode);
      const at = now();
      // Poll bookkeeping must commit, so the transaction returns an outcome and errors come after.
      const outcome = await db.transaction(async (tx) => {
        const code = await deviceCodes.findForUpdate(deviceCodeHash, tx);
        if (!code || code.status === 'consumed' || code.expiresAt <= at) return { kind: 'expired' } as const;
        if (code.status === 'denied') return { kind: 'denied' } as const;
        if (code.status === 'approved') {
          const user = code.userId === null ? undefined : await users.findById(code.userId, tx);
          if (!user) return { kind: 'expired' } as const;
          await deviceCodes.markConsumed(deviceCodeHash, tx);
          return { kind: 'approved', session: await sessions.start(user, tx) } as const;
        }
        const tooSoon = code.lastPolledAt !== null && at - code.lastPolledAt < code.intervalSeconds * 1000;
        const intervalSeconds = tooSoon
          ? code.intervalSeconds + SLOW_DOWN_STEP_SECONDS
          : code.intervalSeconds;
        await deviceCodes.recordPoll(deviceCodeHash, { at, intervalSeconds }, tx);
        return { kind: tooSoon ? 'slow_down' : 'pending', intervalSeconds } as const;
      });
      switch (outcome.kind) {
        case 'approved':
          return outcome.session;
        case 'pending':
          throw new AppError(
            'AUTHORIZATION_PENDING',
            `The login has not been approved yet; poll again in ${outcome.intervalSeconds} seconds`,
          );
        case 'slow_down':
          throw new AppError(
            'SLOW_DOWN',
            `Polling too fast; wait at least ${outcome.intervalSeconds} seconds between polls`,
          );
        case 'denied':
          throw new AppError('ACCESS_DENIED', 'The login was denied');
        case 'expired':
          throw new AppError(
            'EXPIRED_TOKEN',
            'The device code has expired or was already used; start a new login',
          );
      }
    },

    /** `userCode` arrives normalised (upper-case, no dash) from the request schema. */
    approve(userId: string, userCode: string): Promise<void> {
      return decide(userId, userCode, 'approved');
    },

    deny(userId: string, userCode: string): Promise<void> {
      return decide(userId, userCode, 'denied');
    },
  };
}

export type DeviceLogin = ReturnType<typeof createDeviceLogin>;
