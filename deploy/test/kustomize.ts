/**
 * A small `kustomize build` for the tests. There is no kustomize or kubectl binary here and the
 * project takes no dependency for one, so this renders exactly the features deploy/k8s uses and
 * throws on any other field: a manifest that starts to need more fails its test instead of being
 * rendered wrongly. What it does, as kustomize does it:
 *  - `resources`: YAML files (several documents each) and directories with a kustomization.yaml;
 *    two objects of one kind, name and namespace are an error.
 *  - `configMapGenerator` / `secretGenerator`: `literals` (surrounding quotes removed) and `envs`
 *    (KEY=value lines, `#` comments, values kept verbatim, quotes included); `behavior` `create`
 *    or `merge` (into a generated object of a kustomization below); Secrets `Opaque`, base64 data.
 *    Generated names get a suffix from a hash of their content, and the references to them in
 *    pod templates (env `valueFrom`, `envFrom`, volumes) follow. The suffix is a content hash as
 *    kustomize's is, not byte-identical to it: nothing may depend on its value.
 *  - `namespace`: set on every namespaced object; a Namespace object is renamed to it.
 *  - `images`: `newName`, `newTag` on the containers and initContainers of pod templates.
 *  - `replicas`: `spec.replicas` of the Deployment of that name.
 * Not done: patches, labels, name prefixes and suffixes, components, `files` sources, vars or
 * replacements, remote resources, helm.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

export type KubeObject = {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [field: string]: unknown;
};

export type RenderOptions = {
  /** File contents by absolute path, read instead of the disk (fixtures, and secrets never read). */
  files?: Record<string, string>;
};

type Generator = {
  name: string;
  behavior?: 'create' | 'merge';
  literals?: string[];
  envs?: string[];
  type?: string;
};

type Kustomization = {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  resources?: string[];
  configMapGenerator?: Generator[];
  secretGenerator?: Generator[];
  images?: { name: string; newName?: string; newTag?: string }[];
  replicas?: { name: string; count: number }[];
};

const SUPPORTED: Record<string, readonly string[]> = {
  kustomization: [
    'apiVersion',
    'kind',
    'namespace',
    'resources',
    'configMapGenerator',
    'secretGenerator',
    'images',
    'replicas',
  ],
  generator: ['name', 'behavior', 'literals', 'envs', 'type'],
  image: ['name', 'newName', 'newTag'],
  replica: ['name', 'count'],
};

/** Kinds that have no namespace; Namespace itself is renamed instead (as kustomize does). */
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
]);

type Container = {
  name: string;
  image?: string;
  env?: {
    name: string;
    value?: string;
    valueFrom?: {
      configMapKeyRef?: { name: string; key: string };
      secretKeyRef?: { name: string; key: string };
    };
  }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
};

export type PodSpec = {
  containers: Container[];
  initContainers?: Container[];
  volumes?: { name: string; configMap?: { name: string }; secret?: { secretName: string } }[];
};

/** The pod template of a workload, or undefined for an object that runs nothing. */
export function podSpecOf(object: KubeObject): PodSpec | undefined {
  const spec = object['spec'] as Record<string, any> | undefined;
  switch (object.kind) {
    case 'Pod':
      return spec as PodSpec;
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'ReplicaSet':
    case 'Job':
      return spec?.['template']?.['spec'] as PodSpec;
    case 'CronJob':
      return spec?.['jobTemplate']?.['spec']?.['template']?.['spec'] as PodSpec;
    default:
      return undefined;
  }
}

function containersOf(pod: PodSpec): Container[] {
  return [...(pod.initContainers ?? []), ...pod.containers];
}

/** Renders the kustomization in `directory` (absolute) as `kustomize build` would. */
export function renderKustomization(directory: string, options: RenderOptions = {}): KubeObject[] {
  const files = options.files ?? {};
  const generated = new Set<KubeObject>();
  const objects = build(directory, { files, generated });
  nameGeneratedObjects(objects, generated);
  return objects;
}

type Context = { files: Record<string, string>; generated: Set<KubeObject> };

function readText(file: string, context: Context): string {
  return context.files[file] ?? readFileSync(file, 'utf8');
}

