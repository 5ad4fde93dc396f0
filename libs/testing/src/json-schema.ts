/**
 * A small JSON Schema (2020-12) validator for the subset that zod's `toJSONSchema` and the
 * gateway's OpenAPI document use, so tests can hold live answers to the published document. A
 * keyword outside the subset throws: an unchecked keyword must never pass a value silently.
 */

export type SchemaIssue = { path: string; message: string };

type Schema = { [keyword: string]: unknown };

/** Keywords that describe and never constrain (2020-12 treats `format` as an annotation too). */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  'format',
  'contentEncoding',
  'contentMediaType',
]);

/** Keywords read together with others (objects and arrays), not on their own. */
const APPLIED_WITH_OTHERS = new Set([
  'properties',
  'patternProperties',
  'additionalProperties',
  'prefixItems',
]);

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'object':
      return typeOf(value) === 'object';
    default:
      return typeOf(value) === type;
  }
}

/** Structural equality of JSON values, for `enum`, `const` and `uniqueItems`. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeOf(a) !== typeOf(b) || typeof a !== 'object' || a === null) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => jsonEqual(item, other[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return (
    keys.length === Object.keys(right).length &&
    keys.every((key) => key in right && jsonEqual(left[key], right[key]))
  );
}

/** A local reference (`#/components/schemas/Name`) into the root document. */
function resolveRef(ref: string, root: unknown): unknown {
  if (!ref.startsWith('#')) throw new Error(`only local $ref are supported: ${ref}`);
  let target = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeOf(target) !== 'object' || !(segment in (target as object))) {
      throw new Error(`$ref ${ref} does not resolve`);
    }
    target = (target as Record<string, unknown>)[segment];
  }
  return target;
}

function childPath(path: string, key: string | number): string {
  return typeof key === 'number'
    ? `${path}[${key}]`
    : /^[A-Za-z_$][\w$]*$/.test(key)
      ? `${path}.${key}`
      : `${path}[${JSON.stringify(key)}]`;
}

