import {
  PROVENANCE_MEMBER,
  provenanceClaimSchema,
  type KeyProvenance,
  type ProvenanceClaim,
  type ShownProvenance,
} from '@tolk/contracts';
import { parseInput, ValidationError } from '@tolk/errors';
import { compress, decompress, sliceClock } from '@tolk/locale-file';
import { nameKeys } from './name-keys.js';

/**
 * Who wrote each translation of a locale (DESIGN §13), and the small pure helpers every path
 * that changes a locale's translations goes through: an upload (claims, keeping what did not
 * change), and renames and restores carrying a key's translation over to another key.
 */

/** One key's provenance: `ai` with its model, `human` or `memory`, and when it was stored. */
export type Provenance = KeyProvenance;

/** Key → provenance; a key without an entry has none known (stored before provenance was kept). */
export type ProvenanceMap = ReadonlyMap<string, Provenance>;

export const NO_PROVENANCE: ProvenanceMap = new Map();

/** The provenance of `key`, if known. */
export function provenanceOf(map: ProvenanceMap, key: string): Provenance | undefined {
  return map.get(key);
}

/**
 * `map` with `key` given the provenance `from` had in `source` (a rename or a restore carries a
 * translation over, and who wrote it with it); unchanged when `from` has none.
 */
export function carryProvenance(
  map: ProvenanceMap,
  key: string,
  source: ProvenanceMap,
  from: string,
): Map<string, Provenance> {
  const next = new Map(map);
  const carried = source.get(from);
  if (carried) next.set(key, carried);
  return next;
}

/** `base` with every entry of `changes` set over it. */
export function mergeProvenance(base: ProvenanceMap, changes: ProvenanceMap): Map<string, Provenance> {
  const next = new Map(base);
  for (const [key, provenance] of changes) next.set(key, provenance);
  return next;
}

/** Only the keys in `keys`, in their order. */
export function keepProvenanceOf(map: ProvenanceMap, keys: Iterable<string>): Map<string, Provenance> {
  const kept = new Map<string, Provenance>();
  for (const key of keys) {
    const provenance = map.get(key);
    if (provenance) kept.set(key, provenance);
  }
  return kept;
}

/** The writer of a stored translation whose provenance is not known (stored before it was kept). */
export const UNKNOWN_WRITER: ShownProvenance = { by: 'unknown' };

/**
 * Who wrote `key`'s stored translation as it is shown: its provenance, or `unknown` where none is
 * known (every key stored before provenance was kept, or carried over from one); null when the
 * key has no stored translation.
 */
export function shownProvenanceOf(
  map: ProvenanceMap,
  stored: ReadonlyMap<string, string>,
  key: string,
): ShownProvenance | null {
  return map.get(key) ?? (stored.has(key) ? UNKNOWN_WRITER : null);
}

/** A validated claim: key → who wrote it (`ai` with the model, or `memory`). */
export type ClaimedKeys = ReadonlyMap<string, Omit<Provenance, 'at'>>;

/**
 * The `"@@provenance"` member of an upload's metadata, checked against the upload's keys: every
 * claimed key must be one of them and claimed once. A ValidationError naming the keys otherwise.
 */
export function readProvenanceClaim(
  metadata: ReadonlyMap<string, unknown>,
  uploadKeys: readonly string[],
): ClaimedKeys {
  if (!metadata.has(PROVENANCE_MEMBER)) return new Map();
  const root = `body.${PROVENANCE_MEMBER}`;
  const claim: ProvenanceClaim = parseInput(provenanceClaimSchema, metadata.get(PROVENANCE_MEMBER), root);
  const claimed = new Map<string, Omit<Provenance, 'at'>>();
  const twice = new Set<string>();
  const claims: [string, string[], Omit<Provenance, 'at'>][] = [];
  if (claim.ai) claims.push(['ai', claim.ai.keys, { by: 'ai', model: claim.ai.model }]);
  if (claim.memory) claims.push(['memory', claim.memory.keys, { by: 'memory' }]);
  const inUpload = new Set(uploadKeys);
  for (const [name, keys, provenance] of claims) {
    const outside = keys.filter((key) => !inUpload.has(key));
    if (outside.length > 0) {
      throw new ValidationError(
        `${root}.${name}.keys: ${nameKeys(outside)} ${outside.length === 1 ? 'is not a key' : 'are not keys'} ` +
          'of this upload; nothing was stored',
      );
    }
    for (const key of keys) {
      if (claimed.has(key)) twice.add(key);
      else claimed.set(key, provenance);
    }
  }
  if (twice.size > 0) {
    throw new ValidationError(
      `${root}: ${nameKeys([...twice])} ${twice.size === 1 ? 'is' : 'are'} claimed more than once ` +
        '(a key is written by the model or reused from memory, once); nothing was stored',
    );
  }
  return claimed;
}

