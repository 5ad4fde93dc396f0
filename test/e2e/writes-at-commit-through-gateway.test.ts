/**
 * Authorisation at commit, through the gateway in front of every real service: the gateway lets a
 * member's (or a project API token's) upload in before it reads the body, and the body may take
 * minutes. When the owner removes the member, the token is revoked or the account is deleted
 * while the body is still arriving, the upload must store nothing: 404 for a removed member (as
 * for any non-member), 401 for a revoked token or a deleted account — and the translations, the
 * source (with no SourceChanged) or the glossary stay as they were.
 *
 * Each upload is an HTTP request whose headers and first half of the body are sent at once and
 * whose second half is sent only after the revocation has answered. The revocation is started
 * only once the gateway has had its answer about the sender from project-service (or
 * token-service) — an answer computed before the revocation — so the gateway has let the upload
 * in, as it did in the attack, and only the services' check at commit can refuse it.
 *
 * And when the service's own question at commit has been answered "yes" and that answer is still
 * on its way when the right is revoked, the revocation waits for the upload's commit: it is
 * acknowledged after the upload's answer, never before a write it did not stop.
 */
import http from 'node:http';
import type { RequestListener } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDb, type Db } from '@tolk/db';
import { createAnswerGate, lockWaiters, realServers, settled } from '@tolk/testing';
import { startSystem, type System } from './system.js';

/** Internal requests of the gateway whose answers have been sent, by path. */
const answered: string[] = [];
const noteAnswers =
  (app: RequestListener): RequestListener =>
  (req, res) => {
    const path = req.url ?? '';
    res.once('finish', () => answered.push(path));
    app(req, res);
  };

/** Answers of project- and token-service that a test holds on their way. */
const gates = { project: createAnswerGate(), token: createAnswerGate() };

let system: System;
/** For pg_stat_activity: who waits for a lock. */
let database: Db;
beforeAll(async () => {
  system = await startSystem({
    sources: true,
    tokens: true,
    wrapServices: {
      project: (app) => noteAnswers(gates.project.wrap(app)),
      token: (app) => noteAnswers(gates.token.wrap(app)),
    },
    // Two accounts per test from this one address: past the signups a minute allows.
    gatewayEnv: { RATE_LIMIT_AUTH_PER_IP: '1000' },
    // An answer held on its way is not given up on while the test waits for the revocation.
    localeEnv: { WRITER_CHECK_TIMEOUT_MS: '60000' },
  });
  database = createPgDb({ url: system.databaseUrl, schema: 'public' });
});
afterAll(async () => {
  await database?.close();
  await system?.close();
});

type Answer = { status: number; body: any };

/**
 * An upload in flight: its headers and the first half of its body are sent now; `finish` sends
 * the rest and resolves with the answer.
 */
function startUpload(method: string, path: string, token: string, body: unknown) {
  const bytes = Buffer.from(JSON.stringify(body));
  const half = Math.floor(bytes.length / 2);
  const url = new URL(`${system.base}${path}`);
  const request = http.request(url, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'content-length': String(bytes.length),
    },
  });
  const response = new Promise<Answer>((resolve, reject) => {
    request.once('error', reject);
    request.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
      });
    });
  });
  // No answer may come before the body is whole: one would be the gateway refusing it at the door.
  let finishing = false;
  let answeredEarly = false;
  response.then(
    () => (answeredEarly = !finishing),
    () => undefined,
  );
  request.write(bytes.subarray(0, half));
  return {
    finish(): Promise<Answer> {
      expect(answeredEarly, 'answered before its body was complete').toBe(false);
      finishing = true;
      request.end(bytes.subarray(half));
      return response;
    },
  };
}

/** Resolves once project-service (or token-service) has answered the gateway's question `path`. */
async function gatewayAsked(path: string, before: number): Promise<void> {
  await expect
    .poll(() => answered.slice(before).includes(path), { ...settled, message: `${path} answered` })
    .toBe(true);
}

const membershipPath = (projectId: string, userId: string) =>
  `/internal/projects/${projectId}/members/${userId}`;

