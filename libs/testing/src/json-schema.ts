import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';

/**
 * JSON Schema (2020-12) validation with ajv, so tests can hold live answers to the published
 * OpenAPI document. ajv runs in strict mode: a keyword or format it does not know throws rather
 * than let a value pass unchecked.
 */

export type SchemaIssue = { path: string; message: string };

/** The id the root document is known by, so its local `$ref`s resolve inside it. */
const ROOT_ID = 'urn:tolk:root';

/** One ajv (with its compiled schemas) per root document; a test holds many answers to one. */
const validators = new WeakMap<object, { ajv: Ajv2020; compiled: Map<string, ValidateFunction> }>();

/** The schema with its local `$ref`s pointed into the root document. */
function pointedAtRoot(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(pointedAtRoot);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([keyword, value]) => {
      if (keyword !== '$ref' || typeof value !== 'string') return [keyword, pointedAtRoot(value)];
      if (!value.startsWith('#')) throw new Error(`only local $ref are supported: ${value}`);
      return [keyword, `${ROOT_ID}${value}`];
    }),
  );
}

function compile(schema: unknown, root: unknown): ValidateFunction {
  if (root === null || typeof root !== 'object') throw new Error('the root document must be an object');
  let entry = validators.get(root);
  if (!entry) {
    // allErrors: every way a value is wrong, not only the first.
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    // The root document's own members that are not schema keywords (an OpenAPI document's
    // `openapi`, `paths`, `components`…) are made known so it loads; every schema a `$ref` reaches
    // in it is still compiled strictly.
    ajv.addVocabulary(Object.keys(root).filter((member) => root !== schema && !ajv.getKeyword(member)));
    ajv.addSchema(root, ROOT_ID);
    entry = { ajv, compiled: new Map() };
    validators.set(root, entry);
  }
  const key = JSON.stringify(schema);
  let validate = entry.compiled.get(key);
  if (!validate) {
    try {
      validate = entry.ajv.compile(pointedAtRoot(schema) as object);
    } catch (err) {
      const message = (err as Error).message;
      throw new Error(
        /can't resolve reference/.test(message) ? `$ref does not resolve: ${message}` : message,
        { cause: err },
      );
    }
    entry.compiled.set(key, validate);
  }
  return validate;
}

/** `$.items[0].name` for ajv's `/items/0/name`; the member that is missing or extra is named too. */
function issueOf(error: ErrorObject): SchemaIssue {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') segments.push(String(error.params['missingProperty']));
  if (error.keyword === 'additionalProperties') segments.push(String(error.params['additionalProperty']));
  const path = segments.reduce(
    (at, segment) =>
      /^\d+$/.test(segment)
        ? `${at}[${segment}]`
        : /^[A-Za-z_$][\w$]*$/.test(segment)
          ? `${at}.${segment}`
          : `${at}[${JSON.stringify(segment)}]`,
    '$',
  );
  return { path, message: error.message ?? error.keyword };
}

/**
 * Every way `value` breaks `schema`; none when it is valid. `root` is the document local `$ref`s
 * point into (an OpenAPI document: `#/components/schemas/...`); by default the schema itself.
 */
export function validateJsonSchema(schema: unknown, value: unknown, root: unknown = schema): SchemaIssue[] {
  const validate = compile(schema, root);
  return validate(value) ? [] : (validate.errors ?? []).map(issueOf);
}
