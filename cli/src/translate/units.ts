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
