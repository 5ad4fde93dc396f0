import type { Request, Response } from 'express';
import pLimit from 'p-limit';
import { z } from 'zod';
import {
  MAX_GLOSSARY_ENTRIES,
  MAX_GLOSSARY_IMPORT_LOCALES,
  MAX_GLOSSARY_LOCALES,
  MAX_GLOSSARY_IMPORT_RENDERINGS,
  glossaryEntryInputSchema,
  glossaryTermKey,
  type GlossaryEntryInput,
  type Principal,
} from '@tolk/contracts';
import {
  AppError,
  JSON_BODY_REQUIRED,
  PayloadTooLargeError,
  ValidationError,
  parseInput,
} from '@tolk/errors';
import { parseJsonText } from '@tolk/http';
import { timeSlices } from '../../domain/time-slices.js';

/** A bad import names its first problems, not all of 10,000. */
const MAX_PROBLEMS_NAMED = 20;

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

/**
 * The most object members (a name and its value) an import's JSON may hold: `entries`, ten
 * fields an entry (an entry as GET gives it has eight) and the renderings. Parsing takes
 * 0.3-0.8 µs a member, and an import body of 8 MiB may hold 900,000.
 */
const MAX_IMPORT_MEMBERS = 1 + 10 * MAX_GLOSSARY_ENTRIES + MAX_GLOSSARY_IMPORT_RENDERINGS;

/** The object members of JSON text (its `:` outside strings), counted at a byte a nanosecond. */
function jsonMembers(text: Buffer): number {
  let members = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const byte = text[i];
    if (inString) {
      if (byte === 0x5c) i++;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x3a) members++;
  }
  return members;
}

/**
 * An import's entries from its body's JSON text (project-service parses it here, not in the
 * frame, so that one caller's imports are parsed one after another too): 413 before parsing a
 * text that holds more than an import may, then parseGlossaryImport.
 */
export async function readGlossaryImport(text: Buffer | undefined): Promise<GlossaryEntryInput[]> {
  if (text === undefined) throw new ValidationError(JSON_BODY_REQUIRED);
  const members = jsonMembers(text);
  if (members > MAX_IMPORT_MEMBERS) {
    throw new PayloadTooLargeError(
      `body: holds ${count(members)} names with values; an import holds at most ${count(MAX_IMPORT_MEMBERS)}: ` +
        `its entries, 10 fields for each of ${count(MAX_GLOSSARY_ENTRIES)} entries and ` +
        `${count(MAX_GLOSSARY_IMPORT_RENDERINGS)} renderings (nothing was imported)`,
    );
  }
  return parseGlossaryImport(parseJsonText(text));
}

/** How soon a refused import may try again: the imports ahead of it take a second or two each. */
const RETRY_AFTER_SECONDS = 5;

/**
 * A check that throws unless an answer sent now would still reach whoever sent the request: the
 * connection is open (the gateway closes it when it gives up waiting, or when its client left)
 * and `timeoutMs` have not passed since the request arrived. An import calls it before its
 * work and just before it commits, so that what it stores is always what it answers: an import
 * that cannot answer in time is refused with 503 SERVICE_UNAVAILABLE and rolled back, rather
 * than committed after the gateway has answered 504.
 */
export function answerAwaited(res: Response, timeoutMs: number): () => void {
  const deadline = performance.now() + timeoutMs;
  let gone = false;
  res.once('close', () => (gone = true));
  return () => {
    if (gone) {
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        'The import was given up by its sender (or by the gateway waiting for it) before it was stored; ' +
          'nothing was imported',
      );
    }
    if (performance.now() > deadline) {
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        `The import could not be stored within ${count(timeoutMs / 1000)} s of its arrival (other imports ` +
          `ran first); nothing was imported. Retry after ${RETRY_AFTER_SECONDS} s`,
        { retryAfterSeconds: RETRY_AFTER_SECONDS },
      );
    }
  };
}

/** Whose imports run one after another: a member's, or a project API token's. */
function callerOf(principal: Principal | undefined): string {
  if (principal === undefined) return '';
  return principal.kind === 'user' ? `user:${principal.userId}` : `token:${principal.tokenId}`;
}

