import { pluralFormKey, type FlatEntries, type TargetKeys } from '@tolk/locale-file';
import type { PluralGroupRequest } from '../ai/index.js';

/**
 * What the model is asked for in one piece: a key, or an i18next plural group as a whole (DESIGN
 * §11), which never splits across batches. `sources` are the source keys it is shown, `keys` the
 * target keys its answer holds.
 */
export type TranslationUnit = {
  sources: string[];
  keys: string[];
  plural?: PluralGroupRequest;
  /** Keys with the same source text that take this unit's answer, not asked themselves. */
  copies?: string[];
};

/**
 * The units of a target locale's keys, in the order of the target file. With `wanted` (a locale's
 * missing and outdated keys), only the units with a key in it: a group when any of its target
 * forms or any of its source forms is, so a changed or incomplete group is asked again whole.
 */
export function translationUnits(
  source: FlatEntries,
  target: TargetKeys,
  wanted?: ReadonlySet<string>,
): TranslationUnit[] {
  const units: TranslationUnit[] = [];
  for (const entry of target.entries) {
    const { group } = entry;
    if (!group) {
      if (!wanted || wanted.has(entry.key)) units.push({ sources: [entry.key], keys: [entry.key] });
      continue;
    }
    const forms = target.formsOf.get(group)!;
    if (forms[0] !== entry) continue;
    const sources = group.forms.map((form) => source.keys[form.index]!);
    const keys = forms.map((form) => form.key);
    if (wanted && !keys.some((key) => wanted.has(key)) && !sources.some((key) => wanted.has(key))) continue;
    const other = pluralFormKey(group, 'other');
    units.push({
      sources,
      keys,
      plural: {
        stem: other.slice(0, -'_other'.length),
        type: group.type,
        sources,
        forms: forms.map((form) => ({ key: form.key, category: form.category! })),
      },
    });
  }
  return units;
}

/**
 * `units` with each plain key whose source text an earlier shareable unit has too folded into
 * that unit's `copies`: the model is asked each text once and its answer goes to every key of
 * it. Only units `shareable` says may be (those translation memory may fill: no context note,
 * no person's translation), since memory gives identical texts the same translation anyway.
 */
export function shareIdenticalTexts(
  units: readonly TranslationUnit[],
  valueOf: (key: string) => string,
  shareable: (unit: TranslationUnit) => boolean,
): TranslationUnit[] {
  const first = new Map<string, TranslationUnit>();
  const kept: TranslationUnit[] = [];
  for (const unit of units) {
    const plain = !unit.plural && unit.keys.length === 1 && unit.sources[0] === unit.keys[0];
    if (!plain || !shareable(unit)) {
      kept.push(unit);
      continue;
    }
    const text = valueOf(unit.sources[0]!);
    const earlier = first.get(text);
    if (earlier) {
      earlier.copies!.push(unit.keys[0]!);
      continue;
    }
    const copy = { ...unit, copies: [] };
    first.set(text, copy);
    kept.push(copy);
  }
  return kept;
}