function isDirectory(target: string, context: Context): boolean {
  if (path.join(target, 'kustomization.yaml') in context.files) return true;
  if (target in context.files) return false;
  return statSync(target).isDirectory();
}

function refuseUnsupported(what: string, value: object, where: string): void {
  const unsupported = Object.keys(value).filter((key) => !SUPPORTED[what]!.includes(key));
  if (unsupported.length > 0) {
    throw new Error(`${where}: ${what} field(s) ${unsupported.join(', ')} not supported by this renderer`);
  }
}

function idOf(object: KubeObject): string {
  return `${object.kind}/${object.metadata.namespace ?? ''}/${object.metadata.name}`;
}

function build(directory: string, context: Context): KubeObject[] {
  const file = path.join(directory, 'kustomization.yaml');
  const kustomization = parse(readText(file, context)) as Kustomization;
  refuseUnsupported('kustomization', kustomization, file);
  if (kustomization.kind !== undefined && kustomization.kind !== 'Kustomization') {
    throw new Error(`${file}: kind ${kustomization.kind} is not a Kustomization`);
  }

  const objects: KubeObject[] = [];
  for (const resource of kustomization.resources ?? []) {
    const target = path.resolve(directory, resource);
    objects.push(...(isDirectory(target, context) ? build(target, context) : parseObjects(target, context)));
  }

  for (const generator of kustomization.configMapGenerator ?? []) {
    generate('ConfigMap', generator, directory, objects, context);
  }
  for (const generator of kustomization.secretGenerator ?? []) {
    generate('Secret', generator, directory, objects, context);
  }

  if (kustomization.namespace !== undefined) setNamespace(objects, kustomization.namespace);
  for (const image of kustomization.images ?? []) {
    refuseUnsupported('image', image, file);
    setImage(objects, image);
  }
  for (const replica of kustomization.replicas ?? []) {
    refuseUnsupported('replica', replica, file);
    const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === replica.name);
    if (!deployment) throw new Error(`${file}: replicas for ${replica.name}, which is no Deployment`);
    (deployment['spec'] as Record<string, unknown>)['replicas'] = replica.count;
  }

  const seen = new Set<string>();
  for (const object of objects) {
    if (seen.has(idOf(object))) throw new Error(`${file}: ${idOf(object)} is defined twice`);
    seen.add(idOf(object));
  }
  return objects;
}

function parseObjects(file: string, context: Context): KubeObject[] {
  return parseAllDocuments(readText(file, context)).flatMap((document) => {
    if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0]!.message}`);
    const object = document.toJS() as KubeObject | null;
    if (object === null) return [];
    if (!object.apiVersion || !object.kind || !object.metadata?.name) {
      throw new Error(`${file}: a document without apiVersion, kind or metadata.name`);
    }
    return [object];
  });
}

/** kustomize's env file: `KEY=value` lines, blank lines and `#` comments skipped, values verbatim. */
export function parseEnvFile(text: string, where: string): [string, string][] {
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((line) => line.trimStart())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const at = line.indexOf('=');
      const key = at === -1 ? line : line.slice(0, at);
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new Error(`${where}: "${key}" is not a variable name`);
      return [key, at === -1 ? '' : line.slice(at + 1)];
    });
}

function parseLiteral(literal: string, where: string): [string, string] {
  const at = literal.indexOf('=');
  if (at <= 0) throw new Error(`${where}: literal "${literal}" is not key=value`);
  const value = literal.slice(at + 1);
  const quoted = value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0];
  return [literal.slice(0, at), quoted ? value.slice(1, -1) : value];
}

