import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSourceDocument, targetKeys } from '@tolk/locale-file';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { yamlFormat } from '../../src/formats/yaml.js';
import { linesOf } from './line-diff.js';

const dir = mkdtempSync(join(tmpdir(), 'tolk-yaml-in-place-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What Python's PyYAML (a YAML 1.1 reader, as Ruby's Psych is) makes of files, in one run. */
function pyyamlAll(files: Buffer[]): unknown[] {
  const paths = files.map((bytes, index) => {
    const file = join(dir, `f${index}-${Math.random().toString(36).slice(2)}.yml`);
    writeFileSync(file, bytes);
    return file;
  });
  const script = [
    'import json,sys,yaml',
    'for path in sys.argv[1:]:',
    '    print(json.dumps(yaml.safe_load(open(path, encoding="utf-8")), default=str))',
  ].join('\n');
  const out = execFileSync('/usr/bin/python3', ['-c', script, ...paths], { encoding: 'utf8' });
  return out
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);
}

/** The values of a file as our reader reads it, annotations left out. */
function valuesOf(bytes: string | Buffer, locale = 'de', rails = true): Record<string, unknown> {
  const strip = (value: unknown): unknown =>
    typeof value === 'object' && value !== null
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([key]) => !key.startsWith('@'))
            .map(([key, inner]) => [key, strip(inner)]),
        )
      : value;
  const document = yamlFormat.read({
    bytes: typeof bytes === 'string' ? Buffer.from(bytes) : bytes,
    locale,
    path: `config/locales/${locale}.yml`,
    options: { rails },
  });
  return strip(document) as Record<string, unknown>;
}

/** The target `existing` written for `values` (a key absent: no value) from `source`. */
function write(
  source: string,
  existing: string | Buffer | undefined,
  values: Record<string, string | undefined>,
  options: { rails?: boolean; locale?: string; synced?: (key: string) => boolean } = {},
): Buffer {
  const rails = options.rails ?? true;
  const locale = options.locale ?? 'de';
  const bytes = Buffer.from(source);
  const parsed = parseSourceDocument(
    yamlFormat.read({ bytes, locale: 'en', path: 'config/locales/en.yml', options: { rails } }),
  );
  return yamlFormat.write({
    source: bytes,
    sourceLocale: 'en',
    locale,
    valueOf: (key) => values[key],
    target: targetKeys(parsed, locale),
    ...(existing === undefined
      ? {}
      : { existing: typeof existing === 'string' ? Buffer.from(existing) : existing }),
    ...(options.synced ? { synced: options.synced } : {}),
    options: { rails },
  });
}

const SOURCE = `# Strings of the web app.
en:
  app:
    title: Tolk
    # The greeting on the home page.
    greeting: "Hello, %{name}!"
    welcome: Welcome
    quote: 'It''s here'
    items:
      one: "%{count} item"
      other: "%{count} items"
    terms: |
      Line one.
      Line two.
  number:
    format:
      precision: 2
      delimiter: ","
`;

const TARGET = `# Deutsche Texte, gepflegt von Anna.
de:
  app:
    title: Tolk   # im Browser-Tab

    # Die Begrüßung.
    greeting: "Hallo, %{name}!"
    quote: 'Es ist hier'
    # Nicht mehr gebraucht.
    old: Alt
    items:
      one: "%{count} Eintrag"
      other: "%{count} Einträge"
    terms: |
      Zeile eins.
      Zeile zwei.
  number:
    format:
      precision: 3
      delimiter: "."
`;

const VALUES: Record<string, string> = {
  'app.title': 'Tolk',
  'app.greeting': 'Hallo, %{name}!',
  'app.quote': 'Es ist hier',
  'app.items': '{count, plural, one {%{count} Eintrag} other {%{count} Einträge}}',
  'app.terms': 'Zeile eins.\nZeile zwei.\n',
  'number.format.delimiter': '.',
};

/** `app.old` was a source key Tolk synced, and is gone from the source. */
const OLD_SYNCED = { synced: (key: string) => key === 'app.old' };

