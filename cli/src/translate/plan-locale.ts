/**
 * What `tolk translate` asks of the model for one locale (DESIGN §13, §15): its missing and
 * outdated keys, a person's translations only as references, and with `--fix` the keys whose
 * translation has findings.
 */
import { type ParsedSource, type TargetKeys } from '@tolk/locale-file';
import type { KeyRuleMatcher } from '@tolk/contracts';
import type { TolkApi } from '../api/tolk-api.js';
import { CliError, ExitCode } from '../errors.js';
import type { LocalFiles } from '../files/file-sets.js';
import { parseLocaleDocument } from '../files/locale-files.js';
import { isUnsyncedLocal, type SyncState } from '../files/sync-state.js';
import { keysToFix, type FixLevel } from './fix.js';
import type { CompiledGlossary } from './glossary.js';
import { valuesOf } from './merge.js';

export type LocalePlan = {
  /** The target keys to ask of the model. */
  wanted: Set<string>;
  /** Wanted key → a person's translation of its earlier source text: the reference to keep. */
  references: Map<string, string>;
  /** Keys that would have been asked and are a person's translation, not outdated: kept. */
  keptHuman: string[];
  /** Key → a person's translation, for every key that has one. */
  humanValues: Map<string, string>;
  /** `--fix`: wanted key → what was found wrong in its reference (its current text). */
  fixes: Map<string, string[]>;
  /** The server's translations the plan was made with. */
  server: ReadonlyMap<string, string>;
};

export function nothingToPlan(): LocalePlan {
  return {
    wanted: new Set(),
    references: new Map(),
    keptHuman: [],
    humanValues: new Map(),
    fixes: new Map(),
    server: new Map(),
  };
}

/**
 * What to ask of the model for one locale (DESIGN §13): its missing and outdated keys (with
 * --force every key), except a person's translations: those are asked only when their source
 * changed (outdated), with the person's text as the reference, unless --overwrite-human. A
 * person's translation is one the server says is `human`, or a local value never uploaded
 * (tolk push or this run uploads it as `human`): with no record of the last sync, only where
 * the server has no value, since a difference may as well be the server's newer value.
 */
export async function planLocale(options: {
  api: TolkApi;
  projectId: string;
  locale: string;
  version: number;
  source: ParsedSource;
  target: TargetKeys;
  local: LocalFiles | undefined;
  /** Keys of files that could not be read: never asked. */
  unread: ReadonlySet<string>;
  syncState: SyncState;
  cwd: string;
  force: boolean;
  overwriteHuman: boolean;
  /** `--fix`: the findings to fix, and what judging a value needs. */
  fix?: { level: FixLevel; sourceLocale: string; rules: KeyRuleMatcher; glossary: CompiledGlossary };
}): Promise<LocalePlan> {
  const { api, projectId, locale, version, source, target, local } = options;
  const [detail, translations] = await Promise.all([
    api.getLocale(projectId, locale),
    api.getTranslations(projectId, locale),
  ]);
  if (detail.sourceVersion < version) {
    throw new CliError(
      'NOT_READY',
      `The server is still processing source version ${version} for ${locale}; run \`tolk translate\` again in a moment`,
      ExitCode.failure,
    );
  }
  const server = valuesOf(parseLocaleDocument(JSON.parse(translations.content), locale, options.cwd));
  const synced = options.syncState.locales[locale];
  const humanValues = new Map<string, string>();
  for (const key of target.keys) {
    const mine = local?.values.get(key);
    const theirs = server.get(key);
    if (isUnsyncedLocal(mine, theirs, synced?.get(key)) && (synced !== undefined || theirs === undefined)) {
      humanValues.set(key, mine);
    } else if (theirs !== undefined && translations.provenance[key]?.by === 'human') {
      humanValues.set(key, theirs);
    }
  }
  const outdated = new Set(detail.outdated);
  const candidates = (options.force ? target.keys : [...detail.missing, ...detail.outdated]).filter(
    (key) => !options.unread.has(key),
  );
  const plan: LocalePlan = { ...nothingToPlan(), humanValues, server };
  for (const key of candidates) {
    const human = options.overwriteHuman ? undefined : humanValues.get(key);
    if (human === undefined) plan.wanted.add(key);
    else if (outdated.has(key)) {
      plan.wanted.add(key);
      plan.references.set(key, human);
    } else plan.keptHuman.push(key);
  }
  if (options.fix) {
    const fixes = keysToFix({
      ...options.fix,
      locale,
      source,
      target,
      server,
      serverFindings: detail.findings,
      local: local?.values,
      synced,
    });
    for (const [key, { text, findings }] of fixes) {
      if (options.unread.has(key)) continue;
      plan.wanted.add(key);
      plan.references.set(key, text);
      plan.fixes.set(key, findings);
    }
    plan.keptHuman = plan.keptHuman.filter((key) => !plan.fixes.has(key));
  }
  return plan;
}
