/**
 * The platforms' own tools, run on the files Tolk writes (DESIGN §12: checked by the formats' own
 * tools, not only by our parsers): Debian's `aapt2`, `xmllint` (libxml2-utils), `msgfmt`
 * (gettext), `plistutil` (libplist-utils) and translate-toolkit's converters (`prop2po`,
 * `xliff2po`, read back with translate-toolkit's own PO reader in Debian's python3).
 *
 * A test that needs a tool calls `needTools(context, ...)` first: a tool that is missing skips the
 * test with the tool's name, except under `CI=true`, where it fails.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

/** The Debian package of each tool, for the message that asks to install it. */
const PACKAGES: Record<string, string> = {
  aapt2: 'aapt',
  xmllint: 'libxml2-utils',
  msgfmt: 'gettext',
  msgunfmt: 'gettext',
  plistutil: 'libplist-utils',
  prop2po: 'translate-toolkit',
  xliff2po: 'translate-toolkit',
  /** translate-toolkit's Python package, for reading the PO files its converters write. */
  'translate-toolkit': 'translate-toolkit',
};

/** Debian's Python, which has translate-toolkit's package (a Python of one's own may not). */
const PYTHON = '/usr/bin/python3';

export type Tool = keyof typeof PACKAGES;

/** The tools of `names` that are not on the PATH. */
export function missingTools(names: readonly Tool[]): Tool[] {
  return names.filter((name) =>
    name === 'translate-toolkit'
      ? spawnSync(PYTHON, ['-c', 'import translate.storage.po']).status !== 0
      : spawnSync('sh', ['-c', `command -v ${name}`]).status !== 0,
  );
}

/**
 * Skips the test when a tool is missing, naming it and its package; fails instead under CI=true,
 * where every tool must be installed.
 */
export function needTools(context: { skip: (note?: string) => void }, ...names: Tool[]): void {
  const missing = missingTools(names);
  if (missing.length === 0) return;
  const message = `${missing.join(', ')} not installed (apt-get install ${[
    ...new Set(missing.map((name) => PACKAGES[name])),
  ].join(' ')})`;
  if (process.env.CI === 'true') throw new Error(`${message}: CI runs every platform tool`);
  context.skip(message);
}

export type ToolRun = { status: number | null; stdout: string; stderr: string };