describe('yaml: a target file on disk edited in place', () => {
  it('when nothing changes, then the same bytes come back, a key the source lacks that Tolk synced removed', () => {
    const out = write(SOURCE, TARGET, VALUES, OLD_SYNCED).toString();
    // `old` is gone from the source: removed with its comment; nothing else changes.
    expect(out).toBe(TARGET.replace('    # Nicht mehr gebraucht.\n    old: Alt\n', ''));
    const again = Buffer.from(out);
    expect(write(SOURCE, again, VALUES, OLD_SYNCED)).toBe(again);
  });

  it('when the target holds keys the source lacks that Tolk never synced, then their lines stay byte for byte, mappings of their own too', () => {
    const target = TARGET.replace(
      '  number:\n',
      '  # Eigene Texte.\n  mine:\n    a: Eins\n    b: [x, y]\n    n: 3\n  number:\n',
    );
    expect(write(SOURCE, target, VALUES, { synced: (key) => key === 'app.title' }).toString()).toBe(target);
    // Synced, a key goes with its comment; a mapping keeps the keys Tolk never synced.
    const synced = ['app.old', 'mine.a', 'mine.b.0', 'mine.b.1'];
    expect(write(SOURCE, target, VALUES, { synced: (key) => synced.includes(key) }).toString()).toBe(
      target
        .replace('    # Nicht mehr gebraucht.\n    old: Alt\n', '')
        .replace('    a: Eins\n    b: [x, y]\n', ''),
    );
  });

  it('when a value changes, a key comes and a plural form changes, then only their lines change, each in its quoting', () => {
    const out = write(
      SOURCE,
      TARGET,
      {
        ...VALUES,
        'app.greeting': 'Servus, %{name}!',
        'app.quote': "Es ist's",
        'app.welcome': 'Willkommen',
        'app.items': '{count, plural, one {ein Eintrag} other {%{count} Einträge}}',
        'app.terms': 'Zeile eins.\nZeile drei.\n',
        'app.title': 'yes',
      },
      OLD_SYNCED,
    ).toString();
    expect(out).toBe(`# Deutsche Texte, gepflegt von Anna.
de:
  app:
    title: "yes"   # im Browser-Tab

    # Die Begrüßung.
    greeting: "Servus, %{name}!"
    welcome: Willkommen
    quote: 'Es ist''s'
    items:
      one: "ein Eintrag"
      other: "%{count} Einträge"
    terms: |
      Zeile eins.
      Zeile drei.
  number:
    format:
      precision: 3
      delimiter: "."
`);
    expect(pyyamlAll([Buffer.from(out)])[0]).toEqual({
      de: {
        app: {
          title: 'yes',
          greeting: 'Servus, %{name}!',
          welcome: 'Willkommen',
          quote: "Es ist's",
          items: { one: 'ein Eintrag', other: '%{count} Einträge' },
          terms: 'Zeile eins.\nZeile drei.\n',
        },
        number: { format: { precision: 3, delimiter: '.' } },
      },
    });
  });

  it('when the target is CRLF without a final newline, then its line endings stay and new lines get them', () => {
    const target = TARGET.replaceAll('\n', '\r\n').replace(/\r\n$/, '');
    const out = write(
      SOURCE,
      target,
      { ...VALUES, 'app.welcome': 'Willkommen', 'number.format.delimiter': ',' },
      OLD_SYNCED,
    ).toString();
    expect(out).toBe(
      TARGET.replace('    # Nicht mehr gebraucht.\n    old: Alt\n', '')
        .replace('    quote:', '    welcome: Willkommen\n    quote:')
        .replace('delimiter: "."', 'delimiter: ","')
        .replaceAll('\n', '\r\n')
        .replace(/\r\n$/, ''),
    );
  });

  it('when a block scalar ending a file without a final newline changes, then its final line break is written', () => {
    const target = 'de:\n  app:\n    terms: |\n      Zeile eins.\n      Zeile zwei.';
    const out = write(SOURCE, target, { 'app.terms': 'Zeile drei.\n' });
    // Rails' own setting of the source (`precision: 2`) comes after it, as in a new file.
    expect(out.toString()).toBe(
      'de:\n  app:\n    terms: |\n      Zeile drei.\n  number:\n    format:\n      precision: 2\n',
    );
    expect(pyyamlAll([out])[0]).toEqual({
      de: { app: { terms: 'Zeile drei.\n' }, number: { format: { precision: 2 } } },
    });
  });

  it('when a group and a key before every other are new, then the group comes whole at its place in the neighbours’ indentation', () => {
    const target = 'de:\n    app:\n        quote: Hier\n';
    const out = write(SOURCE, target, {
      'app.title': 'Titel',
      'app.quote': 'Hier',
      'app.terms': 'Eins.\n',
      'number.format.delimiter': '.',
    }).toString();
    expect(out).toBe(
      'de:\n    app:\n        title: Titel\n        quote: Hier\n        terms: |\n          Eins.\n    number:\n      format:\n        precision: 2\n        delimiter: "."\n',
    );
    expect(valuesOf(out)).toEqual({
      app: { title: 'Titel', quote: 'Hier', terms: 'Eins.\n' },
      number: { format: { delimiter: '.' } },
    });
  });

  it('when the target spells its locale key its own way, then the key stays as it is', () => {
    const out = write(
      SOURCE,
      'pt_BR:\n  app:\n    title: Velho\n',
      { 'app.title': 'Novo' },
      { locale: 'pt-BR' },
    );
    expect(out.toString()).toBe(
      'pt_BR:\n  app:\n    title: Novo\n  number:\n    format:\n      precision: 2\n',
    );
  });

  it('when the target does not parse, then it is written in the source’s layout', () => {
    const out = write(SOURCE, 'de:\n  app: [\n', { 'app.title': 'Titel' }).toString();
    expect(out).toBe(
      '# Strings of the web app.\nde:\n  app:\n    title: Titel\n  number:\n    format:\n      precision: 2\n',
    );
  });

  it('when a plain YAML target has an anchor and an alias, then they stay where not written', () => {
    const source = 'a: &x Hello\nb: *x\nc: Bye\n';
    const target = '# mine\na: &x Hallo\nb: *x\nc: Tschüss\n';
    const out = write(source, target, { a: 'Hallo', c: 'Ade' }, { rails: false }).toString();
    expect(out).toBe('# mine\na: &x Hallo\nb: *x\nc: Ade\n');
  });
});