function generate(
  kind: 'ConfigMap' | 'Secret',
  generator: Generator,
  directory: string,
  objects: KubeObject[],
  context: Context,
): void {
  const where = `${path.join(directory, 'kustomization.yaml')} ${kind} ${generator.name}`;
  refuseUnsupported('generator', generator, where);
  const entries: [string, string][] = [
    ...(generator.envs ?? []).flatMap((envFile) =>
      parseEnvFile(readText(path.resolve(directory, envFile), context), `${where} ${envFile}`),
    ),
    ...(generator.literals ?? []).map((literal) => parseLiteral(literal, where)),
  ];
  const data: Record<string, string> = {};
  for (const [key, value] of entries) {
    if (key in data) throw new Error(`${where}: ${key} is given twice`);
    data[key] = kind === 'Secret' ? Buffer.from(value).toString('base64') : value;
  }

  const behavior = generator.behavior ?? 'create';
  if (behavior === 'merge') {
    const base = objects.find((o) => o.kind === kind && o.metadata.name === generator.name);
    if (!base || !context.generated.has(base)) {
      throw new Error(`${where}: behavior merge, but no generated ${kind} ${generator.name} below`);
    }
    base['data'] = { ...(base['data'] as Record<string, string>), ...data };
    return;
  }
  if (behavior !== 'create') throw new Error(`${where}: behavior ${String(behavior)} not supported`);
  const object: KubeObject = {
    apiVersion: 'v1',
    kind,
    metadata: { name: generator.name },
    ...(kind === 'Secret' ? { type: generator.type ?? 'Opaque' } : {}),
    data,
  };
  objects.push(object);
  context.generated.add(object);
}

function setNamespace(objects: KubeObject[], namespace: string): void {
  for (const object of objects) {
    if (object.kind === 'Namespace') object.metadata.name = namespace;
    else if (!CLUSTER_SCOPED.has(object.kind)) object.metadata.namespace = namespace;
  }
}

/** `name[:tag][@digest]`; a colon before the last slash belongs to a registry's port. */
function splitImage(image: string): { name: string; tag?: string } {
  const withoutDigest = image.split('@')[0]!;
  const colon = withoutDigest.lastIndexOf(':');
  if (colon > withoutDigest.lastIndexOf('/')) {
    return { name: withoutDigest.slice(0, colon), tag: withoutDigest.slice(colon + 1) };
  }
  return { name: withoutDigest };
}

function setImage(objects: KubeObject[], image: { name: string; newName?: string; newTag?: string }): void {
  for (const object of objects) {
    const pod = podSpecOf(object);
    if (!pod) continue;
    for (const container of containersOf(pod)) {
      if (container.image === undefined) continue;
      const current = splitImage(container.image);
      if (current.name !== image.name) continue;
      const tag = image.newTag ?? current.tag;
      container.image = `${image.newName ?? current.name}${tag === undefined ? '' : `:${tag}`}`;
    }
  }
}

/** Suffixes every generated name with a hash of its content and points every reference at it. */
function nameGeneratedObjects(objects: KubeObject[], generated: Set<KubeObject>): void {
  const renamed = new Map<string, string>();
  for (const object of generated) {
    const hash = createHash('sha256')
      .update(JSON.stringify({ kind: object.kind, name: object.metadata.name, data: sorted(object['data']) }))
      .digest('hex')
      .slice(0, 10);
    const name = `${object.metadata.name}-${hash}`;
    renamed.set(`${object.kind}/${object.metadata.name}`, name);
    object.metadata.name = name;
  }
  const rename = (kind: string, name: string) => renamed.get(`${kind}/${name}`) ?? name;
  for (const object of objects) {
    const pod = podSpecOf(object);
    if (!pod) continue;
    for (const container of containersOf(pod)) {
      for (const variable of container.env ?? []) {
        const configMap = variable.valueFrom?.configMapKeyRef;
        if (configMap) configMap.name = rename('ConfigMap', configMap.name);
        const secret = variable.valueFrom?.secretKeyRef;
        if (secret) secret.name = rename('Secret', secret.name);
      }
      for (const source of container.envFrom ?? []) {
        if (source.configMapRef) source.configMapRef.name = rename('ConfigMap', source.configMapRef.name);
        if (source.secretRef) source.secretRef.name = rename('Secret', source.secretRef.name);
      }
    }
    for (const volume of pod.volumes ?? []) {
      if (volume.configMap) volume.configMap.name = rename('ConfigMap', volume.configMap.name);
      if (volume.secret) volume.secret.secretName = rename('Secret', volume.secret.secretName);
    }
  }
}

function sorted(data: unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries((data ?? {}) as Record<string, unknown>).sort());
}
