import type { Request } from 'express';
import { z } from 'zod';
import { ValidationError, parseInput } from '@tolk/errors';

/** A route's query parameters: an object schema over strings (each parameter's one value). */
export type QuerySchema = z.ZodObject;

/** The query of a route that takes no parameters. */
export const NO_QUERY_PARAMETERS: QuerySchema = z.strictObject({});

/** A parameter name echoed in a message; a hostile one may be kilobytes long. */
const MAX_NAME_IN_MESSAGE = 64;

function shown(name: string): string {
  if (name === '') return '""';
  return name.length > MAX_NAME_IN_MESSAGE ? `${name.slice(0, MAX_NAME_IN_MESSAGE)}…` : name;
}

/**
 * The query parameters of a request, checked against `schema`: each one exactly once, each one
 * the schema names, each one a value of its type. Read from the URL itself, not from express's
 * `req.query`: its parser turns `a[]=x` into a name the handler never asks for (so `dryRun[]=true`
 * was read as "no dry run" and stored a version) or, with the extended parser, into arrays and
 * objects. Everything the handler does not read is refused, so no spelling of a parameter can be
 * silently ignored.
 */
export function parseQuery<S extends QuerySchema>(schema: S, req: Pick<Request, 'url'>): z.infer<S> {
  const mark = req.url.indexOf('?');
  const allowed = Object.keys(schema.shape);
  if (mark === -1) return parseInput(schema, {}, 'query');
  const params = new URLSearchParams(req.url.slice(mark + 1));
  const values: Record<string, string> = {};
  const counts = new Map<string, number>();
  const problems: string[] = [];
  const accepted =
    allowed.length === 0
      ? 'this route takes no query parameters'
      : `this route accepts ${allowed.join(', ')}, each once`;
  for (const [name, value] of params) {
    counts.set(name, (counts.get(name) ?? 0) + 1);
    if (counts.get(name) === 1) values[name] = value;
  }
  for (const [name, count] of counts) {
    const bracket = name.indexOf('[');
    if (bracket !== -1 || name.includes(']')) {
      const base = name.slice(0, bracket === -1 ? undefined : bracket);
      problems.push(
        allowed.includes(base)
          ? `query.${shown(name)}: bracket syntax is not accepted; send ${base}=<value> once`
          : `query.${shown(name)}: bracket syntax is not accepted; ${accepted}`,
      );
    } else if (!allowed.includes(name)) {
      problems.push(`query.${shown(name)}: is not a parameter of this route; ${accepted}`);
    } else if (count > 1) {
      problems.push(`query.${name}: given ${count} times; send it once`);
    }
  }
  if (problems.length > 0) throw new ValidationError(problems.join('; '));
  return parseInput(schema, values, 'query');
}
