import { z } from 'zod';
import {
  MAX_GLOSSARY_ENTRIES,
  glossaryEntryInputSchema,
  glossaryTermKey,
  type GlossaryEntryInput,
} from '@tolk/contracts';
import { JSON_BODY_REQUIRED, ValidationError, parseInput } from '@tolk/http';

/** A bad import names its first problems, not all of 10,000. */
const MAX_PROBLEMS_NAMED = 20;

/**
 * How long validation runs before other requests get a turn of the event loop: an import at the
 * body limit holds up to 800,000 locale codes and renderings, 0.7 s of checks when it names a
 * few locales and 5 s when it names thousands.
 */
const SLICE_MS = 10;

const turnOfTheEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

const count = (n: number) => n.toLocaleString('en-US');

const importShape = z.object(
  {
    entries: z
      .array(z.unknown(), {
        error: (issue) => (issue.input === undefined ? 'is required' : 'must be an array of entries'),
      })
      .max(MAX_GLOSSARY_ENTRIES, {
        error: (issue) =>
          `has ${count((issue.input as unknown[]).length)} entries; a project's glossary holds at most ` +
          `${count(MAX_GLOSSARY_ENTRIES)} (nothing was imported)`,
      }),
  },
  { error: 'must be a JSON object' },
);

function listed(problems: string[]): string {
  const named = problems.slice(0, MAX_PROBLEMS_NAMED).join('; ');
  const more = problems.length - MAX_PROBLEMS_NAMED;
  return more > 0 ? `${named}; and ${count(more)} more problems` : named;
}

/**
 * The body of `PUT .../glossary`: `{entries: [...]}`, each entry as POST takes it, no two with
 * one term (ignoring case). The count is checked before any entry, and each entry on its own, so
 * that a message names the entry (`body.entries.3.term`) and stays short however bad the import.
 * Entries are checked in slices of SLICE_MS, yielding to the event loop between them.
 */
export async function parseGlossaryImport(body: unknown): Promise<GlossaryEntryInput[]> {
  if (body === undefined) throw new ValidationError(JSON_BODY_REQUIRED);
  const { entries } = parseInput(importShape, body);
  const problems: string[] = [];
  const parsed: GlossaryEntryInput[] = [];
  let sliceStart = performance.now();
  for (const [index, entry] of entries.entries()) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await turnOfTheEventLoop();
      sliceStart = performance.now();
    }
    const result = glossaryEntryInputSchema.safeParse(entry);
    if (result.success) parsed.push(result.data);
    else {
      for (const issue of result.error.issues) {
        const path = ['body', 'entries', index, ...issue.path].map(String).join('.');
        problems.push(`${path}: ${issue.message}`);
      }
    }
  }
  if (problems.length > 0) throw new ValidationError(listed(problems));

  const indexesByKey = new Map<string, number[]>();
  parsed.forEach((entry, index) => {
    const key = glossaryTermKey(entry.term);
    indexesByKey.set(key, [...(indexesByKey.get(key) ?? []), index]);
  });
  const duplicates = [...indexesByKey.values()]
    .filter((indexes) => indexes.length > 1)
    .map((indexes) => `${JSON.stringify(parsed[indexes[0]!]!.term)} (entries ${indexes.join(', ')})`);
  if (duplicates.length > 0) {
    throw new ValidationError(
      `body.entries: each term may appear once (terms are compared ignoring case); duplicated: ${listed(duplicates)}`,
    );
  }
  return parsed;
}
