/**
 * The project's key rules (DESIGN §13) on the settings page: three lists of glob patterns over
 * keys, edited one pattern per line. The server checks them; its message names the list and the
 * pattern (shown by the settings form's error note).
 */
import type { KeyRules } from '../types.js';

/** The lines of a textarea as patterns: trimmed, blank lines left out. */
export function patternsOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

export type KeyRulesText = Record<keyof KeyRules, string>;

export function keyRulesText(rules: KeyRules | undefined): KeyRulesText {
  return {
    humanOnly: (rules?.humanOnly ?? []).join('\n'),
    neverTranslate: (rules?.neverTranslate ?? []).join('\n'),
    exclude: (rules?.exclude ?? []).join('\n'),
  };
}

export function keyRulesOf(text: KeyRulesText): KeyRules {
  return {
    humanOnly: patternsOf(text.humanOnly),
    neverTranslate: patternsOf(text.neverTranslate),
    exclude: patternsOf(text.exclude),
  };
}

const LISTS: { list: keyof KeyRules; label: string; help: string; example: string }[] = [
  {
    list: 'humanOnly',
    label: 'Keys only people translate',
    help: 'Never sent to the AI model; missing until a person uploads a translation.',
    example: 'legal.*',
  },
  {
    list: 'neverTranslate',
    label: 'Keys never translated',
    help: 'Brand names, URLs: every target locale carries the source text, counted as translated.',
    example: 'brand.name\n**.url',
  },
  {
    list: 'exclude',
    label: 'Keys left out of target locales',
    help: 'Not in target files, not counted, never missing.',
    example: 'debug.**',
  },
];

export function KeyRulesFields(props: {
  value: KeyRulesText;
  onChange: (value: KeyRulesText) => void;
  disabled: boolean;
}) {
  const { value, onChange, disabled } = props;
  return (
    <fieldset disabled={disabled}>
      <legend>Key rules</legend>
      <p id="key-rules-help" class="muted help">
        One glob pattern per line, matched against whole keys: <code>.</code> separates segments,{' '}
        <code>*</code> matches within one segment, <code>**</code> any number of segments. A key several lists
        match follows the last of them here.
      </p>
      {LISTS.map(({ list, label, help, example }) => (
        <label key={list}>
          {label}
          <textarea
            rows={3}
            autocapitalize="off"
            spellcheck={false}
            class="mono"
            placeholder={example}
            aria-describedby={`key-rules-${list}-help key-rules-help`}
            value={value[list]}
            onInput={(e) => onChange({ ...value, [list]: e.currentTarget.value })}
          />
          <span id={`key-rules-${list}-help`} class="muted help">
            {help}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
