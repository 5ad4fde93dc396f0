import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { z } from 'zod';
import { GATEWAY_METRICS_PORT, SERVICE_PORTS, type ServiceName } from '@tolk/contracts';

const ROOT = path.resolve(import.meta.dirname, '../..');

type ComposeService = {
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  ports?: string[];
};
const compose = parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};

const services = (Object.keys(SERVICE_PORTS) as ServiceName[]).filter((name) =>
  existsSync(path.join(ROOT, 'services', `${name}-service`, 'src', 'start.ts')),
);

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
/** Values a `.env` from `npm run secrets` would supply. */
const dotEnv: Record<string, string> = {
  JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  INTERNAL_JWT_SECRET: 'x'.repeat(43),
  BYOK_MASTER_KEYS: `k20250101:${Buffer.alloc(32, 7).toString('base64')}`,
};

/** Compose's interpolation of `${VAR}`, `${VAR:-default}` and `${VAR:?error}`. */
function interpolate(value: string): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_m, name: string, op?: string, arg?: string) => {
    const given = dotEnv[name];
    if (given !== undefined) return given;
    if (op === '-') return arg ?? '';
    throw new Error(`compose needs ${name}: ${arg ?? ''}`);
  });
}

function environmentOf(service: ComposeService): Record<string, string> {
  return Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(String(v))]),
  );
}

async function configSchemaOf(app: string): Promise<z.ZodType> {
  const module = (await import(path.join(ROOT, app, 'src', 'config.ts'))) as { configSchema: z.ZodType };
  return module.configSchema;
}

describe('docker-compose.yml', () => {
  it('has Postgres, RabbitMQ and Redis with health checks', () => {
    for (const name of ['postgres', 'rabbitmq', 'redis']) {
      expect(compose.services[name]?.healthcheck, name).toBeDefined();
    }
  });

  it.each(services)(
    'runs %s-service built from deploy/Dockerfile, its configuration complete',
    async (name) => {
      const service = compose.services[`${name}-service`];
      expect(service, `${name}-service is missing from docker-compose.yml`).toBeDefined();
      expect(service!.build).toEqual({
        context: '.',
        dockerfile: 'deploy/Dockerfile',
        args: { APP: `services/${name}-service` },
      });
      const environment = environmentOf(service!);
      expect(environment['PORT']).toBe(String(SERVICE_PORTS[name]));
      expect(environment['HOST']).toBe('0.0.0.0');
      expect(environment['NODE_ENV']).toBe('production');
      expect(new URL(environment['DATABASE_URL']!).hostname).toBe('postgres');
      expect(service!.depends_on?.['postgres']).toEqual({ condition: 'service_healthy' });
      expect(service!.healthcheck?.test.join(' ')).toContain(`:${SERVICE_PORTS[name]}/readyz`);
      // The service's own configuration schema accepts exactly what compose gives it.
      const parsed = (await configSchemaOf(`services/${name}-service`)).safeParse(environment);
      expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    },
  );

  it('runs the gateway wired to every service, Redis and the public key', async () => {
    const gateway = compose.services['gateway'];
    expect(gateway?.build?.args).toEqual({ APP: 'gateway' });
    expect(gateway?.ports).toEqual(['8080:8080']);
    const environment = environmentOf(gateway!);
    expect(new URL(environment['REDIS_URL']!).hostname).toBe('redis');
    for (const name of services) {
      expect(environment[`${name.toUpperCase()}_SERVICE_URL`]).toBe(
        `http://${name}-service:${SERVICE_PORTS[name]}`,
      );
      expect(gateway!.depends_on?.[`${name}-service`]).toEqual({ condition: 'service_healthy' });
    }
    const parsed = (await configSchemaOf('gateway')).safeParse(environment);
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    // Its /metrics on the metrics port, reachable on the compose network only (not published).
    expect((parsed.data as { METRICS_PORT: number }).METRICS_PORT).toBe(GATEWAY_METRICS_PORT);
    expect((gateway as { expose?: string[] }).expose).toEqual([String(GATEWAY_METRICS_PORT)]);
  });

  it('shares one internal secret between the gateway and every service', () => {
    const secrets = ['gateway', ...services.map((s) => `${s}-service`)].map(
      (name) => compose.services[name]?.environment?.['INTERNAL_JWT_SECRET'],
    );
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]).toMatch(/^\$\{INTERNAL_JWT_SECRET:\?/);
  });
});

describe('deploy/Dockerfile', () => {
  const dockerfile = readFileSync(path.join(ROOT, 'deploy', 'Dockerfile'), 'utf8');

  it('builds the workspace and runs the chosen process from its compiled output', () => {
    expect(dockerfile).toMatch(/RUN npm ci\b.*&& npm run build/);
    expect(dockerfile).toContain('$APP/dist/start.js');
    expect(dockerfile).toMatch(/^USER node$/m);
  });

  it('copies every workspace the lock file names, so npm ci in the image finds them all', () => {
    const { workspaces } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      workspaces: string[];
    };
    const folders = new Set(workspaces.map((pattern) => pattern.split('/')[0]!));
    for (const folder of folders) expect(dockerfile).toMatch(new RegExp(`^COPY ${folder} ${folder}$`, 'm'));
  });

  it.each(['gateway', ...services.map((s) => `services/${s}-service`)])(
    '%s compiles to dist/start.js',
    (app) => {
      const pkg = JSON.parse(readFileSync(path.join(ROOT, app, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      };
      const tsconfig = JSON.parse(readFileSync(path.join(ROOT, app, 'tsconfig.json'), 'utf8')) as {
        compilerOptions: { outDir: string; rootDir: string };
      };
      expect(pkg.scripts['start']).toBe('node dist/start.js');
      expect(tsconfig.compilerOptions).toMatchObject({ rootDir: 'src', outDir: 'dist' });
      const build = JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.build.json'), 'utf8')) as {
        references: { path: string }[];
      };
      expect(build.references.map((r) => r.path)).toContain(app);
    },
  );
});
