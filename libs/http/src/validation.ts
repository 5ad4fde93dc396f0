import type { z } from 'zod';
import { ValidationError } from './errors.js';

function describeIssue(issue: z.core.$ZodIssue, root: string): string {
  const path = issue.path.map(String).join('.');
  return `${path ? `${root}.${path}` : root}: ${issue.message}`;
}

/** Parses untrusted input; a failure is a ValidationError naming every offending field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, root = 'body'): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    throw new ValidationError(result.error.issues.map((issue) => describeIssue(issue, root)).join('; '));
  }
  return result.data;
}
