import { describe, expect, it } from 'vitest';
import { validateJsonSchema } from '@tolk/testing';

const paths = (schema: unknown, value: unknown, root?: unknown) =>
  validateJsonSchema(schema, value, root)
    .map((issue) => issue.path)
    .sort();

describe('validateJsonSchema', () => {
  it('when a value has the type, then no issue; otherwise one naming both types', () => {
    expect(validateJsonSchema({ type: 'string' }, 'x')).toEqual([]);
    expect(validateJsonSchema({ type: ['string', 'null'] }, null)).toEqual([]);
    expect(validateJsonSchema({ type: 'integer' }, 3)).toEqual([]);
    expect(validateJsonSchema({ type: 'integer' }, 3.5)).toEqual([
      { path: '$', message: 'must be of type integer, not number' },
    ]);
    expect(paths({ type: 'object' }, [])).toEqual(['$']);
    expect(paths({ type: 'array' }, {})).toEqual(['$']);
    expect(paths({ type: 'number' }, '1')).toEqual(['$']);
    expect(paths({ type: 'boolean' }, 0)).toEqual(['$']);
  });

  it('checks strings by code points and patterns with the u flag', () => {
    const schema = { type: 'string', minLength: 2, maxLength: 3, pattern: '^[a-z]+$' };
    expect(paths(schema, 'ab')).toEqual([]);
    expect(paths(schema, 'a')).toEqual(['$']);
    expect(paths(schema, 'abcd')).toEqual(['$']);
    expect(paths(schema, 'aB')).toEqual(['$']);
    // Two emoji: four UTF-16 units, two characters.
    expect(paths({ type: 'string', maxLength: 2 }, '😀😀')).toEqual([]);
  });

  it('checks numbers against bounds and multiples', () => {
    const schema = { type: 'integer', minimum: 0, maximum: 10, multipleOf: 2 };
    expect(paths(schema, 4)).toEqual([]);
    expect(paths(schema, -2)).toEqual(['$']);
    expect(paths(schema, 12)).toEqual(['$']);
    expect(paths(schema, 3)).toEqual(['$']);
    expect(paths({ exclusiveMinimum: 0, exclusiveMaximum: 1 }, 0)).toEqual(['$']);
    expect(paths({ exclusiveMinimum: 0, exclusiveMaximum: 1 }, 0.5)).toEqual([]);
  });

  it('checks enum and const by value', () => {
    expect(paths({ enum: ['read', 'read_write'] }, 'read')).toEqual([]);
    expect(paths({ enum: ['read', 'read_write'] }, 'write')).toEqual(['$']);
    expect(paths({ const: { a: [1] } }, { a: [1] })).toEqual([]);
    expect(paths({ const: true }, false)).toEqual(['$']);
  });

  it('checks objects: required, properties, additional and pattern properties, each at its path', () => {
    const schema = {
      type: 'object',
      properties: { id: { type: 'string' }, count: { type: 'integer' } },
      patternProperties: { '^@': { type: 'object' } },
      required: ['id', 'count'],
      additionalProperties: false,
    };
    expect(paths(schema, { id: 'a', count: 1, '@id': {} })).toEqual([]);
    expect(paths(schema, { id: 1, extra: true, '@id': 'x' })).toEqual([
      '$.count',
      '$.extra',
      '$.id',
      '$["@id"]',
    ]);
    expect(paths({ additionalProperties: { type: 'string' } }, { a: 'x', b: 2 })).toEqual(['$.b']);
    expect(paths({ minProperties: 1 }, {})).toEqual(['$']);
  });

  it('checks arrays: items after prefixItems, length, uniqueness', () => {
    const schema = {
      type: 'array',
      prefixItems: [{ type: 'string' }],
      items: { type: 'integer' },
      minItems: 1,
      maxItems: 3,
    };
    expect(paths(schema, ['a', 1, 2])).toEqual([]);
    expect(paths(schema, [1, 'b'])).toEqual(['$[0]', '$[1]']);
    expect(paths(schema, [])).toEqual(['$']);
    expect(paths(schema, ['a', 1, 2, 3])).toEqual(['$']);
    expect(paths({ uniqueItems: true }, [{ a: 1 }, { a: 1 }])).toEqual(['$']);
  });

  it('combines schemas with anyOf, oneOf, allOf and not', () => {
    const nullableString = { anyOf: [{ type: 'string' }, { type: 'null' }] };
    expect(paths(nullableString, null)).toEqual([]);
    expect(paths(nullableString, 1)).toEqual(['$']);
    expect(paths({ oneOf: [{ type: 'integer' }, { type: 'number' }] }, 1)).toEqual(['$']);
    expect(paths({ oneOf: [{ type: 'integer' }, { type: 'number' }] }, 1.5)).toEqual([]);
    expect(paths({ allOf: [{ minimum: 1 }, { maximum: 2 }] }, 3)).toEqual(['$']);
    expect(paths({ not: { type: 'null' } }, null)).toEqual(['$']);
  });

  it('follows local $refs into the root document, recursively', () => {
    const root = {
      components: {
        schemas: {
          Tree: {
            type: 'object',
            additionalProperties: { anyOf: [{ type: 'string' }, { $ref: '#/components/schemas/Tree' }] },
          },
        },
      },
    };
    const tree = { $ref: '#/components/schemas/Tree' };
    expect(paths(tree, { a: 'x', b: { c: 'y', d: { e: 'z' } } }, root)).toEqual([]);
    expect(paths(tree, { a: 'x', b: { c: 'y', d: { e: 1 } } }, root)).toEqual(['$.b.d.e']);
    expect(() => validateJsonSchema({ $ref: '#/components/schemas/Missing' }, 1, root)).toThrow(
      /does not resolve/,
    );
  });

  it('ignores annotations, and refuses keywords it does not know rather than pass a value unchecked', () => {
    expect(
      paths({ type: 'string', description: 'x', format: 'email', default: '', examples: [] }, 'a'),
    ).toEqual([]);
    expect(() => validateJsonSchema({ propertyNames: { maxLength: 1 } }, {})).toThrow(
      /unsupported JSON Schema keyword "propertyNames"/,
    );
    expect(() => validateJsonSchema({ $ref: 'https://example.com/schema' }, {})).toThrow(/only local \$ref/);
  });

  it('accepts true and refuses false as schemas', () => {
    expect(paths({ properties: { a: true, b: false } }, { a: 1, b: 2 })).toEqual(['$.b']);
  });
});
