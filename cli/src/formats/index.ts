// The file formats of the CLI (DESIGN §12), each a module keeping the contract of format.ts.
import { androidFormat } from './android.js';
import { arbFormat } from './arb.js';
import { FORMAT_NAMES, type FormatName, type LocaleFormat } from './format.js';
import { i18nextFormat } from './i18next.js';
import { jsonFormat } from './json.js';
import { poFormat } from './po.js';
import { propertiesFormat } from './properties.js';
import { stringsFormat } from './strings.js';
import { stringsdictFormat } from './stringsdict.js';
import { xcstringsFormat } from './xcstrings.js';
import { xliffFormat } from './xliff.js';
import { yamlFormat } from './yaml.js';

export * from './format.js';

/** Every format, by the name `tolk.json` gives it. */
const FORMATS: Record<FormatName, LocaleFormat> = {
  json: jsonFormat,
  i18next: i18nextFormat,
  arb: arbFormat,
  yaml: yamlFormat,
  properties: propertiesFormat,
  po: poFormat,
  strings: stringsFormat,
  stringsdict: stringsdictFormat,
  xliff: xliffFormat,
  android: androidFormat,
  xcstrings: xcstringsFormat,
};

/** The format named `name`; undefined for a name no format has. */
export function formatNamed(name: string): LocaleFormat | undefined {
  return (FORMAT_NAMES as readonly string[]).includes(name) ? FORMATS[name as FormatName] : undefined;
}
