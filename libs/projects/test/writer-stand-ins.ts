import type { IncomingMessage } from 'node:http';
import { liveTokenPath, type Principal } from '@tolk/contracts';
import { listen } from '@tolk/testing';

type TokenPrincipal = Extract<Principal, { kind: 'project_token' }>;

const EMAIL_DOMAIN = '@example.com';
/** The email of an account of the stand-in; what project-service adds a member by. */
export const emailOf = (userId: string): string => `${userId}${EMAIL_DOMAIN}`;

/** Where liveTokenPath puts a token id. */
const TOKENS = liveTokenPath('');

async function jsonOf(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/**
 * The internal routes of identity- and token-service that a writer check asks (and that
 * project-service asks to add a member by email), as plain HTTP handlers on one port, for the
 * tests of services whose harnesses run without those services (each runs a real
 * project-service). Every account exists, with the email `emailOf(userId)`, until
 * `deleteAccount`; a token is live
 * from `issueToken` until `revokeTokensOf` its project. `trouble` makes every answer fail as an unreachable
 * service (`down`: the connection is dropped) or a stuck one (`slow`: no answer for a minute).
 * The end-to-end tests ask the real services.
 */
export async function startWriterStandIns() {
  const deleted = new Set<string>();
  const tokens = new Map<string, TokenPrincipal>();
  let trouble: 'down' | 'slow' | undefined;
  /** Every question asked, as `METHOD path`, for tests that count them. */
  const asked: string[] = [];

  const server = await listen((req, res) => {
    asked.push(`${req.method} ${req.url}`);
    if (trouble === 'down') {
      req.socket.destroy();
      return;
    }
    const answer = async () => {
      if (trouble === 'slow') await new Promise((resolve) => setTimeout(resolve, 60_000).unref());
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST' && req.url === '/internal/users/lookup') {
        const { userIds } = (await jsonOf(req)) as { userIds: string[] };
        const users = userIds
          .filter((userId) => !deleted.has(userId))
          .map((userId) => ({ userId, email: emailOf(userId), name: null }));
        res.end(JSON.stringify({ users }));
        return;
      }
      const byEmail = /^\/internal\/users\?email=([^&]+)$/.exec(req.url ?? '');
      if (req.method === 'GET' && byEmail) {
        const email = decodeURIComponent(byEmail[1]!);
        const userId = email.endsWith(EMAIL_DOMAIN) ? email.slice(0, -EMAIL_DOMAIN.length) : '';
        if (userId && !deleted.has(userId)) {
          res.end(JSON.stringify({ userId, email, name: null }));
          return;
        }
      }
      const token =
        req.method === 'GET' && req.url?.startsWith(TOKENS)
          ? tokens.get(decodeURIComponent(req.url.slice(TOKENS.length)))
          : undefined;
      if (token) {
        const { tokenId, projectId, permissions } = token;
        res.end(JSON.stringify({ tokenId, projectId, permissions }));
        return;
      }
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'Not found' } }));
    };
    answer().catch(() => res.destroy());
  });

  return {
    url: server.url,
    asked,
    deleteAccount(userId: string): void {
      deleted.add(userId);
    },
    issueToken(principal: TokenPrincipal): void {
      tokens.set(principal.tokenId, principal);
    },
    /** Every token of the project stops being live. */
    revokeTokensOf(projectId: string): void {
      for (const [tokenId, token] of tokens) if (token.projectId === projectId) tokens.delete(tokenId);
    },
    setTrouble(kind: 'down' | 'slow' | undefined): void {
      trouble = kind;
    },
    close: () => server.close(),
  };
}

export type WriterStandIns = Awaited<ReturnType<typeof startWriterStandIns>>;
