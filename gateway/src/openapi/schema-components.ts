import { z } from 'zod';
import type { JsonSchema } from '@tolk/contracts';

export type { JsonSchema };

export const SCHEMA_REF_PREFIX = '#/components/schemas/';

export function schemaRef(name: string): JsonSchema {
  return { $ref: `${SCHEMA_REF_PREFIX}${name}` };
}

/**
 * The source of a regular expression with the `i` flag, rewritten to match the same strings
 * without it: JSON Schema patterns carry no flags, and zod drops them. Letters become both cases,
 * in character classes and out (`[a-z]` → `[a-zA-Z]`, `x` → `[xX]`). Escapes that would need
 * parsing (`\p{…}`, `\u…`, `\x…`, `\c…`, `\k<…>`) are refused rather than rewritten wrongly.
 */
export function caseInsensitivePattern(source: string): string {
  let result = '';
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === '\\') {
      const escaped = source[i + 1] ?? '';
      if ('pPuxck'.includes(escaped)) throw new Error(`unsupported escape \\${escaped} in /${source}/i`);
      result += char + escaped;
      i++;
    } else if (char === '[') {
      const end = classEnd(source, i);
      result += `[${bothCasesInClass(source.slice(i + 1, end))}]`;
      i = end;
    } else {
      result += isLetter(char) ? `[${char.toLowerCase()}${char.toUpperCase()}]` : char;
    }
  }
  return result;
}

function isLetter(char: string): boolean {
  return /^[a-z]$/i.test(char);
}

function classEnd(source: string, start: number): number {
  for (let i = start + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === ']') return i;
  }
  throw new Error(`unterminated character class in /${source}/`);
}

function otherCase(char: string): string {
  return char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase();
}

/** The body of a character class with every letter and letter range in both cases. */
function bothCasesInClass(body: string): string {
  let result = '';
  let added = '';
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char === '\\') {
      const escaped = body[i + 1] ?? '';
      if ('pPuxck'.includes(escaped)) throw new Error(`unsupported escape \\${escaped} in [${body}]`);
      result += char + escaped;
      i++;
      continue;
    }
    const rangeEnd = body[i + 1] === '-' ? body[i + 2] : undefined;
    if (rangeEnd !== undefined && rangeEnd !== ']' && isLetter(char) && isLetter(rangeEnd)) {
      result += `${char}-${rangeEnd}`;
      added += `${otherCase(char)}-${otherCase(rangeEnd)}`;
      i += 2;
    } else {
      result += char;
      if (isLetter(char)) added += otherCase(char);
    }
  }
  return result + added;
}

type ZodCheckDef = { check?: string; pattern?: RegExp };

/**
 * Tidies what zod emits for one schema node: a case-insensitive regex becomes a pattern that says
 * so (its original form kept in the description), and the ±2^53 bounds zod gives every integer (the safe-integer range, no rule of this API)
 * are left out.
 */
function tidy(ctx: { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }): void {
  const { jsonSchema } = ctx;
  const checks = (ctx.zodSchema._zod.def as { checks?: { _zod: { def: ZodCheckDef } }[] }).checks ?? [];
  const flagged = checks.map((check) => check._zod.def.pattern).filter((regex) => regex?.flags.includes('i'));
  for (const regex of flagged) {
    if (!regex) continue;
    const targets = [jsonSchema, ...((jsonSchema.allOf as JsonSchema[] | undefined) ?? [])];
    for (const target of targets) {
      if (target.pattern !== regex.source) continue;
      target.pattern = caseInsensitivePattern(regex.source);
      target.description ??= `Matches /${regex.source}/i (any case)`;
    }
  }
  if (jsonSchema.type === 'integer') {
    if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
    if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  }
}

/**
 * JSON Schemas of named zod schemas, for `components.schemas`: a named schema used inside another
 * becomes a `$ref` to it. Requests are described as the service accepts them (zod's input side:
 * defaults are optional, transforms not applied), responses as the service sends them.
 */
export function componentSchemas(
  named: Record<string, z.ZodType>,
  io: 'input' | 'output',
): Record<string, JsonSchema> {
  // A registry of this document's own: the services' schemas are not marked in the global one.
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'throw',
    uri: (id) => `${SCHEMA_REF_PREFIX}${id}`,
    override: (ctx) => tidy(ctx as { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }),
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      // The document is the schemas' base: each one's own $schema and $id would only re-root it.
      const { $schema: _dialect, $id: _id, ...rest } = schema as JsonSchema;
      return [id, rest];
    }),
  );
}

/** One zod schema's JSON Schema, inline (a parameter's). */
export function inlineSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'throw',
    override: (ctx) => tidy(ctx as { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }),
  }) as JsonSchema;
  return rest;
}
