import { plainJsonFormat } from './json.js';

/**
 * i18next JSON v4 (`locales/{locale}/{namespace}.json`): JSON whose plural keys (`item_one`,
 * `item_other`, `place_ordinal_two`) are written, for each target, as that language's CLDR forms
 * in CLDR order at the group's place (DESIGN §11). i18next spells locales as BCP 47 (`pt-BR`).
 */
export const i18nextFormat = plainJsonFormat('i18next');
