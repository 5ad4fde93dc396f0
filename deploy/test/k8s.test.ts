import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { z } from 'zod';
import { GATEWAY_METRICS_PORT, GATEWAY_PORT, SERVICE_PORTS, type ServiceName } from '@tolk/contracts';
import { kustomize, podSpecOf, schemaIssues, type KubeObject } from './kubectl-kustomize.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const K8S = path.join(ROOT, 'deploy', 'k8s');
const OVERLAY = path.join(K8S, 'overlays', 'production');
const NAMESPACE = 'tolk';

const SERVICES = Object.keys(SERVICE_PORTS) as ServiceName[];
/** `metricsPort`: where GET /metrics is served; the gateway's public port does not serve it. */
type Process = { name: string; app: string; port: number; metricsPort: number };
const PROCESSES: Process[] = [
  { name: 'gateway', app: 'gateway', port: GATEWAY_PORT, metricsPort: GATEWAY_METRICS_PORT },
  ...SERVICES.map((s) => ({
    name: `${s}-service`,
    app: `services/${s}-service`,
    port: SERVICE_PORTS[s],
    metricsPort: SERVICE_PORTS[s],
  })),
];
const AUTOSCALED = ['gateway', 'source-service'];

/** What only the Secret may carry: credentials, keys, and the URLs that hold passwords. */
const SECRET_VARIABLES = new Set([
  'INTERNAL_JWT_SECRET',
  'JWT_PRIVATE_KEY',
  'JWT_PUBLIC_KEY',
  'BYOK_MASTER_KEYS',
  'DATABASE_URL',
  'AMQP_URL',
  'REDIS_URL',
]);
/** What one machine generates for development (`npm start`, byok-service); production must refuse to. */
const DEVELOPMENT_SECRETS = ['INTERNAL_JWT_SECRET', 'JWT_PRIVATE_KEY', 'JWT_PUBLIC_KEY', 'BYOK_MASTER_KEYS'];

// Plausible values of the right shape, as secrets.env holds them (PEM keys on one line, `\n`).
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const oneLine = (pem: string) => pem.trim().replaceAll('\n', '\\n');
const placeholderSecrets: Record<string, string> = {
  JWT_PRIVATE_KEY: oneLine(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()),
  JWT_PUBLIC_KEY: oneLine(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
  INTERNAL_JWT_SECRET: randomBytes(32).toString('base64url'),
  BYOK_MASTER_KEYS: `k20250101:${randomBytes(32).toString('base64')}`,
  DATABASE_URL: 'postgres://tolk:password@postgres.example.internal:5432/tolk?sslmode=require',
  AMQP_URL: 'amqps://tolk:password@rabbitmq.example.internal:5671',
  REDIS_URL: 'rediss://:password@redis.example.internal:6379',
};

const OVERLAY_IN_TREE = path.relative(K8S, OVERLAY);

/** The overlay rendered by kubectl with `secretsEnv` as its secrets.env. */
function renderWith(secretsEnv: string): KubeObject[] {
  return kustomize(K8S, OVERLAY_IN_TREE, { [path.join(OVERLAY_IN_TREE, 'secrets.env')]: secretsEnv });
}

/** secrets.env.example as kustomize reads it: the data of the Secret it generates, decoded. */
const exampleSecrets = Object.fromEntries(
  Object.entries(
    renderWith(readFileSync(path.join(OVERLAY, 'secrets.env.example'), 'utf8')).find(
      (o) => o.kind === 'Secret',
    )!['data'] as Record<string, string>,
  ).map(([key, value]) => [key, Buffer.from(value, 'base64').toString()]),
);

/** The overlay rendered with secrets.env made of `values` for the keys the example lists. */
function renderProduction(values: Record<string, string>): KubeObject[] {
  return renderWith(
    Object.keys(exampleSecrets)
      .map((key) => {
        if (values[key] === undefined) throw new Error(`no placeholder for ${key} (secrets.env.example)`);
        return `${key}=${values[key]}`;
      })
      .join('\n'),
  );
}

const rendered = renderProduction(placeholderSecrets);

function find(kind: string, name: string, objects = rendered): KubeObject | undefined {
  return objects.find((o) => o.kind === kind && o.metadata.name === name);
}

function get(kind: string, name: string, objects = rendered): KubeObject {
  const object = find(kind, name, objects);
  if (!object) throw new Error(`no ${kind} ${name} in the rendered overlay`);
  return object;
}

type HttpProbe = { httpGet?: { path: string; port: number | string } };
type Container = {
  name: string;
  image: string;
  command?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: {
    name: string;
    value?: string;
    valueFrom?: {
      configMapKeyRef?: { name: string; key: string };
      secretKeyRef?: { name: string; key: string };
    };
  }[];
  envFrom?: unknown[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  livenessProbe?: HttpProbe;
  readinessProbe?: HttpProbe;
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    capabilities?: { drop?: string[] };
  };
};
type Pod = {
  containers: Container[];
  restartPolicy?: string;
  automountServiceAccountToken?: boolean;
  enableServiceLinks?: boolean;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; seccompProfile?: { type: string } };
};
type Spec = Record<string, any>;

