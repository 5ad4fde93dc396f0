// The file formats of the CLI (DESIGN §12), each a module keeping the contract of format.ts.
import { FORMAT_NAMES, type FormatName, type LocaleFormat } from './format.js';
import { propertiesFormat } from './properties.js';
import { yamlFormat } from './yaml.js';

export * from './format.js';

/** Every format, by the name `tolk.json` gives it. */
const FORMATS: Partial<Record<FormatName, LocaleFormat>> = {
  yaml: yamlFormat,
  properties: propertiesFormat,
};

/** The format named `name`; undefined for a name no format has. */
export function formatNamed(name: string): LocaleFormat | undefined {
  return (FORMAT_NAMES as readonly string[]).includes(name) ? FORMATS[name as FormatName] : undefined;
}
