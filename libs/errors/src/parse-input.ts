import type { z } from 'zod';
import { ValidationError } from './errors.js';

/** What a route that needs a body says when it got none (decodeJsonBody reads no bytes as no body). */
export const JSON_BODY_REQUIRED = 'body: a JSON body is required';

function describeIssue(issue: z.core.$ZodIssue, root: string): string {
  const path = issue.path.map(String).join('.');
  return `${path ? `${root}.${path}` : root}: ${issue.message}`;
}

/**
 * Parses untrusted input (a request's body or query, a member of an uploaded document the domain
 * reads) with its schema; a failure is a ValidationError naming every offending field.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, root = 'body'): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    // No body at all (the frame leaves it undefined) where the route needs one.
    if (input === undefined && root === 'body') throw new ValidationError(JSON_BODY_REQUIRED);
    throw new ValidationError(result.error.issues.map((issue) => describeIssue(issue, root)).join('; '));
  }
  return result.data;
}