// ---- property: any target layout, any set of changes -------------------------------------

type Style = 'plain' | 'single' | 'double' | 'literal';
type Entry = { group: string; leaf: string; style: Style; comment: boolean; blank: boolean };

const WORDS = ['Hallo', 'yes', 'no', '12', ':)', "it's", 'a: b', '#x', 'ü 日本', '"q"', '%{count}', 'x - y'];
const text = fc
  .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 })
  .map((words) => words.join(' '));
const multiline = fc.array(fc.constantFrom('Eins.', 'Zwei zwei.', 'drei: 3'), { minLength: 1, maxLength: 3 });

/** A scalar of `style` holding `value`, for a key at column `column`. */
function scalar(style: Style, value: string, column: number, eol: string): string {
  switch (style) {
    case 'plain':
      return /^[A-Za-zÄÖÜäöü][\wäöüÄÖÜ ,.!]*$/.test(value) &&
        !/^(yes|no|on|off|y|n|true|false|null)$/i.test(value)
        ? value
        : JSON.stringify(value);
    case 'single':
      return value.includes('\n') ? JSON.stringify(value) : `'${value.replaceAll("'", "''")}'`;
    case 'double':
      return JSON.stringify(value);
    case 'literal':
      return `|${value.endsWith('\n') ? '' : '-'}${eol}${value
        .replace(/\n$/, '')
        .split('\n')
        .map((line) => `${' '.repeat(column + 2)}${line}`)
        .join(eol)}`;
  }
}

const GROUPS = ['app', 'mail'];
const LEAVES = ['title', 'body', 'note', 'hint'];