function run(tool: string, args: readonly string[]): ToolRun {
  const result = spawnSync(tool, args, { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    throw new Error(`${tool} is not installed (apt-get install ${PACKAGES[tool] ?? tool})`);
  }
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `xmllint --noout`: the file is well-formed XML. */
export function xmllint(file: string): ToolRun {
  return run('xmllint', ['--noout', file]);
}

/** `msgfmt --check-format --check-header`: gettext compiles the catalog (to nothing). */
export function msgfmtCheck(file: string): ToolRun {
  return run('msgfmt', ['--check-format', '--check-header', '-o', '/dev/null', file]);
}

/**
 * `aapt2 compile` of one `res/values-*\/strings.xml` (the folder name is the qualifier aapt2
 * checks), then `aapt2 dump apc` of the result: the compile's run and the dump's text.
 */
export function aapt2Compile(stringsXml: string): { compile: ToolRun; dump: string } {
  const out = mkdtempSync(join(tmpdir(), 'tolk-aapt2-'));
  const compile = run('aapt2', ['compile', stringsXml, '-o', out]);
  if (compile.status !== 0) return { compile, dump: '' };
  const flat = join(out, `${basename(dirname(stringsXml))}_strings.arsc.flat`);
  return { compile, dump: execFileSync('aapt2', ['dump', 'apc', flat], { encoding: 'utf8' }) };
}

/** The quantities of each `plurals` resource in `aapt2 dump apc`'s text. */
export function aapt2Plurals(dump: string): Map<string, string[]> {
  const plurals = new Map<string, string[]>();
  for (const match of dump.matchAll(
    /resource \S+ plurals\/(\S+)\n\s+\([^)]*\) \(plurals\)[^\n]*\n((?:\s+\w+="[^\n]*"\n)+)/g,
  )) {
    plurals.set(
      match[1]!,
      [...match[2]!.matchAll(/^\s+(\w+)="/gm)].map((form) => form[1]!),
    );
  }
  return plurals;
}

/**
 * `plistutil` converts the file to a binary plist and back to XML: libplist parses it. Throws
 * with plistutil's message when it does not.
 */
export function plistutilRoundTrip(file: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tolk-plist-'));
  const binary = join(dir, 'file.bin');
  const xml = join(dir, 'file.xml');
  execFileSync('plistutil', ['-i', file, '-o', binary, '-f', 'bin'], { stdio: 'pipe' });
  execFileSync('plistutil', ['-i', binary, '-o', xml, '-f', 'xml'], { stdio: 'pipe' });
  return readFileSync(xml, 'utf8');
}

/** Runs a python3 script with translate-toolkit, its JSON answer parsed. */
function translateToolkit(lines: readonly string[], ...args: string[]): unknown {
  const out = execFileSync(PYTHON, ['-c', lines.join('\n'), ...args], { encoding: 'utf8' });
  return JSON.parse(out);
}

/**
 * What translate-toolkit makes of strings files: each converted by `prop2po
 * --personality=strings` (UTF-16 found by its byte order mark; UTF-8 told with `--encoding`),
 * the PO read back with translate-toolkit's PO reader: each unit's key (its location) and value.
 * One python3 for all the files.
 */
export function prop2poStrings(files: readonly string[]): Record<string, string>[] {
  const dir = mkdtempSync(join(tmpdir(), 'tolk-prop2po-'));
  const jobs = files.map((file, index) => {
    const bytes = readFileSync(file);
    const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    return [file, join(dir, `${index}.po`), utf16 ? '' : bom ? 'utf-8-sig' : 'utf-8'];
  });
  const units = translateToolkit(
    [
      'import json, subprocess, sys',
      'from translate.storage import po',
      'out = []',
      'for job in json.loads(sys.argv[1]):',
      '    extra = ["--encoding=" + job[2]] if job[2] else []',
      '    subprocess.run(["prop2po", "--personality=strings", *extra, "-i", job[0], "-o", job[1]], check=True, capture_output=True)',
      '    units = po.pofile(open(job[1], "rb").read()).units',
      '    out.append([[u.getlocations()[0], u.source] for u in units if not u.isheader()])',
      'print(json.dumps(out))',
    ],
    JSON.stringify(jobs),
  ) as [string, string][][];
  return units.map((pairs) => Object.fromEntries(pairs));
}

/**
 * What translate-toolkit makes of an XLIFF 1.2 file: converted by `xliff2po`, each unit's id
 * (its location), msgid and msgstr. (xliff2po drops the inline codes from the text; it reads no
 * XLIFF 2.0, which gives no unit.)
 */
export function xliff2po(file: string): Record<string, { msgid: string; msgstr: string }> {
  const out = join(mkdtempSync(join(tmpdir(), 'tolk-xliff2po-')), 'out.po');
  const units = translateToolkit(
    [
      'import json, os, subprocess, sys',
      'from translate.storage import po',
      'subprocess.run(["xliff2po", "-i", sys.argv[1], "-o", sys.argv[2]], check=True, capture_output=True)',
      'if not os.path.exists(sys.argv[2]): print("[]"); sys.exit(0)',
      'units = po.pofile(open(sys.argv[2], "rb").read()).units',
      'print(json.dumps([[u.getlocations()[0], u.source, u.target] for u in units if not u.isheader()]))',
    ],
    file,
    out,
  ) as [string, string, string][];
  return Object.fromEntries(units.map(([id, msgid, msgstr]) => [id, { msgid, msgstr }]));
}

/**
 * What translate-toolkit makes of Java `.properties` files in UTF-8 (Java 9's reading of
 * resource bundles): each converted by prop2po's own conversion (`java-utf8` personality), the PO
 * read back with its PO reader: each unit's key (its location, unescaped) and value. One python3
 * for all the files.
 */
export function prop2poProperties(files: readonly string[]): Record<string, string>[] {
  const dir = mkdtempSync(join(tmpdir(), 'tolk-prop2po-'));
  const units = translateToolkit(
    [
      'import json, sys',
      'from translate.convert import prop2po',
      'from translate.storage import po',
      'out = []',
      'for index, path in enumerate(json.loads(sys.argv[1])):',
      `    target = "${dir}/%d.po" % index`,
      '    with open(path, "rb") as source, open(target, "wb") as converted:',
      '        prop2po.convertprop(source, converted, None, personality="java-utf8")',
      '    units = po.pofile(open(target, "rb").read()).units',
      '    out.append([[u.getlocations()[0], u.source] for u in units if not u.isheader()])',
      'print(json.dumps(out))',
    ],
    JSON.stringify(files),
  ) as [string, string][][];
  return units.map((pairs) =>
    Object.fromEntries(pairs.map(([key, value]) => [key.replace(/\\(.)/g, '$1'), value])),
  );
}

/** What PyYAML (a YAML 1.1 reader, as Ruby's Psych is, which Rails uses) makes of files. */
export function pyyamlLoad(files: readonly string[]): unknown[] {
  return translateToolkit(
    [
      'import json, sys, yaml',
      'print(json.dumps([yaml.safe_load(open(path, encoding="utf-8")) for path in sys.argv[1:]], default=str))',
    ],
    ...files,
  ) as unknown[];
}
