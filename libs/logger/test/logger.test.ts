import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, runWithRequestId } from '@tolk/logger';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ name: 'test', level: 'debug' }, stream) };
}

describe('createLogger', () => {
  it('when a line carries passwords, tokens or keys, then their values never reach the output', () => {
    const { lines, logger } = capture();
    logger.info(
      {
        password: 'hunter2-secret',
        refreshToken: 'tolkr_secret',
        body: { apiKey: 'sk-secret', token: 'tolk_secret', deviceCode: 'tolkd_secret' },
        req: { headers: { authorization: 'Bearer eyJsecret', 'x-tolk-principal': 'eyJprincipal' } },
      },
      'login',
    );
    const text = JSON.stringify(lines);
    for (const secret of [
      'hunter2',
      'tolkr_secret',
      'sk-secret',
      'tolk_secret',
      'tolkd_secret',
      'eyJsecret',
      'eyJprincipal',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(lines[0]).toMatchObject({ password: '[redacted]', msg: 'login' });
  });

  it('when inside a request scope, then every line carries its request id', () => {
    const { lines, logger } = capture();
    runWithRequestId('req-42', () => logger.info('inside'));
    logger.info('outside');
    expect(lines[0]).toMatchObject({ requestId: 'req-42', msg: 'inside' });
    expect(lines[1]).not.toHaveProperty('requestId');
  });
});