const scenario = fc
  .record({
    source: fc.uniqueArray(
      fc.record({ group: fc.constantFrom(...GROUPS), leaf: fc.constantFrom(...LEAVES) }),
      { minLength: 1, maxLength: 8, selector: (entry) => `${entry.group}.${entry.leaf}` },
    ),
    styles: fc.array(fc.constantFrom<Style>('plain', 'single', 'double', 'literal'), {
      minLength: 8,
      maxLength: 8,
    }),
    comments: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    blanks: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    kept: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    extra: fc.boolean(),
    /** Tolk synced the target's key the source lacks: it goes; else it stays. */
    extraSynced: fc.boolean(),
    unit: fc.constantFrom(2, 4),
    crlf: fc.boolean(),
    finalNewline: fc.boolean(),
    changes: fc.array(fc.constantFrom('same', 'new', 'gone'), { minLength: 8, maxLength: 8 }),
    texts: fc.array(
      fc.oneof(
        text,
        multiline.map((lines) => `${lines.join('\n')}\n`),
      ),
      {
        minLength: 16,
        maxLength: 16,
      },
    ),
    seed: fc.integer(),
  })
  .map((s) => {
    const sourceEntries = [...s.source].sort((a, b) => GROUPS.indexOf(a.group) - GROUPS.indexOf(b.group));
    const key = (entry: { group: string; leaf: string }) => `${entry.group}.${entry.leaf}`;
    // The target: some of the source's keys, in an order of its own, with its own layout.
    const targetEntries: Entry[] = sourceEntries
      .filter((_, index) => s.kept[index])
      .map((entry, index) => ({
        ...entry,
        style: s.styles[index]!,
        comment: s.comments[index]!,
        blank: s.blanks[index]!,
      }));
    targetEntries.reverse();
    // A target with no key at all is written in the source's layout: one key at least.
    if (s.extra || targetEntries.length === 0)
      targetEntries.push({ group: 'app', leaf: 'extra', style: 'plain', comment: true, blank: false });
    targetEntries.sort((a, b) => GROUPS.indexOf(b.group) - GROUPS.indexOf(a.group));
    const old = new Map(targetEntries.map((entry, index) => [key(entry), s.texts[index]!]));
    const values: Record<string, string | undefined> = {};
    sourceEntries.forEach((entry, index) => {
      const change = s.changes[index]!;
      const had = old.get(key(entry));
      values[key(entry)] =
        change === 'gone' ? undefined : change === 'same' && had !== undefined ? had : s.texts[8 + index]!;
    });
    // What the target holds after the write: a key the source lacks stays when never synced.
    const expectedValues =
      old.has('app.extra') && !s.extraSynced ? { ...values, 'app.extra': old.get('app.extra') } : values;
    return { ...s, sourceEntries, targetEntries, old, values, expectedValues };
  });

type Built = { text: string; linesOf: Map<string, number[]>; headers: Map<string, number> };

/** A Rails file of `entries` (grouped), its line indexes by key, and its groups' header lines. */
function build(
  locale: string,
  entries: Entry[],
  valueOf: (key: string) => string,
  unit: number,
  eol: string,
  finalNewline: boolean,
): Built {
  const lines: string[] = [`# ${locale} texts`, `${locale}:`];
  const linesOf = new Map<string, number[]>();
  const headers = new Map<string, number>();
  for (const group of [...new Set(entries.map((entry) => entry.group))]) {
    headers.set(group, lines.length);
    lines.push(`${' '.repeat(unit)}${group}:`);
    for (const entry of entries.filter((e) => e.group === group)) {
      const own: number[] = [];
      if (entry.blank) lines.push('');
      if (entry.comment) {
        own.push(lines.length);
        lines.push(`${' '.repeat(unit * 2)}# about ${entry.leaf}`);
      }
      const value = scalar(entry.style, valueOf(`${group}.${entry.leaf}`), unit * 2, eol);
      for (const line of `${' '.repeat(unit * 2)}${entry.leaf}: ${value}`.split(eol)) {
        own.push(lines.length);
        lines.push(line);
      }
      linesOf.set(`${group}.${entry.leaf}`, own);
    }
  }
  // A block scalar ending the file holds its final line break only with the file's.
  const last = entries.at(-1);
  const keepsBreak = last?.style === 'literal' && valueOf(`${last.group}.${last.leaf}`).endsWith('\n');
  return { text: lines.join(eol) + (finalNewline || keepsBreak ? eol : ''), linesOf, headers };
}

/** The expected document of `values` (keys without a value left out). */
function nested(values: Record<string, string | undefined>): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const [group, leaf] = key.split('.') as [string, string];
    (out[group] ??= {})[leaf] = value;
  }
  return out;
}

