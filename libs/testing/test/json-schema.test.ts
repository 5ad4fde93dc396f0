import { describe, expect, it } from 'vitest';
import { validateJsonSchema } from '@tolk/testing';

const paths = (schema: unknown, value: unknown, root?: unknown) =>
  validateJsonSchema(schema, value, root)
    .map((issue) => issue.path)
    .sort();

describe('validateJsonSchema', () => {
  it('when a value is valid, then no issue; otherwise each issue at its path', () => {
    const schema = {
      type: 'object',
      properties: {
        id: { type: 'string', minLength: 1 },
        items: { type: 'array', items: { type: 'integer' } },
        '@meta': { type: 'object' },
      },
      required: ['id', 'items'],
      additionalProperties: false,
    };
    expect(validateJsonSchema(schema, { id: 'a', items: [1, 2], '@meta': {} })).toEqual([]);
    expect(paths(schema, { items: [1, 'b'], extra: true, '@meta': 'x' })).toEqual([
      '$.extra',
      '$.id',
      '$.items[1]',
      '$["@meta"]',
    ]);
    expect(validateJsonSchema({ type: 'integer' }, 3.5)).toEqual([{ path: '$', message: 'must be integer' }]);
  });

  it('checks strings by code points, as JSON Schema counts them', () => {
    // Two emoji: four UTF-16 units, two characters.
    expect(paths({ type: 'string', maxLength: 2 }, '😀😀')).toEqual([]);
    expect(paths({ type: 'string', maxLength: 2 }, '😀😀😀')).toEqual(['$']);
  });

  it('follows local $refs into the root document, recursively', () => {
    const root = {
      openapi: '3.1.0',
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
    expect(paths({ type: 'array', items: tree }, [{ a: 'x' }, { b: 1 }], root)).toContain('$[1].b');
    expect(() => validateJsonSchema({ $ref: '#/components/schemas/Missing' }, 1, root)).toThrow(
      /does not resolve/,
    );
  });

  it('refuses keywords and formats it does not know rather than pass a value unchecked', () => {
    expect(paths({ type: 'string', description: 'x', default: '', examples: [] }, 'a')).toEqual([]);
    expect(() => validateJsonSchema({ maxLenght: 1 }, 'ab')).toThrow(/unknown keyword: "maxLenght"/);
    expect(() => validateJsonSchema({ type: 'string', format: 'tolk-id' }, 'a')).toThrow(/unknown format/);
    expect(() => validateJsonSchema({ $ref: 'https://example.com/schema' }, {})).toThrow(/only local \$ref/);
  });
});