function validate(schema: unknown, value: unknown, path: string, root: unknown, issues: SchemaIssue[]): void {
  if (schema === true) return;
  if (schema === false) {
    issues.push({ path, message: 'is not allowed here' });
    return;
  }
  if (typeOf(schema) !== 'object') throw new Error(`not a schema at ${path}: ${JSON.stringify(schema)}`);
  const s = schema as Schema;
  const fail = (message: string) => issues.push({ path, message });
  const failsAgainst = (sub: unknown) => {
    const found: SchemaIssue[] = [];
    validate(sub, value, path, root, found);
    return found;
  };

  for (const [keyword, arg] of Object.entries(s)) {
    if (ANNOTATIONS.has(keyword) || APPLIED_WITH_OTHERS.has(keyword)) continue;
    switch (keyword) {
      case '$ref':
        validate(resolveRef(arg as string, root), value, path, root, issues);
        break;
      case 'type': {
        const types = Array.isArray(arg) ? (arg as string[]) : [arg as string];
        if (!types.some((type) => hasType(value, type)))
          fail(`must be of type ${types.join(' or ')}, not ${typeOf(value)}`);
        break;
      }
      case 'enum':
        if (!(arg as unknown[]).some((option) => jsonEqual(option, value))) {
          fail(`must be one of ${JSON.stringify(arg)}`);
        }
        break;
      case 'const':
        if (!jsonEqual(arg, value)) fail(`must be ${JSON.stringify(arg)}`);
        break;
      case 'anyOf': {
        const failures = (arg as unknown[]).map(failsAgainst);
        if (failures.some((found) => found.length === 0)) break;
        // The branch that got furthest into the value says best what is wrong with it.
        const depth = (found: SchemaIssue[]) => Math.max(...found.map((issue) => issue.path.length));
        const closest = failures.reduce((best, found) => (depth(found) > depth(best) ? found : best));
        if (depth(closest) > path.length) issues.push(...closest);
        else fail('matches none of the schemas of anyOf');
        break;
      }
      case 'oneOf': {
        const matching = (arg as unknown[]).filter((sub) => failsAgainst(sub).length === 0).length;
        if (matching !== 1) fail(`must match exactly one schema of oneOf, matches ${matching}`);
        break;
      }
      case 'allOf':
        for (const sub of arg as unknown[]) validate(sub, value, path, root, issues);
        break;
      case 'not':
        if (failsAgainst(arg).length === 0) fail('must not match the schema of not');
        break;
      case 'minLength':
      case 'maxLength':
        // JSON Schema counts characters (code points), not UTF-16 units.
        if (typeof value === 'string') {
          const length = [...value].length;
          if (keyword === 'minLength' && length < (arg as number)) fail(`must be at least ${arg} characters`);
          if (keyword === 'maxLength' && length > (arg as number)) fail(`must be at most ${arg} characters`);
        }
        break;
      case 'pattern':
        if (typeof value === 'string' && !new RegExp(arg as string, 'u').test(value))
          fail(`must match ${arg}`);
        break;
      case 'minimum':
        if (typeof value === 'number' && value < (arg as number)) fail(`must be ≥ ${arg}`);
        break;
      case 'maximum':
        if (typeof value === 'number' && value > (arg as number)) fail(`must be ≤ ${arg}`);
        break;
      case 'exclusiveMinimum':
        if (typeof value === 'number' && value <= (arg as number)) fail(`must be > ${arg}`);
        break;
      case 'exclusiveMaximum':
        if (typeof value === 'number' && value >= (arg as number)) fail(`must be < ${arg}`);
        break;
      case 'multipleOf':
        if (typeof value === 'number' && !Number.isInteger(value / (arg as number)))
          fail(`must be a multiple of ${arg}`);
        break;
      case 'required':
        if (typeOf(value) === 'object') {
          for (const key of arg as string[]) {
            if (!Object.hasOwn(value as object, key))
              issues.push({ path: childPath(path, key), message: 'is required' });
          }
        }
        break;
      case 'minProperties':
      case 'maxProperties':
        if (typeOf(value) === 'object') {
          const count = Object.keys(value as object).length;
          if (keyword === 'minProperties' && count < (arg as number))
            fail(`must have at least ${arg} properties`);
          if (keyword === 'maxProperties' && count > (arg as number))
            fail(`must have at most ${arg} properties`);
        }
        break;
      case 'items':
        if (Array.isArray(value)) {
          const from = Array.isArray(s['prefixItems']) ? s['prefixItems'].length : 0;
          value
            .slice(from)
            .forEach((item, i) => validate(arg, item, childPath(path, from + i), root, issues));
        }
        break;
      case 'minItems':
        if (Array.isArray(value) && value.length < (arg as number)) fail(`must have at least ${arg} items`);
        break;
      case 'maxItems':
        if (Array.isArray(value) && value.length > (arg as number)) fail(`must have at most ${arg} items`);
        break;
      case 'uniqueItems':
        if (
          arg === true &&
          Array.isArray(value) &&
          value.some((item, i) => value.slice(0, i).some((other) => jsonEqual(item, other)))
        ) {
          fail('must not hold the same item twice');
        }
        break;
      default:
        throw new Error(`unsupported JSON Schema keyword "${keyword}" at ${path}`);
    }
  }

  if (Array.isArray(value) && Array.isArray(s['prefixItems'])) {
    s['prefixItems'].forEach((sub, i) => {
      if (i < value.length) validate(sub, value[i], childPath(path, i), root, issues);
    });
  }
  if (
    typeOf(value) === 'object' &&
    ('properties' in s || 'patternProperties' in s || 'additionalProperties' in s)
  ) {
    const properties = (s['properties'] ?? {}) as Record<string, unknown>;
    const patterns = Object.entries((s['patternProperties'] ?? {}) as Record<string, unknown>).map(
      ([pattern, sub]) => [new RegExp(pattern, 'u'), sub] as const,
    );
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      const at = childPath(path, key);
      let matched = false;
      if (Object.hasOwn(properties, key)) {
        matched = true;
        validate(properties[key], item, at, root, issues);
      }
      for (const [pattern, sub] of patterns) {
        if (!pattern.test(key)) continue;
        matched = true;
        validate(sub, item, at, root, issues);
      }
      if (!matched && 'additionalProperties' in s) {
        if (s['additionalProperties'] === false)
          issues.push({ path: at, message: 'is not an allowed property' });
        else validate(s['additionalProperties'], item, at, root, issues);
      }
    }
  }
}

/**
 * Every way `value` breaks `schema`; none when it is valid. `root` is the document local `$ref`s
 * point into (an OpenAPI document: `#/components/schemas/...`); by default the schema itself.
 */
export function validateJsonSchema(schema: unknown, value: unknown, root: unknown = schema): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  validate(schema, value, '$', root, issues);
  return issues;
}
