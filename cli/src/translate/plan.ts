/**
 * The work of a `tolk translate` run (DESIGN §13): for each chosen locale, the keys asked of the
 * model in batches, those translation memory filled without it, and the outcome the run fills in
 * as it goes.
 */
import type { LocaleResponse } from '@tolk/contracts';
import type { TargetKeys } from '@tolk/locale-file';
import type { TranslationUnit } from './units.js';

/** What happened to one locale, as the summary and --json report it. */
export type LocaleOutcome = {
  locale: string;
  file: string;
  /** Keys asked of the model: the target locale's (a plural group's forms in that locale). */
  requested: number;
  translated: number;
  /** Keys filled from translation memory (among `translated`), without the model. */
  fromMemory: number;
  /**
   * The batches (numbered as the progress shows them) sent without examples from translation
   * memory because the server gave its similarity search up: it took too long.
   */
  memoryExamplesSkipped: number[];
  failedKeys: string[];
  problems: string[];
  /** Keys kept without the glossary's rendering of a term after every attempt, and why (DESIGN §13). */
  glossaryMisses: { key: string; message: string }[];
  uploaded: boolean;
  /** Keys whose local value, never uploaded, a new translation replaced (it was for an older source). */
  replacedLocal: string[];
  /**
   * Keys a person translated on the server while this run was translating them: their translation
   * is kept, the model's is not uploaded.
   */
  keptHumanMeanwhile: string[];
  /**
   * The server's translations changed between the download the upload was merged with and the
   * upload (412): this many of the run's keys were merged with the newer ones and uploaded.
   */
  mergedAgain: { keys: number } | null;
  /** Keys only people translate (key rules) still without a translation. */
  leftForPeople: string[];
  /** Keys a person translated that would have been asked of the model and were not (DESIGN §13). */
  keptHuman: number;
  /** Keys a person translated whose source changed: asked with that translation as the reference. */
  humanReferences: number;
  /** `--fix`: the keys whose translation has findings to fix, asked with it as the reference. */
  toFix: number;
  /** `--fix`: of those, the keys whose fixed translation was stored (it passed every rule). */
  fixed: number;
  status: LocaleResponse['status'] | null;
  error: { code: string; message: string } | null;
};

export type LocaleWork = {
  locale: string;
  /** The locale's keys (DESIGN §11: each plural group as the locale's forms). */
  target: TargetKeys;
  /** The target keys asked for. */
  keys: string[];
  batches: TranslationUnit[][];
  /** Target key → a person's translation of its earlier source text, sent as the reference. */
  references: Map<string, string>;
  /** `--fix`: target key → what was found wrong in its reference. */
  fixes: Map<string, string[]>;
  /** Keys asked only as part of their plural group: a person's, kept whatever the model answers. */
  keepHuman: Set<string>;
  /** The server's translations when the work was planned. */
  planned: ReadonlyMap<string, string>;
  /**
   * Keys of files that could not be read (DESIGN §15): what they hold may be a person's work, so
   * they are not translated, and their files are not written.
   */
  unread: ReadonlySet<string>;
  remaining: number;
  translated: Map<string, string>;
  /** The keys of `translated` that came from translation memory. */
  fromMemory: Set<string>;
  failed: Set<string>;
  outcome: LocaleOutcome;
};
