/**
 * gettext: each template `<dir>/<domain>.pot` is the source of `<dir>/{locale}.po` (`po/pt_BR.po`
 * beside `po/app.pot`, gettext's spelling), or of `<dir>/{locale}/LC_MESSAGES/<domain>.po` when
 * the catalogs are there, or of the one other `{locale}/LC_MESSAGES/<domain>.po` folder of its
 * domain when it has no catalog near it (Sphinx's `_build/gettext/index.pot` and
 * `locales/{locale}/LC_MESSAGES/index.po`). A POT names no language: English unless `--source`
 * says otherwise. Catalogs in `<dir>/{locale}/LC_MESSAGES/<domain>.po` with no POT (Django,
 * `locale/en/LC_MESSAGES/django.po`) are a file set per domain whose source is the source
 * locale's catalog.
 */
import { posix } from 'node:path';
import { formatNamed } from '../../formats/index.js';
import { readForDetection } from '../locale-file-reading.js';
import {
  distinct,
  pathsEndingIn,
  type FoundFile,
  type FoundFileSet,
  type LayoutDetector,
  type LayoutSearch,
} from '../layout-search.js';
import { foundFile, localeSpelledBy, spellings } from '../locale-names.js';

const po = formatNamed('po')!;

/** `<above>/{locale}/LC_MESSAGES/<domain>.po` of a path. */
type MessagesFolder = { above: string; domain: string; file: FoundFile };

export const detectGettextLayouts: LayoutDetector = async (search) => {
  const paths = pathsEndingIn(search, ['.po', '.pot']);
  const claimed = new Set<string>();
  const sets: FoundFileSet[] = [];
  for (const pot of paths.filter((path) => path.endsWith('.pot'))) {
    const set = await templateFileSet(search, pot, paths, claimed);
    set.files.forEach((file) => claimed.add(file));
    sets.push(set);
  }
  // Catalogs below LC_MESSAGES folders with no template: each domain a file set of its own.
  const groups = new Map<string, { above: string; domain: string; files: FoundFile[] }>();
  for (const path of paths) {
    const folder = claimed.has(path) ? undefined : inMessagesFolder(path);
    if (!folder) continue;
    const key = `${folder.above}\u0000${folder.domain}`;
    if (!groups.has(key)) groups.set(key, { above: folder.above, domain: folder.domain, files: [] });
    groups.get(key)!.files.push(folder.file);
  }
  for (const { above, domain, files: candidates } of groups.values()) {
    const files = await readable(search, candidates);
    if (files.length === 0) continue;
    sets.push({
      fileSet: {
        path: posix.join(above, '{locale}', 'LC_MESSAGES', `${domain}.po`),
        format: 'po',
        ...spellings(files),
      },
      locales: distinct(files.map((file) => file.locale)).sort(),
      files: files.map((file) => file.path).sort(),
      found: files,
      namespaceHint: domain,
      source: { kind: 'files' },
    });
  }
  return sets;
};

/** A POT's file set: its catalogs beside it, below it, or in the one other folder of its domain. */
async function templateFileSet(
  search: LayoutSearch,
  pot: string,
  paths: readonly string[],
  claimed: ReadonlySet<string>,
): Promise<FoundFileSet> {
  const dir = posix.dirname(pot);
  const domain = posix.basename(pot, '.pot');
  const beside: FoundFile[] = [];
  const below: FoundFile[] = [];
  // The domain's catalogs in LC_MESSAGES folders elsewhere, by the folder above the locales.
  const elsewhere = new Map<string, FoundFile[]>();
  for (const path of paths) {
    if (!path.endsWith('.po') || claimed.has(path)) continue;
    const folder = inMessagesFolder(path);
    if (folder && folder.domain === domain) {
      if (folder.above === dir) below.push(folder.file);
      else elsewhere.set(folder.above, [...(elsewhere.get(folder.above) ?? []), folder.file]);
    } else if (posix.dirname(path) === dir) {
      const locale = localeSpelledBy(po, posix.basename(path, '.po'));
      if (locale) beside.push(foundFile(path, locale));
    }
  }
  let messagesAbove = below.length > beside.length ? dir : undefined;
  if (beside.length === 0 && below.length === 0 && elsewhere.size === 1) {
    const [above, files] = [...elsewhere][0]!;
    messagesAbove = above;
    below.push(...files);
  }
  const files = await readable(search, messagesAbove === undefined ? beside : below);
  return {
    fileSet: {
      path:
        messagesAbove === undefined
          ? posix.join(dir, '{locale}.po')
          : posix.join(messagesAbove, '{locale}', 'LC_MESSAGES', `${domain}.po`),
      format: 'po',
      source: pot,
      ...spellings(files),
    },
    locales: distinct(files.map((file) => file.locale)).sort(),
    files: [pot, ...files.map((file) => file.path)].sort(),
    found: files,
    namespaceHint: domain,
    source: { kind: 'template', file: pot },
  };
}

function inMessagesFolder(path: string): MessagesFolder | undefined {
  if (!path.endsWith('.po')) return undefined;
  const dir = posix.dirname(path);
  if (posix.basename(dir) !== 'LC_MESSAGES') return undefined;
  const locale = localeSpelledBy(po, posix.basename(posix.dirname(dir)));
  if (locale === undefined) return undefined;
  return {
    above: posix.dirname(posix.dirname(dir)),
    domain: posix.basename(path, '.po'),
    file: foundFile(path, locale),
  };
}

/** The catalogs that read as PO, with their message counts; the others left out with a note. */
async function readable(search: LayoutSearch, files: readonly FoundFile[]): Promise<FoundFile[]> {
  const kept: FoundFile[] = [];
  for (const file of files) {
    const read = readForDetection({
      format: po,
      bytes: await search.read(file.path),
      locale: file.locale,
      path: file.path,
    });
    if ('error' in read) search.notes.push(`${file.path} was left out: ${read.error.message}`);
    else kept.push({ ...file, messages: read.messages });
  }
  return kept;
}
