/**
 * The manifests as a cluster would get them: `kubectl kustomize` (kustomize inside kubectl, no
 * cluster needed) over a copy of a kustomization tree, with the files a test supplies (a
 * secrets.env of placeholders: the real one, if this machine has one, is never read), and every
 * object checked against the Kubernetes API's JSON schemas (kubernetes-models, shipped offline).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as models from 'kubernetes-models';
import { parseAllDocuments } from 'yaml';

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

/** Fails with what to install: the manifests cannot be checked without kubectl. */
export function requireKubectl(): void {
  const found = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) {
    throw new Error(
      `kubectl is not installed (${process.env.CI === 'true' ? 'CI' : 'local run'}): the deploy/k8s ` +
        'tests render the manifests with `kubectl kustomize`; install kubectl (no cluster is needed)',
    );
  }
}

/**
 * `kubectl kustomize <tree>/<directory>` of a copy of `tree` in which `files` (paths relative to
 * it) are written; any file named secrets.env is left out of the copy.
 */
export function kustomize(tree: string, directory: string, files: Record<string, string> = {}): KubeObject[] {
  requireKubectl();
  const copy = mkdtempSync(path.join(tmpdir(), 'tolk-kustomize-'));
  try {
    cpSync(tree, copy, { recursive: true, filter: (source) => path.basename(source) !== 'secrets.env' });
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
      writeFileSync(path.join(copy, file), text);
    }
    const built = spawnSync('kubectl', ['kustomize', path.join(copy, directory)], { encoding: 'utf8' });
    if (built.status !== 0) {
      throw new Error(`kubectl kustomize ${directory} failed: ${built.stderr.replaceAll(copy, '')}`);
    }
    return parseAllDocuments(built.stdout).map((document) => document.toJS() as KubeObject);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

type Model = { new (data: unknown): { validate(): void }; apiVersion: string; kind: string };

/** Every model of kubernetes-models by `apiVersion/kind`. */
const MODELS = new Map<string, Model>();
(function collect(namespace: object): void {
  for (const value of Object.values(namespace)) {
    if (typeof value === 'function' && 'apiVersion' in value && 'kind' in value) {
      const model = value as Model;
      MODELS.set(`${model.apiVersion}/${model.kind}`, model);
    } else if (value !== null && typeof value === 'object') {
      collect(value as object);
    }
  }
})(models);

/**
 * kustomize wraps long base64 values of a Secret's `data` in lines, which the API server's
 * decoder skips; the schema's `byte` format does not, so the lines are joined before the check.
 */
function withUnwrappedBase64(object: KubeObject): KubeObject {
  const data = object['data'];
  if (object.kind !== 'Secret' || data === null || typeof data !== 'object') return object;
  const unwrapped = Object.entries(data).map(([key, value]) => [
    key,
    typeof value === 'string' ? value.replace(/[\r\n]/g, '') : value,
  ]);
  return { ...object, data: Object.fromEntries(unwrapped) };
}

/**
 * What the Kubernetes API's schema for the object's apiVersion and kind says is wrong with it
 * (wrong types, values outside an enum, malformed quantities…); empty when nothing is. An
 * apiVersion and kind without a schema is itself an issue.
 */
export function schemaIssues(object: KubeObject): string[] {
  const model = MODELS.get(`${object.apiVersion}/${object.kind}`);
  if (!model) return [`no Kubernetes schema for ${object.apiVersion} ${object.kind}`];
  try {
    new model(withUnwrappedBase64(object)).validate();
    return [];
  } catch (err) {
    return [(err as Error).message];
  }
}

export type PodSpec = { containers: unknown[]; initContainers?: unknown[]; [field: string]: unknown };

/** The pod spec of a workload (Deployment, Job, …); undefined for any other object. */
export function podSpecOf(object: KubeObject): PodSpec | undefined {
  const spec = object['spec'] as { template?: { spec?: PodSpec } } | undefined;
  return spec?.template?.spec;
}
