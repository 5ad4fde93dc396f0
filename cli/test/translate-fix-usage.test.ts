/**
 * `tolk translate --fix` given a level it does not have (`--fix=everything`, `--fix=`): a usage
 * error (exit 2) that names the levels there are, and nothing sent to the server or the model.
 * Both are one recording server here; a level that exists, run the same way, reaches it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliHarness, type CliHarness } from './support/cli-harness.js';

describe('tolk translate --fix with a level it does not have', () => {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    res.writeHead(503, { 'content-type': 'application/json' }).end('{}');
  });
  let url: string;
  let cli: CliHarness;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    cli = await createCliHarness(url);
    await cli.writeJson('tolk.json', {
      apiUrl: url,
      projectId: 'prj_fix',
      sourceLocale: 'en',
      targetLocales: ['de'],
      files: 'locales/{locale}.json',
    });
    await cli.writeJson('locales/en.json', { pay: 'Pay {amount}' });
    await cli.writeJson('locales/de.json', { pay: 'Jetzt zahlen' });
  });
  afterAll(async () => {
    await cli?.remove();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const translate = (...args: string[]) =>
    cli.tolk(['translate', ...args, '--base-url', url], {
      env: { TOLK_TOKEN: 'tolk_test', OPENAI_API_KEY: 'sk-test', TOLK_MAX_RETRIES: '0' },
    });

  it('when --fix is given an unknown or empty level, then exit 2 names --fix and --fix=warnings, and nothing is sent', async () => {
    for (const args of [
      ['--fix=everything'],
      ['--fix='],
      ['--fix', ''],
      ['--fix=WARNINGS'],
      ['--json', '--fix=all'],
    ]) {
      requests.length = 0;
      const result = await translate(...args);
      expect(result.code, result.stderr).toBe(2);
      const level = (args.find((arg) => arg.startsWith('--fix=')) ?? '--fix=').slice('--fix='.length);
      expect(result.stderr).toBe(
        `error: option '--fix [level]' argument '${level}' is invalid. give --fix alone to fix the ` +
          'translations with errors, or --fix=warnings to fix those with errors or warnings\n' +
          '(add --help for usage)\n',
      );
      expect(result.stdout).toBe('');
      expect(requests).toEqual([]);
    }
  });

  it('when --fix is given a level it has, then the same run reaches the server', async () => {
    for (const args of [['--fix'], ['--fix=warnings'], ['--fix=errors']]) {
      requests.length = 0;
      const result = await translate(...args);
      expect(result.code, result.stderr).toBe(4);
      expect(requests.length).toBeGreaterThan(0);
    }
  });
});