const specOf = (object: KubeObject) => object['spec'] as Spec;
const podOf = (object: KubeObject) => podSpecOf(object) as unknown as Pod;
const templateLabelsOf = (object: KubeObject) =>
  (specOf(object)['template']?.['metadata']?.['labels'] ?? {}) as Record<string, string>;

function containerOf(process: Process): Container {
  const containers = podOf(get('Deployment', process.name)).containers;
  expect(containers.map((c) => c.name)).toEqual([process.name]);
  return containers[0]!;
}

type Variable = { value: string; from: 'value' | 'ConfigMap' | 'Secret' };

/** What the container's process finds in its environment, following each reference. */
function environmentOf(container: Container, objects = rendered): Record<string, Variable> {
  if (container.envFrom) throw new Error(`${container.name}: envFrom hides which variables it gets`);
  const environment: Record<string, Variable> = {};
  for (const variable of container.env ?? []) {
    if (variable.name in environment) throw new Error(`${container.name}: ${variable.name} given twice`);
    const configMap = variable.valueFrom?.configMapKeyRef;
    const secret = variable.valueFrom?.secretKeyRef;
    let resolved: Variable;
    if (variable.value !== undefined) {
      resolved = { value: variable.value, from: 'value' };
    } else if (configMap) {
      const data = get('ConfigMap', configMap.name, objects)['data'] as Record<string, string>;
      if (!(configMap.key in data)) throw new Error(`ConfigMap ${configMap.name} has no ${configMap.key}`);
      resolved = { value: data[configMap.key]!, from: 'ConfigMap' };
    } else if (secret) {
      const data = get('Secret', secret.name, objects)['data'] as Record<string, string>;
      if (!(secret.key in data)) throw new Error(`Secret ${secret.name} has no ${secret.key}`);
      resolved = { value: Buffer.from(data[secret.key]!, 'base64').toString(), from: 'Secret' };
    } else {
      throw new Error(`${container.name}: ${variable.name} has no value the test understands`);
    }
    environment[variable.name] = resolved;
  }
  return environment;
}

const valuesOf = (environment: Record<string, Variable>) =>
  Object.fromEntries(Object.entries(environment).map(([name, v]) => [name, v.value]));

type ConfigModule = {
  configSchema: z.ZodType;
  loadMigrationConfig?: (source: Record<string, string | undefined>) => unknown;
};
async function configOf(app: string): Promise<ConfigModule> {
  return (await import(path.join(ROOT, app, 'src', 'config.ts'))) as ConfigModule;
}

/** The variables a configuration schema reads: its object's keys, under any transform. */
function variablesOf(schema: z.ZodType): string[] {
  const def = (schema as unknown as { def: { type: string; shape?: object; in?: z.ZodType } }).def;
  if (def.type === 'object' && def.shape) return Object.keys(def.shape);
  if (def.type === 'pipe' && def.in) return variablesOf(def.in);
  throw new Error(`a configuration schema of type ${def.type} is not understood here`);
}