/**
 * How imports take turns. One caller's imports run one after another (ten sent at once by one
 * member take turns with everyone else's requests as one would), and at most `atOnce` imports of
 * all callers run at a time, first come first served: a caller has one import waiting at most,
 * so callers take turns. Without that bound, one user importing through their session and a
 * dozen project API tokens at once held every connection of the service's database pool (each
 * import's transaction waiting for the project's lock) and shared its event loop a dozen ways:
 * another user's reads took more than 5 s. An import whose answer is no longer awaited when its
 * turn comes (answerAwaited) is refused without being read.
 */
export function createImportTurns(options: { atOnce: number; timeoutMs: number }) {
  const running = pLimit(options.atOnce);
  const queues = new Map<string, Promise<unknown>>();
  return async function inTurn<T>(
    req: Request,
    res: Response,
    work: (awaited: () => void) => Promise<T>,
  ): Promise<T> {
    const awaited = answerAwaited(res, options.timeoutMs);
    const caller = callerOf(req.principal);
    const run = () =>
      running(() => {
        awaited();
        return work(awaited);
      });
    const turn = (queues.get(caller) ?? Promise.resolve()).then(run, run);
    const settled = turn.catch(() => undefined);
    queues.set(caller, settled);
    void settled.then(() => {
      if (queues.get(caller) === settled) queues.delete(caller);
    });
    return turn;
  };
}

/**
 * What is wrong with an entry's translations that have more locales than an entry may: counted
 * before the entry's schema reads them, which takes 2-3 µs a locale (a body of 1 MiB holds
 * 100,000 of them).
 */
export function tooManyLocales(translations: unknown): string | undefined {
  if (typeof translations !== 'object' || translations === null) return undefined;
  let locales = 0;
  for (const _ in translations) locales++;
  return locales > MAX_GLOSSARY_LOCALES
    ? `must have at most ${MAX_GLOSSARY_LOCALES} locales (it has ${count(locales)})`
    : undefined;
}

/**
 * 413 for an import carrying more renderings, or naming more locale codes, than one import may
 * (see MAX_GLOSSARY_IMPORT_RENDERINGS): counted before any entry is checked, since that is what
 * checking costs, and only as far as the limits (the rest of a refused import is not read).
 */
async function refuseOversizedImport(entries: readonly unknown[], turn: () => Promise<void>) {
  let renderings = 0;
  const locales = new Set<string>();
  for (const entry of entries) {
    await turn();
    const translations = (entry as { translations?: unknown } | null)?.translations;
    if (typeof translations !== 'object' || translations === null) continue;
    for (const locale in translations) {
      if (++renderings > MAX_GLOSSARY_IMPORT_RENDERINGS) {
        throw new PayloadTooLargeError(
          `body.entries: holds more than ${count(MAX_GLOSSARY_IMPORT_RENDERINGS)} renderings, the most ` +
            'one import carries (nothing was imported)',
        );
      }
      locales.add(locale);
      if (locales.size > MAX_GLOSSARY_IMPORT_LOCALES) {
        throw new PayloadTooLargeError(
          `body.entries: names more than ${count(MAX_GLOSSARY_IMPORT_LOCALES)} different locale codes, ` +
            'the most one import names (nothing was imported)',
        );
      }
    }
  }
}

function listed(problems: string[]): string {
  const named = problems.slice(0, MAX_PROBLEMS_NAMED).join('; ');
  const more = problems.length - MAX_PROBLEMS_NAMED;
  return more > 0 ? `${named}; and ${count(more)} more problems` : named;
}

/**
 * The body of `PUT .../glossary`: `{entries: [...]}`, each entry as POST takes it, no two with
 * one term (ignoring case). The count is checked before any entry, and each entry on its own, so
 * that a message names the entry (`body.entries.3.term`) and stays short however bad the import.
 * The entries are read in time slices (timeSlices): checking 250,000 renderings takes 0.7 s.
 */
export async function parseGlossaryImport(body: unknown): Promise<GlossaryEntryInput[]> {
  if (body === undefined) throw new ValidationError(JSON_BODY_REQUIRED);
  const { entries } = parseInput(importShape, body);
  const turn = timeSlices();
  await refuseOversizedImport(entries, turn);
  const problems: string[] = [];
  const parsed: GlossaryEntryInput[] = [];
  for (const [index, entry] of entries.entries()) {
    await turn();
    const locales = tooManyLocales((entry as { translations?: unknown } | null)?.translations);
    if (locales) {
      problems.push(`body.entries.${index}.translations: ${locales}`);
      continue;
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