async function ownerWithProject() {
  const owner = await system.signUp();
  const created = await system.call('POST', '/v1/projects', owner.token, {
    name: 'Shop',
    sourceLocale: 'en',
  });
  expect(created.status).toBe(201);
  const projectId = created.body.projectId as string;
  const source = await system.call('PUT', `/v1/projects/${projectId}/source`, owner.token, {
    greeting: 'Hello',
    farewell: 'Goodbye',
  });
  expect(source.status).toBe(200);
  const locale = await system.call('POST', `/v1/projects/${projectId}/locales`, owner.token, {
    locale: 'de',
  });
  expect(locale.status).toBe(201);
  const translated = await system.call(
    'PUT',
    `/v1/projects/${projectId}/locales/de/translations?sourceVersion=1`,
    owner.token,
    { greeting: 'Hallo' },
  );
  expect(translated.status).toBe(200);
  return { owner, projectId };
}

async function memberOf(project: { owner: { token: string }; projectId: string }) {
  const member = await system.signUp();
  const added = await system.call('POST', `/v1/projects/${project.projectId}/members`, project.owner.token, {
    email: member.email,
    role: 'member',
  });
  expect(added.status).toBe(201);
  return member;
}

/** What the project holds: its source version and content, the German translations, the glossary. */
async function stored(projectId: string, token: string) {
  const source = await system.call('GET', `/v1/projects/${projectId}/source`, token);
  const translations = await system.call('GET', `/v1/projects/${projectId}/locales/de/translations`, token);
  expect([source.status, translations.status]).toEqual([200, 200]);
  const glossary = await system.call('GET', `/v1/projects/${projectId}/glossary`, token);
  expect(glossary.status).toBe(200);
  const sourceChanged = (await system.outboxEvents('source')).filter(
    (event) => event.type === 'SourceChanged',
  );
  return {
    version: source.body.version as number,
    source: JSON.parse(source.body.content as string) as unknown,
    translations: JSON.parse(translations.body.content as string) as unknown,
    sourceChanged: sourceChanged.length,
    glossary: (glossary.body.entries as { term: string }[]).map((entry) => entry.term),
  };
}

const UPLOADS = {
  translations: {
    path: (projectId: string) => `/v1/projects/${projectId}/locales/de/translations?sourceVersion=1`,
    body: { greeting: 'Hallo von draußen', farewell: 'Tschüss' },
  },
  source: {
    path: (projectId: string) => `/v1/projects/${projectId}/source`,
    body: { greeting: 'Hello from outside', farewell: 'Bye', added: 'Planted' },
  },
  glossary: {
    path: (projectId: string) => `/v1/projects/${projectId}/glossary`,
    body: { entries: [{ term: 'Planted' }] },
  },
};

type Project = Awaited<ReturnType<typeof ownerWithProject>>;
/**
 * Who sends the upload, the gateway's question about them that must have been answered before the
 * revocation, the question the service asks at commit (of project- or token-service) and the
 * revocation (its status).
 */
type Sender = {
  token: string;
  question: string;
  atCommit: { service: keyof typeof gates; path: string };
  revoke: () => Promise<number>;
};

/** A new member of the project as the sender, who loses the right to write by `revoke`. */
async function memberSender(
  project: Project,
  revoke: (member: Awaited<ReturnType<typeof memberOf>>) => ReturnType<System['call']>,
): Promise<Sender> {
  const member = await memberOf(project);
  const question = membershipPath(project.projectId, member.userId);
  return {
    token: member.token,
    question,
    // Asked together with identity-service's answer about the account: both awaited.
    atCommit: { service: 'project', path: question },
    revoke: async () => (await revoke(member)).status,
  };
}