async function parseIssues(app: string, environment: Record<string, string>) {
  const parsed = (await configOf(app)).configSchema.safeParse(environment);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

/** The port a probe or Service names, by number or by the container port's name. */
function portNumber(container: Container, port: number | string | undefined): number | undefined {
  if (typeof port === 'number') return port;
  return container.ports?.find((p) => p.name === port)?.containerPort;
}

function quantity(value: string | undefined, resource: 'cpu' | 'memory'): number {
  const match = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi)?$/.exec(value ?? '');
  if (!match) throw new Error(`${resource} quantity ${value} not understood`);
  const units = { m: 0.001, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 } as Record<string, number>;
  return Number(match[1]) * (match[2] ? units[match[2]]! : 1);
}

function expectLockedDown(pod: Pod, what: string): void {
  expect(pod.automountServiceAccountToken, `${what}: no API token`).toBe(false);
  expect(pod.enableServiceLinks, `${what}: no service-link variables`).toBe(false);
  expect(pod.securityContext?.runAsNonRoot, what).toBe(true);
  // Numeric: the image's USER is a name, which the kubelet cannot check for root.
  expect(pod.securityContext?.runAsUser, what).toBeGreaterThan(0);
  expect(pod.securityContext?.seccompProfile?.type, what).toBe('RuntimeDefault');
  for (const container of pod.containers) {
    expect(container.securityContext, `${what} ${container.name}`).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
    });
    expect(container.securityContext?.capabilities?.drop, `${what} ${container.name}`).toContain('ALL');
  }
}