/**
 * The provenance of a locale's translations after an upload stored at `at` (DESIGN §13): a
 * claimed key gets its claim; a key restored into the upload (`restored`) the writer of its
 * retired translation; a key whose value is the one stored before keeps the provenance it had (a
 * re-upload of an unchanged value changes nothing); every other key is `human`. Keys not in the
 * upload have none: the upload replaces the locale's translations whole.
 */
export async function provenanceOfUpload(input: {
  uploaded: ReadonlyMap<string, string>;
  claimed: ClaimedKeys;
  restored?: ProvenanceMap;
  before: ReadonlyMap<string, string>;
  beforeProvenance: ProvenanceMap;
  at: number;
}): Promise<Map<string, Provenance>> {
  const { uploaded, claimed, restored = NO_PROVENANCE, before, beforeProvenance, at } = input;
  const human: Provenance = { by: 'human', at };
  const next = new Map<string, Provenance>();
  // In time slices, as every walk over 200,000 keys.
  const clock = sliceClock();
  for (const [key, value] of uploaded) {
    if (clock.due()) await clock.next();
    const claim = claimed.get(key);
    if (claim) {
      next.set(key, { ...claim, at });
      continue;
    }
    const back = restored.get(key);
    if (back) {
      next.set(key, back);
      continue;
    }
    if (before.get(key) === value) {
      const kept = beforeProvenance.get(key);
      if (kept) next.set(key, kept);
      continue;
    }
    next.set(key, human);
  }
  return next;
}

/**
 * Stored form: the distinct provenances once each (an upload gives most keys the same one), and
 * per key the index of its own, gzip JSON like the translations beside it. 50,000 keys cost
 * their names and one small number each before compression.
 */
type StoredProvenance = {
  /** [by, at, model?] */
  records: [Provenance['by'], number, string?][];
  keys: string[];
  of: number[];
};

export async function encodeProvenance(map: ProvenanceMap): Promise<Buffer> {
  const indexes = new Map<string, number>();
  // Most keys share one provenance object (an upload's `human`): found by identity first, without
  // making its text for every key.
  const byObject = new Map<Provenance, number>();
  const stored: StoredProvenance = { records: [], keys: [], of: [] };
  const clock = sliceClock();
  for (const [key, provenance] of map) {
    if (clock.due()) await clock.next();
    let index = byObject.get(provenance);
    if (index === undefined) {
      const id = `${provenance.by}\u0000${provenance.at}\u0000${provenance.model ?? ''}`;
      index = indexes.get(id);
      if (index === undefined) {
        index = stored.records.length;
        indexes.set(id, index);
        stored.records.push(
          provenance.model === undefined
            ? [provenance.by, provenance.at]
            : [provenance.by, provenance.at, provenance.model],
        );
      }
      byObject.set(provenance, index);
    }
    stored.keys.push(key);
    stored.of.push(index);
  }
  return compress(Buffer.from(JSON.stringify(stored), 'utf8'));
}

/** The inverse of encodeProvenance; no provenance stored is none known. */
export async function decodeProvenance(content: Buffer | undefined): Promise<ProvenanceMap> {
  if (!content) return NO_PROVENANCE;
  const stored = JSON.parse((await decompress(content)).toString('utf8')) as Partial<StoredProvenance>;
  const { records, keys, of } = stored;
  if (!Array.isArray(records) || !Array.isArray(keys) || !Array.isArray(of) || keys.length !== of.length) {
    throw new Error('Damaged stored provenance: not the JSON document that was encoded');
  }
  const provenances: Provenance[] = records.map(([by, at, model]) =>
    model === undefined ? { by, at } : { by, at, model },
  );
  const map = new Map<string, Provenance>();
  const clock = sliceClock();
  for (let i = 0; i < keys.length; i++) {
    if (clock.due()) await clock.next();
    const provenance = provenances[of[i]!];
    if (!provenance) throw new Error('Damaged stored provenance: a key refers to no record');
    map.set(keys[i]!, provenance);
  }
  return map;
}