describe('yaml in place: property', () => {
  it('when any target layout gets any changes, then the diff touches only written entries (a key the source lacks only when synced) and PyYAML and Tolk read the values', () => {
    const cases: { out: Buffer; expected: unknown }[] = [];
    fc.assert(
      fc.property(scenario, (s) => {
        const eol = s.crlf ? '\r\n' : '\n';
        const sourceText = build(
          'en',
          s.sourceEntries.map((entry) => ({ ...entry, style: 'double', comment: true, blank: false })),
          () => 'Source',
          2,
          '\n',
          true,
        ).text;
        const target = build('de', s.targetEntries, (key) => s.old.get(key)!, s.unit, eol, s.finalNewline);
        const out = write(sourceText, target.text, s.values, {
          synced: (key) => key === 'app.extra' && s.extraSynced,
        });
        const expected = nested(s.expectedValues);
        expect(valuesOf(out)).toEqual(expected);
        cases.push({ out, expected: { de: expected } });

        // Written: a key whose value changes, comes or goes.
        const written = new Set(
          [...new Set([...Object.keys(s.expectedValues), ...s.old.keys()])].filter(
            (key) => s.expectedValues[key] !== s.old.get(key),
          ),
        );
        const allowedRemoved = new Set<number>();
        for (const key of written) for (const line of target.linesOf.get(key) ?? []) allowedRemoved.add(line);
        const before = linesOf(target.text);
        const after = linesOf(out.toString());
        for (const [group, line] of target.headers) {
          if (!Object.keys(expected).includes(group)) allowedRemoved.add(line);
        }
        // A blank line may go with a removed entry next to it.
        const entries = new Set(allowedRemoved);
        before.forEach((line, index) => {
          if (line === '' && (entries.has(index + 1) || entries.has(index - 1))) allowedRemoved.add(index);
        });
        const shown = `${JSON.stringify(target.text)}\n=>\n${JSON.stringify(out.toString())}`;
        // Every other line of the target stays, in its order.
        const kept = new Set<number>();
        let at = 0;
        before.forEach((line, index) => {
          if (allowedRemoved.has(index)) return;
          const found = after.indexOf(line, at);
          expect(found, `line ${index} (${line}) is gone\n${shown}`).toBeGreaterThanOrEqual(0);
          kept.add(found);
          at = found + 1;
        });
        // Added: lines of written keys (their key and value lines) and of groups the target lacks.
        const allowedAdded = new Set<string>();
        for (const key of written) {
          const [group, leaf] = key.split('.') as [string, string];
          allowedAdded.add(leaf);
          allowedAdded.add(group);
          for (const line of (s.expectedValues[key] ?? '').split('\n')) allowedAdded.add(line);
        }
        after.forEach((line, index) => {
          if (kept.has(index)) return;
          const added = line.trim();
          const word = /^(?:# about )?(\w+):?/.exec(added)?.[1];
          const ok =
            (word !== undefined && allowedAdded.has(word)) ||
            allowedAdded.has(added) ||
            added === '' ||
            added === '{}';
          expect(ok, `added line ${index}: ${line}\n${shown}`).toBe(true);
        });
        if (written.size === 0) expect(out.toString()).toBe(target.text);
        expect(out.includes('\r\n')).toBe(s.crlf && after.length > 1);
      }),
      { numRuns: 100 },
    );
    const read = pyyamlAll(cases.map((c) => c.out));
    read.forEach((document, index) => expect(document).toEqual(cases[index]!.expected));
  });
});

describe('yaml in place: a large target on disk', () => {
  it('when 20,000 keys are new to a target of one key, then they are placed in about linear time', () => {
    // Ten times the keys take about ten times as long (a search from each new key: a hundred
    // times); measured against a tenth of them in the same run, so a slow machine is no failure.
    const placed = (count: number) => {
      const keys = Array.from({ length: count }, (_, i) => `k${i}`);
      const source = `en:\n  app:\n${keys.map((key) => `    ${key}: v`).join('\n')}\n`;
      const values = Object.fromEntries(keys.map((key) => [`app.${key}`, `w ${key}`]));
      const started = performance.now();
      const written = write(source, `# de\nde:\n  app:\n    k${count - 1}: w k${count - 1}\n`, values);
      return { keys, written, ms: performance.now() - started };
    };
    const small = placed(2_000);
    const { keys, written, ms } = placed(20_000);
    const lines = written.toString().split('\n');
    expect(lines.slice(0, 4)).toEqual(['# de', 'de:', '  app:', '    k0: w k0']);
    expect(lines.at(-2)).toBe('    k19999: w k19999');
    expect(valuesOf(written)).toEqual({ app: Object.fromEntries(keys.map((key) => [key, `w ${key}`])) });
    expect(ms / small.ms).toBeLessThan(30);
  });
});