describe('deploy/k8s/overlays/production, rendered', () => {
  it('puts everything in the tolk namespace, which enforces the restricted pod security profile', () => {
    const namespace = get('Namespace', NAMESPACE);
    expect(namespace.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
    for (const object of rendered.filter((o) => o.kind !== 'Namespace')) {
      expect(object.metadata.namespace, `${object.kind} ${object.metadata.name}`).toBe(NAMESPACE);
    }
  });

  it.each(PROCESSES)('runs $name as a Deployment with probes, resources and a locked-down pod', (process) => {
    const deployment = get('Deployment', process.name);
    const selector = specOf(deployment)['selector']?.['matchLabels'] as Record<string, string>;
    expect(templateLabelsOf(deployment)).toMatchObject(selector);

    const container = containerOf(process);
    // The overlay's registry and tag, on the image deploy/Dockerfile builds for this process.
    expect(container.image).toMatch(new RegExp(`/tolk/${process.name}:[\\w.-]+$`));
    expect(container.image).not.toMatch(/:latest$/);
    expect(container.ports?.map((p) => p.containerPort)).toEqual([
      ...new Set([process.port, process.metricsPort]),
    ]);

    expect(container.livenessProbe?.httpGet?.path).toBe('/healthz');
    expect(portNumber(container, container.livenessProbe?.httpGet?.port)).toBe(process.port);
    expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
    expect(portNumber(container, container.readinessProbe?.httpGet?.port)).toBe(process.port);

    for (const resource of ['cpu', 'memory'] as const) {
      const request = quantity(container.resources?.requests?.[resource], resource);
      const limit = quantity(container.resources?.limits?.[resource], resource);
      expect(request, `${resource} request`).toBeGreaterThan(0);
      expect(limit, `${resource} limit`).toBeGreaterThanOrEqual(request);
    }
    expectLockedDown(podOf(deployment), process.name);
  });

  it.each(PROCESSES)('gives $name exactly the environment its configSchema reads', async (process) => {
    const environment = environmentOf(containerOf(process));
    const { configSchema } = await configOf(process.app);
    const variables = variablesOf(configSchema);
    // NODE_ENV beside the schema's own: express and the rest of Node read it too.
    const unknown = Object.keys(environment).filter(
      (name) => !variables.includes(name) && name !== 'NODE_ENV',
    );
    expect(unknown, 'variables the process does not read').toEqual([]);

    expect(await parseIssues(process.app, valuesOf(environment))).toEqual([]);
    expect(environment['PORT']?.value).toBe(String(process.port));
    // The defaults (127.0.0.1, development) are right on one machine and wrong in a pod.
    expect(environment['HOST']?.value).toBe('0.0.0.0');
    expect(environment['NODE_ENV']?.value).toBe('production');
    for (const [name, variable] of Object.entries(environment)) {
      if (SECRET_VARIABLES.has(name)) expect(variable.from, `${name} comes from the Secret`).toBe('Secret');
    }
    // Every service this process calls, at its Service's in-cluster name and port.
    for (const name of variables.filter((v) => /^[A-Z]+_SERVICE_URL$/.test(v))) {
      const service = name.replace(/_SERVICE_URL$/, '').toLowerCase() as ServiceName;
      expect(environment[name]?.value, name).toBe(`http://${service}-service:${SERVICE_PORTS[service]}`);
    }
  });

  it('gives the gateway Redis and RabbitMQ, which it can do without alone but not beside its replicas', () => {
    const environment = environmentOf(containerOf(PROCESSES[0]!));
    // Without Redis each replica keeps its own rate limits and token cache (a revoked token lives
    // on in the others); without RabbitMQ no replica hears of revocations and membership changes.
    expect(new URL(environment['REDIS_URL']!.value).protocol).toMatch(/^rediss?:$/);
    expect(new URL(environment['AMQP_URL']!.value).protocol).toMatch(/^amqps?:$/);
  });

  it('gives identity-service the public origin for the device login', () => {
    const identity = PROCESSES.find((p) => p.name === 'identity-service')!;
    expect(environmentOf(containerOf(identity))['PUBLIC_URL']?.value).toMatch(/^https:\/\//);
  });

  it.each(PROCESSES)(
    'refuses to start $name without any one of its secrets (no development secret in production)',
    async (process) => {
      const environment = valuesOf(environmentOf(containerOf(process)));
      const given = DEVELOPMENT_SECRETS.filter((name) => name in environment);
      expect(given.length, 'at least INTERNAL_JWT_SECRET').toBeGreaterThan(0);
      for (const name of given) {
        const { [name]: _left, ...without } = environment;
        expect(await parseIssues(process.app, without), `without ${name}`).not.toEqual([]);
      }
    },
  );

  it.each(PROCESSES)("refuses to start $name on secrets.env.example's placeholders", async (process) => {
    const fromExample = renderProduction(exampleSecrets);
    const container = podOf(get('Deployment', process.name, fromExample)).containers[0]!;
    expect(await parseIssues(process.app, valuesOf(environmentOf(container, fromExample)))).not.toEqual([]);
  });

  it.each(PROCESSES)('routes the $name Service to its pods on its port', (process) => {
    const service = get('Service', process.name);
    expect(specOf(service)['type'] ?? 'ClusterIP').toBe('ClusterIP');
    const selector = specOf(service)['selector'] as Record<string, string>;
    for (const deployment of rendered.filter((o) => o.kind === 'Deployment')) {
      const selects = Object.entries(selector).every(([k, v]) => templateLabelsOf(deployment)[k] === v);
      expect(selects, `selects ${deployment.metadata.name}`).toBe(deployment.metadata.name === process.name);
    }
    const ports = specOf(service)['ports'] as { port: number; targetPort: number | string }[];
    expect(ports.map((p) => p.port)).toEqual([process.port]);
    expect(portNumber(containerOf(process), ports[0]!.targetPort)).toBe(process.port);
  });

  it.each(PROCESSES)('tells Prometheus to scrape $name where it serves /metrics', async (process) => {
    const deployment = get('Deployment', process.name);
    const annotations = (specOf(deployment)['template']?.['metadata']?.['annotations'] ?? {}) as Record<
      string,
      string
    >;
    expect(annotations).toMatchObject({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': String(process.metricsPort),
      'prometheus.io/path': '/metrics',
    });
    if (process.name !== 'gateway') return;
    // The gateway's: on a port of the pod that no Service (so no Ingress) sends traffic to.
    const config = (await configOf('gateway')).configSchema.parse(
      valuesOf(environmentOf(containerOf(process))),
    ) as { METRICS_PORT: number; METRICS_TOKEN?: string };
    expect(config.METRICS_PORT).toBe(process.metricsPort);
    expect(config.METRICS_TOKEN, 'the public port answers no /metrics').toBeUndefined();
    const exposed = rendered
      .filter((o) => o.kind === 'Service')
      .flatMap((service) => specOf(service)['ports'] as { port: number; targetPort: number | string }[])
      .map((port) => portNumber(containerOf(process), port.targetPort));
    expect(exposed).not.toContain(process.metricsPort);
  });

  it.each(AUTOSCALED)('scales %s with a HorizontalPodAutoscaler on CPU', (name) => {
    const autoscaler = get('HorizontalPodAutoscaler', name);
    expect(autoscaler.apiVersion).toBe('autoscaling/v2');
    const spec = specOf(autoscaler);
    expect(spec['scaleTargetRef']).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
    expect(spec['minReplicas']).toBeGreaterThanOrEqual(2);
    expect(spec['maxReplicas']).toBeGreaterThan(spec['minReplicas']);
    expect(spec['metrics']).toContainEqual({
      type: 'Resource',
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: expect.any(Number) } },
    });
  });

  it('runs at least two of every process, and leaves the autoscaled counts to their autoscalers', () => {
    const autoscaled = rendered
      .filter((o) => o.kind === 'HorizontalPodAutoscaler')
      .map((o) => specOf(o)['scaleTargetRef']['name'] as string);
    expect(autoscaled.sort()).toEqual([...AUTOSCALED].sort());
    for (const process of PROCESSES) {
      const replicas = specOf(get('Deployment', process.name))['replicas'] as number | undefined;
      // A replicas field would reset the autoscaler's count on every apply.
      if (autoscaled.includes(process.name)) expect(replicas, process.name).toBeUndefined();
      else expect(replicas, process.name).toBeGreaterThanOrEqual(2);
      expect(find('PodDisruptionBudget', process.name), process.name).toBeDefined();
    }
  });

  it("runs every service's migrations in the tolk-migrate Job, each with its own image", async () => {
    const withMigrations = SERVICES.map((s) => `${s}-service`).filter((name) =>
      existsSync(path.join(ROOT, 'services', name, 'migrations')),
    );
    expect(withMigrations.length).toBeGreaterThan(0);
    // The Job runs the compiled entry point by its path under the image's working directory.
    expect(readFileSync(path.join(ROOT, 'deploy', 'Dockerfile'), 'utf8')).toMatch(/^WORKDIR \/app$/m);

    const job = get('Job', 'tolk-migrate');
    const pod = podOf(job);
    expect(pod.restartPolicy).toMatch(/^(Never|OnFailure)$/);
    expectLockedDown(pod, 'tolk-migrate');
    expect(pod.containers.map((c) => c.name).sort()).toEqual([...withMigrations].sort());
    for (const name of withMigrations) {
      const app = `services/${name}`;
      const container = pod.containers.find((c) => c.name === name)!;
      // Its `npm run migrate`, by the compiled entry point's path (npm would need a writable home).
      const pkg = JSON.parse(readFileSync(path.join(ROOT, app, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      };
      expect(pkg.scripts['migrate'], name).toBe('node dist/migrate.js');
      expect(existsSync(path.join(ROOT, app, 'src', 'migrate.ts')), name).toBe(true);
      expect(container.command).toEqual(['node', `${app}/dist/migrate.js`]);
      expect(container.image).toBe(podOf(get('Deployment', name)).containers[0]!.image);
      const environment = environmentOf(container);
      expect(Object.keys(environment).sort()).toEqual(['DATABASE_URL', 'LOG_LEVEL']);
      expect(environment['DATABASE_URL']!.from).toBe('Secret');
      const { loadMigrationConfig } = await configOf(app);
      expect(() => loadMigrationConfig!(valuesOf(environment))).not.toThrow();
    }
  });

  it('exposes the gateway alone, through an Ingress that lets a whole source file through', async () => {
    const ingresses = rendered.filter((o) => o.kind === 'Ingress');
    const backends = ingresses.flatMap((ingress) =>
      (specOf(ingress)['rules'] as Spec[]).flatMap((rule) =>
        (rule['http']['paths'] as Spec[]).map((p) => p['backend']['service']),
      ),
    );
    expect(backends).toEqual([{ name: 'gateway', port: { number: GATEWAY_PORT } }]);
    const gateway = (await configOf('gateway')).configSchema.parse(
      valuesOf(environmentOf(containerOf(PROCESSES[0]!))),
    ) as { MAX_BODY_BYTES: number };
    // ingress-nginx refuses bodies over 1 MiB unless told otherwise (k, m, g: powers of 1024).
    const limit = /^(\d+)([kmg]?)$/i.exec(
      ingresses[0]!.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-body-size'] ?? '',
    );
    expect(limit).not.toBeNull();
    const bytes = Number(limit![1]) * 1024 ** ' kmg'.indexOf((limit![2] || ' ').toLowerCase());
    expect(bytes).toBeGreaterThanOrEqual(gateway.MAX_BODY_BYTES);
  });

  it('holds no secret in the repository: one generated Secret, from an ignored file the example describes', () => {
    const committed = (directory: string): string[] =>
      readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
        const file = path.join(directory, entry.name);
        if (entry.isDirectory()) return committed(file);
        return /\.ya?ml$/.test(entry.name) ? [file] : [];
      });
    for (const file of committed(K8S)) {
      for (const document of parseAllDocuments(readFileSync(file, 'utf8'))) {
        expect((document.toJS() as KubeObject | null)?.kind, file).not.toBe('Secret');
      }
    }
    const ignored = readFileSync(path.join(OVERLAY, '.gitignore'), 'utf8').split('\n');
    expect(ignored).toContain('secrets.env');

    const referenced = new Set(
      rendered
        .flatMap((o) => podSpecOf(o)?.containers ?? [])
        .flatMap((c) => (c as Container).env ?? [])
        .flatMap((v) => (v.valueFrom?.secretKeyRef ? [v.valueFrom.secretKeyRef.key] : [])),
    );
    expect([...referenced].sort()).toEqual(Object.keys(exampleSecrets).sort());
    expect([...referenced].sort()).toEqual([...SECRET_VARIABLES].sort());
  });
});

