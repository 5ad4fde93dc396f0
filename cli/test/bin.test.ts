/**
 * The real `tolk` executable, as npm installs it: bin/tolk.js running the bundle in dist/
 * (built here first), as a child process against the real system.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type System } from '../../test/e2e/system.js';

const cliDir = fileURLToPath(new URL('..', import.meta.url));
const bin = join(cliDir, 'bin', 'tolk.js');

function tolk(args: string[], options: { cwd: string; env: Record<string, string> }) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    // A clean environment: nothing of the developer's shell (TOLK_TOKEN, provider keys) leaks in.
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env['PATH'] ?? '', ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('bin/tolk.js', () => {
  let system: System;
  let dir: string;

  beforeAll(async () => {
    await promisify(execFile)(process.execPath, [join(cliDir, 'scripts', 'bundle.mjs')]);
    system = await startSystem({ sources: true, tokens: true });
    dir = await mkdtemp(join(tmpdir(), 'tolk-bin-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await system?.close();
  });

  it('when the bundle is built, then it imports no workspace library and nothing of express', async () => {
    const bundle = await readFile(join(cliDir, 'dist', 'tolk.js'), 'utf8');
    const imports = [...bundle.matchAll(/^import .* from "([^"]+)";$/gm)].map((match) => match[1]);
    expect(imports.filter((name) => name!.startsWith('@tolk/'))).toEqual([]);
    expect(imports).not.toContain('express');
    expect(imports).not.toContain('jsonwebtoken');
  });

  it('when run with --help, then it prints the usage with examples and exits 0', async () => {
    const result = await tolk(['--help'], { cwd: dir, env: { HOME: dir } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: tolk');
    expect(result.stdout).toContain('Examples:');
  });

  it('when CI runs status --json with a project token, then stdout is the JSON document', async () => {
    const owner = await system.signUp();
    const project = await system.call('POST', '/v1/projects', owner.token, {
      name: 'Bin',
      sourceLocale: 'en',
    });
    const { projectId } = project.body;
    await system.call('POST', `/v1/projects/${projectId}/locales`, owner.token, { locale: 'de' });
    const created = await system.call('POST', `/v1/projects/${projectId}/tokens`, owner.token, {
      label: 'ci',
      permissions: 'read',
    });
    await writeFile(
      join(dir, 'tolk.json'),
      JSON.stringify({
        projectId,
        sourceLocale: 'en',
        targetLocales: ['de'],
        files: 'locales/{locale}.json',
      }),
    );
    const env = { HOME: dir, TOLK_API_URL: system.base, TOLK_TOKEN: created.body.token };
    const result = await tolk(['status', '--json'], { cwd: dir, env });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      projectId,
      upToDate: true,
      locales: [{ locale: 'de' }],
    });

    const noSource = await tolk(['push'], { cwd: dir, env });
    expect(noSource.code).toBe(2);
    expect(noSource.stderr).toContain('NO_SOURCE_FILE');
  });
});
