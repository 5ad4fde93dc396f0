import {
  MAX_MEMORY_TEXT_LENGTH,
  type MemoryLookupBody,
  type MemoryLookupResponse,
  type Principal,
} from '@tolk/contracts';
import type { Queryable } from '@tolk/db';
import type { Logger } from '@tolk/logger';
import { NotFoundError } from '@tolk/errors';
import { sliceClock, type FlatEntries, type TargetKeys } from '@tolk/locale-file';
import { authorizeProject, type ProjectDirectory } from '@tolk/projects';
import type { LocalesRepository } from '../data-access/locales-repository.js';
import type { MemoryRepository } from '../data-access/memory-repository.js';
import { severityOf, type KeyFindings } from './locale-findings.js';
import type { MemoryLearning } from './memory-learning.js';

/** A source version's keys and texts indexed once: every upload made from it asks. */
type SourceTexts = {
  /** Key → index of the version's keys. */
  indexOf: Map<string, number>;
  /** Per key index, the id of its text: keys with the same text share one. */
  textOf: Int32Array;
  texts: number;
};

const sourceTexts = new WeakMap<readonly string[], SourceTexts>();

async function sourceTextsOf(made: FlatEntries, clock: ReturnType<typeof sliceClock>): Promise<SourceTexts> {
  const known = sourceTexts.get(made.keys);
  if (known) return known;
  const indexOf = new Map<string, number>();
  const textOf = new Int32Array(made.keys.length);
  const ids = new Map<string, number>();
  for (let i = 0; i < made.keys.length; i++) {
    if (clock.due()) await clock.next();
    indexOf.set(made.keys[i]!, i);
    const text = made.values[i]!;
    let id = ids.get(text);
    if (id === undefined) ids.set(text, (id = ids.size));
    textOf[i] = id;
  }
  const indexed = { indexOf, textOf, texts: ids.size };
  sourceTexts.set(made.keys, indexed);
  return indexed;
}

/**
 * What an upload adds to the memory: each plain key's translation whose value is new (not the
 * value stored before, which may have been made for an older source text), by the source text of
 * the version it was made from. A plural group's forms are left out: a form of the target locale
 * has no source text of its own. A person's value with an error finding is left out too (DESIGN
 * §15): what the memory offers is taken as the memory's and held to every rule, so a broken value
 * it offered would refuse the upload that took it. One translation per text, the last key's.
 */
export async function memoryOfUpload(
  made: FlatEntries,
  target: TargetKeys | undefined,
  uploaded: ReadonlyMap<string, string>,
  before: ReadonlyMap<string, string>,
  findings: KeyFindings,
): Promise<{ source: string; translation: string; key: string }[]> {
  const severity = severityOf(findings);
  // In time slices, as every walk over 200,000 keys.
  const clock = sliceClock();
  const { indexOf, textOf, texts } = await sourceTextsOf(made, clock);
  // Per text, the key (index) whose translation the memory learns, and that translation: by ids,
  // not by the texts, which a map would hash for every upload.
  const keyOfText = new Int32Array(texts).fill(-1);
  const translationOf: string[] = [];
  for (const [key, translation] of uploaded) {
    if (clock.due()) await clock.next();
    if (before.get(key) === translation) continue;
    if (target?.byKey.get(key)?.group) continue;
    if (severity(key) === 'error') continue;
    const at = indexOf.get(key);
    if (at === undefined) continue;
    const source = made.values[at]!;
    if (
      source === '' ||
      source.length > MAX_MEMORY_TEXT_LENGTH ||
      translation.length > MAX_MEMORY_TEXT_LENGTH
    ) {
      continue;
    }
    keyOfText[textOf[at]!] = at;
    translationOf[at] = translation;
  }
  const learned: { source: string; translation: string; key: string }[] = [];
  for (const at of keyOfText) {
    if (at >= 0)
      learned.push({ source: made.values[at]!, translation: translationOf[at]!, key: made.keys[at]! });
  }
  return learned;
}

/**
 * Translation memory lookups (DESIGN §13): identical source texts first in this project, then in
 * the caller's other projects — the projects project-service says the user is a member of now,
 * never any other; a project API token reaches its own project only.
 */
export function createMemory(deps: {
  memory: MemoryRepository;
  locales: Pick<LocalesRepository, 'find'>;
  directory: Pick<ProjectDirectory<unknown>, 'require' | 'readableBy'>;
  learning: Pick<MemoryLearning, 'catchUp'>;
  logger: Logger;
}) {
  const { memory, locales, directory, learning, logger } = deps;

  return {
    /** Keeps what an upload adds (see memoryOfUpload) in the upload's transaction, to be learned after it. */
    record: memory.defer,
    /** record in two steps: the lessons made ready before the transaction, kept in it. */
    lessons: memory.lessons,
    keep: memory.keep,

    async lookup(
      principal: Principal | undefined,
      projectId: string,
      locale: string,
      body: MemoryLookupBody,
    ): Promise<MemoryLookupResponse> {
      authorizeProject(principal, projectId, 'read');
      await directory.require(projectId);
      // The user's projects asked of project-service while the locale is looked up.
      const [found, readable] = await Promise.all([
        locales.find(projectId, locale),
        principal?.kind === 'user' ? directory.readableBy(principal.userId) : [],
      ]);
      if (!found) throw new NotFoundError(`Locale ${locale} is not a target locale of this project`);
      const ids = [...new Set([projectId, ...readable])];
      await learning.catchUp(ids, locale);
      const { texts } = body;
      const near = body.near ?? 0;
      const exact = await memory.exact(ids, projectId, locale, texts);
      const similar = near > 0 ? await memory.near(ids, locale, texts, near) : undefined;
      const timedOut = near > 0 && !similar;
      if (timedOut) logger.warn({ projectId, locale, texts: texts.length }, 'near-match search given up');
      return {
        ...(timedOut && { nearTimedOut: true }),
        matches: texts.map((text, i) => ({
          text,
          exact: exact[i] ?? null,
          near: similar?.[i] ?? [],
        })),
      };
    },

    /** A locale removed from the project takes its memory with it. */
    forgetLocale(projectId: string, locale: string, tx: Queryable) {
      return memory.forgetLocale(projectId, locale, tx);
    },
  };
}

export type Memory = ReturnType<typeof createMemory>;