describe('the rendering and the schema check', () => {
  it('holds every object of the overlay to the Kubernetes API schema of its kind', () => {
    expect(rendered.length).toBeGreaterThan(20);
    for (const object of rendered) {
      expect(schemaIssues(object), `${object.kind} ${object.metadata.name}`).toEqual([]);
    }
  });

  it('when a manifest breaks the schema, then the check names the field', () => {
    const broken = structuredClone(get('Deployment', 'gateway'));
    const container = podOf(broken).containers[0]!;
    container.ports![0]!.containerPort = 'eighty' as unknown as number;
    Object.assign(container, { imagePullPolicy: 'Sometimes' });
    container.resources = { limits: { memory: 'a lot' } };
    const issues = schemaIssues(broken).join('\n');
    expect(issues).toMatch(/ports\/0\/containerPort must be integer/);
    expect(issues).toMatch(/imagePullPolicy must be equal to one of the allowed values/);
    expect(issues).toMatch(/limits\/memory must match format "quantity"/);
    expect(schemaIssues({ apiVersion: 'apps/v0', kind: 'Deployment', metadata: { name: 'x' } })).toEqual([
      'no Kubernetes schema for apps/v0 Deployment',
    ]);
  });

  it('when kustomize refuses the tree, then the test fails with what kubectl said', () => {
    expect(() =>
      kustomize(K8S, OVERLAY_IN_TREE, {
        [path.join(OVERLAY_IN_TREE, 'secrets.env')]: 'A=1',
        [path.join(OVERLAY_IN_TREE, 'kustomization.yaml')]: 'resources:\n  - ../../base\n  - missing.yaml\n',
      }),
    ).toThrow(/kubectl kustomize overlays\/production failed: .*missing\.yaml/s);
  });
});
