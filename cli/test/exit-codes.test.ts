/**
 * Every exit code of the table in cli/README.md, each from a real failure: 0 ok, 1 behind
 * (`status --check`), 2 usage or validation, 3 auth, 4 network or server. Failed requests print
 * the server's error code and message, and never a stack trace.
 */
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type System } from '../../test/e2e/system.js';
import { CLI_VERSION } from '../src/version.js';
import { createCliHarness, type CliHarness, type CliResult } from './support/cli-harness.js';

describe('tolk exit codes', () => {
  let system: System;
  let cli: CliHarness;
  let token: string;
  let projectId: string;

  beforeAll(async () => {
    system = await startSystem({ sources: true, tokens: true });
    cli = await createCliHarness(system.base);
    token = (await system.signUp()).token;
    const init = await cli.tolk(['init', '--name', 'Codes', '--targets', 'de', '--yes', '--json'], {
      env: { TOLK_TOKEN: token },
    });
    projectId = init.json().projectId;
  });
  afterAll(async () => {
    await cli?.remove();
    await system?.close();
  });

  const tolk = (args: string[], env: Record<string, string | undefined> = {}) =>
    cli.tolk(args, { env: { TOLK_TOKEN: token, ...env } });
  const noStack = (result: CliResult) =>
    expect(result.stdout + result.stderr).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);

  describe('0: ok', () => {
    it('when asked for help or the version, then it answers and exits 0', async () => {
      for (const args of [['--help'], ['push', '--help'], ['translate', '--help'], ['status', '--help']]) {
        const help = await tolk(args);
        expect(help.code).toBe(0);
        expect(help.stdout).toContain('Examples:');
      }
      const version = await tolk(['--version']);
      expect(version).toMatchObject({ code: 0, stdout: `${CLI_VERSION}\n` });
    });

    it('when cli/package.json is read, then its version is the one the CLI reports', async () => {
      const { readFile } = await import('node:fs/promises');
      const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
      expect(manifest.version).toBe(CLI_VERSION);
    });
  });

  describe('1: behind', () => {
    it('when a locale is behind, then status --check exits 1, and 0 once it is not', async () => {
      await cli.writeJson('locales/en.json', { a: 'A' });
      expect((await tolk(['push'])).code).toBe(0);
      const behind = await tolk(['status', '--check']);
      expect(behind.code).toBe(1);
      expect(behind.stderr).toContain('run `tolk translate`');
      await system.call('PUT', `/v1/projects/${projectId}/locales/de/translations?sourceVersion=1`, token, {
        a: 'Ä',
      });
      expect((await tolk(['status', '--check'])).code).toBe(0);
    });
  });

  describe('2: usage or validation', () => {
    it('when an option or a command is unknown, then exit 2 with what was wrong', async () => {
      const unknownOption = await tolk(['push', '--bogus']);
      expect(unknownOption.code).toBe(2);
      expect(unknownOption.stderr).toContain("unknown option '--bogus'");
      expect((await tolk(['frobnicate'])).code).toBe(2);
      expect((await tolk(['translate', '--concurrency', 'lots'])).stderr).toContain('must be a whole number');
      expect((await tolk(['translate', '--provider', 'skynet'])).code).toBe(2);
    });

    it('when a locale code is malformed, then exit 2 naming it', async () => {
      const result = await tolk(['init', '--name', 'X', '--targets', 'de,not a locale', '--yes'], {});
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('"not a locale" is not a BCP 47 locale code');
    });

    it('when there is no tolk.json, then exit 2 saying to run tolk init', async () => {
      const result = await cli.tolk(['status'], { env: { TOLK_TOKEN: token }, cwd: cli.root });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('run `tolk init` first');
    });

    it('when tolk.json exists and init runs without --yes and without a terminal, then exit 2 and it is untouched', async () => {
      const before = await cli.readText('tolk.json');
      const result = await tolk(['init', '--name', 'Other', '--targets', 'fr']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('pass --yes to overwrite');
      expect(await cli.readText('tolk.json')).toBe(before);
    });

    it('when init has no target locales and nobody to ask, then exit 2 and it asks nothing', async () => {
      const other = await createCliHarness(system.base);
      try {
        const result = await other.tolk(['init', '--name', 'No targets'], { env: { TOLK_TOKEN: token } });
        expect(result.code).toBe(2);
        expect(result.stdout).not.toContain('?');
        expect(result.stderr).toContain('--targets');
      } finally {
        await other.remove();
      }
    });

    it('when the source file is not JSON or breaks a rule, then push exits 2 naming the file and the key', async () => {
      await writeFile(join(cli.cwd, 'locales/en.json'), '{"a": "A",');
      const notJson = await tolk(['push']);
      expect(notJson.code).toBe(2);
      expect(notJson.stderr).toContain('INVALID_JSON');
      expect(notJson.stderr).toContain(join('locales', 'en.json'));

      await cli.writeJson('locales/en.json', { a: 'A', count: 3 });
      const badLeaf = await tolk(['push']);
      expect(badLeaf.code).toBe(2);
      expect(badLeaf.stderr).toContain('VALIDATION_ERROR');
      expect(badLeaf.stderr).toContain('count: must be a string, got number');
      noStack(badLeaf);
      await cli.writeJson('locales/en.json', { a: 'A' });
    });

    it('when the server refuses a request as invalid, then its code and message are printed and exit is 2', async () => {
      const other = await createCliHarness(system.base);
      try {
        const result = await other.tolk(
          ['init', '--project', 'no-such-project', '--targets', 'de', '--json'],
          {
            env: { TOLK_TOKEN: token },
          },
        );
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(/error: NOT_FOUND: \S/);
        expect(JSON.parse(result.stdout)).toEqual({
          error: { code: 'NOT_FOUND', message: expect.any(String) },
        });
      } finally {
        await other.remove();
      }
    });
  });

  describe('3: auth', () => {
    it('when neither TOLK_TOKEN nor a login is there, then exit 3 saying how to log in', async () => {
      const result = await tolk(['status'], { TOLK_TOKEN: undefined });
      expect(result.code).toBe(3);
      expect(result.stderr).toContain('NOT_LOGGED_IN');
    });

    it('when the token is not valid, then exit 3 with the server’s UNAUTHORIZED', async () => {
      const result = await tolk(['status'], { TOLK_TOKEN: 'not-a-real-token' });
      expect(result.code).toBe(3);
      expect(result.stderr).toMatch(/error: UNAUTHORIZED: \S/);
      noStack(result);
    });

    it('when a read-only project token pushes, then exit 3 with the server’s FORBIDDEN', async () => {
      const created = await system.call('POST', `/v1/projects/${projectId}/tokens`, token, {
        label: 'read',
        permissions: 'read',
      });
      const result = await tolk(['push'], { TOLK_TOKEN: created.body.token });
      expect(result.code).toBe(3);
      expect(result.stderr).toMatch(/error: FORBIDDEN: \S/);
      expect((await tolk(['status'], { TOLK_TOKEN: created.body.token })).code).toBe(0);
    });
  });

  describe('4: network or server', () => {
    it('when the server cannot be reached, then exit 4 naming the address', async () => {
      const result = await tolk(['status'], { TOLK_API_URL: 'http://127.0.0.1:1', TOLK_MAX_RETRIES: '0' });
      expect(result.code).toBe(4);
      expect(result.stderr).toContain('NETWORK_ERROR');
      expect(result.stderr).toContain('http://127.0.0.1:1');
      noStack(result);
    });

    it('when a service behind the gateway is down, then the 503 is retried, then printed with exit 4', async () => {
      const degraded = await startSystem({ gatewayEnv: { LOCALE_SERVICE_URL: 'http://127.0.0.1:1' } });
      const other = await createCliHarness(degraded.base);
      try {
        const owner = await degraded.signUp();
        const project = await degraded.call('POST', '/v1/projects', owner.token, {
          name: 'Down',
          sourceLocale: 'en',
        });
        await other.writeJson('tolk.json', {
          apiUrl: degraded.base,
          projectId: project.body.projectId,
          sourceLocale: 'en',
          targetLocales: ['de'],
          files: 'locales/{locale}.json',
        });
        const result = await other.tolk(['status'], {
          env: { TOLK_TOKEN: owner.token, TOLK_MAX_RETRIES: '1' },
        });
        expect(result.code).toBe(4);
        expect(result.stderr).toMatch(
          /GET \/v1\/projects\/\S+: 503 SERVICE_UNAVAILABLE; waiting \d+\.\d s before retry 1 of 1/,
        );
        expect(result.stderr).toMatch(/error: SERVICE_UNAVAILABLE: \S/);
        noStack(result);
      } finally {
        await other.remove();
        await degraded.close();
      }
    });

    it('when a newer server answers with fields this version does not know, then they are left out and the command works', async () => {
      const server = createServer((_req, res) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            userId: 'usr_1',
            email: 'ada@example.com',
            name: 'Ada',
            createdAt: 1_700_000_000_000,
            avatarUrl: 'https://example.com/ada.png',
            plan: { name: 'team', seats: 5 },
          }),
        ),
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const result = await tolk(['whoami', '--json'], {
          TOLK_API_URL: `http://127.0.0.1:${port}`,
          TOLK_TOKEN: 'any',
        });
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).toContain('ada@example.com');
        expect(result.stdout).not.toContain('avatarUrl');
      } finally {
        server.close();
      }
    });

    it('when the URL is some other web server, then exit 4 saying the answer is not understood', async () => {
      const server = createServer((_req, res) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'),
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const result = await tolk(['whoami'], { TOLK_API_URL: `http://127.0.0.1:${port}` });
        expect(result.code).toBe(4);
        expect(result.stderr).toContain('UNEXPECTED_RESPONSE');
        expect(result.stderr).toContain('is --api a Tolk server?');
        noStack(result);
      } finally {
        server.close();
      }
    });
  });
});