/** How the sender loses the right to write, and the answer the upload must then get. */
const REVOCATIONS: [string, number, string, string, (project: Project) => Promise<Sender>][] = [
  [
    'the owner removes the member',
    404,
    'NOT_FOUND',
    'Project not found',
    (project) =>
      memberSender(project, (member) =>
        system.call(
          'DELETE',
          `/v1/projects/${project.projectId}/members/${member.userId}`,
          project.owner.token,
        ),
      ),
  ],
  [
    'the owner revokes the project API token',
    401,
    'UNAUTHORIZED',
    'This project API token is unknown or has been revoked',
    async (project) => {
      const created = await system.call(
        'POST',
        `/v1/projects/${project.projectId}/tokens`,
        project.owner.token,
        {
          label: 'CI',
          permissions: 'read_write',
        },
      );
      expect(created.status).toBe(201);
      const { token, tokenId } = created.body as { token: string; tokenId: string };
      return {
        token,
        question: '/internal/tokens/introspect',
        atCommit: { service: 'token', path: `/internal/tokens/${tokenId}` },
        revoke: async () =>
          (
            await system.call(
              'DELETE',
              `/v1/projects/${project.projectId}/tokens/${tokenId}`,
              project.owner.token,
            )
          ).status,
      };
    },
  ],
  [
    'the member deletes their account',
    401,
    'UNAUTHORIZED',
    'The account of this access token has been deleted',
    (project) =>
      memberSender(project, (member) =>
        system.call('DELETE', '/v1/user/me', member.token, { confirm: member.email }),
      ),
  ],
];

describe.each(['translations', 'source', 'glossary'] as const)(
  'a slow %s upload whose sender loses the right to write',
  (kind) => {
    const startUploadOf = (projectId: string, token: string) =>
      startUpload('PUT', UPLOADS[kind].path(projectId), token, UPLOADS[kind].body);

    it.each(REVOCATIONS)(
      'when %s (204) before its body is complete, then the upload answers %i %s and nothing is stored',
      async (_what, status, code, message, senderOf) => {
        const project = await ownerWithProject();
        const sender = await senderOf(project);
        const before = await stored(project.projectId, project.owner.token);

        const asked = answered.length;
        const upload = startUploadOf(project.projectId, sender.token);
        await gatewayAsked(sender.question, asked);
        expect(await sender.revoke()).toBe(204);

        expect(await upload.finish()).toStrictEqual({ status, body: { error: { code, message } } });
        expect(await stored(project.projectId, project.owner.token)).toStrictEqual(before);
      },
    );

    it('when nothing changes while the body arrives, then it is stored', async () => {
      const project = await ownerWithProject();
      const member = await memberOf(project);
      const before = await stored(project.projectId, project.owner.token);

      const upload = startUploadOf(project.projectId, member.token);
      expect((await upload.finish()).status).toBe(200);
      const after = await stored(project.projectId, project.owner.token);
      expect(after).toStrictEqual(
        {
          translations: { ...before, translations: UPLOADS.translations.body },
          source: {
            ...before,
            version: before.version + 1,
            source: UPLOADS.source.body,
            sourceChanged: before.sourceChanged + 1,
          },
          glossary: { ...before, glossary: ['Planted'] },
        }[kind],
      );
    });
  },
);

describe('a slow translations upload whose check at commit is answered as its sender loses the right to write', () => {
  it.skipIf(!realServers().postgres).each(REVOCATIONS)(
    'when %s while the answer is on its way, then that is acknowledged only once the upload has committed',
    async (_what, _status, _code, _message, senderOf) => {
      const project = await ownerWithProject();
      const sender = await senderOf(project);
      const asked = answered.length;
      const upload = startUpload(
        'PUT',
        UPLOADS.translations.path(project.projectId),
        sender.token,
        UPLOADS.translations.body,
      );
      await gatewayAsked(sender.question, asked);
      const answers = gates[sender.atCommit.service].hold((req) => req.url === sender.atCommit.path);
      const order: string[] = [];
      try {
        const uploaded = upload.finish().then((answer) => (order.push('upload'), answer));
        await expect.poll(answers.held, { ...settled, message: 'the check at commit answered' }).toBe(1);
        const revoked = sender.revoke().then((status) => (order.push('revocation'), status));
        await expect
          .poll(async () => (order.length > 0 ? order : await lockWaiters(database, 'advisory')), {
            ...settled,
            message: 'the revocation waits for the upload',
          })
          .toBe(1);
        answers.release();
        expect((await uploaded).status).toBe(200);
        expect(await revoked).toBe(204);
        expect(order).toEqual(['upload', 'revocation']);
      } finally {
        answers.release();
      }
      expect((await stored(project.projectId, project.owner.token)).translations).toStrictEqual(
        UPLOADS.translations.body,
      );
    },
  );
});
