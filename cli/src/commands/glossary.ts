import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { tolkApi } from '../api/tolk-api.js';
import { projectContext } from '../context.js';
import { CliError, ExitCode, usageError } from '../errors.js';
import { shown } from '../files/locale-files.js';
import { FormatError } from '../formats/format.js';
import { formatGlossaryCsv, parseGlossaryCsv } from '../glossary/glossary-csv.js';
import type { Io } from '../io.js';

/**
 * `tolk glossary export [--out file.csv]`: the project's glossary as CSV, to the file or stdout.
 * With --json and no --out, the entries as JSON instead.
 */
export async function glossaryExport(io: Io, options: { out?: string; json: boolean }) {
  const { out, project, client } = await projectContext(io, options);
  const { projectId, targetLocales } = project.config;
  const { entries } = await tolkApi(client).getGlossary(projectId);
  const csv = formatGlossaryCsv(entries, targetLocales);
  if (options.out === undefined) {
    if (options.json) out.document({ entries });
    else io.stdout.write(csv);
    return ExitCode.ok;
  }
  const path = resolve(io.cwd, options.out);
  await writeFile(path, csv);
  out.line(
    `Wrote ${entries.length} glossary entr${entries.length === 1 ? 'y' : 'ies'} to ${shown(path, io.cwd)}.`,
  );
  out.document({ file: shown(path, io.cwd), entries: entries.length });
  return ExitCode.ok;
}

/**
 * `tolk glossary import file.csv [--replace]`: the CSV's entries into the project's glossary, all
 * or nothing. Entries of terms already there are replaced; without --replace every other entry
 * stays, with it the glossary becomes exactly the file.
 */
export async function glossaryImport(io: Io, options: { file: string; replace: boolean; json: boolean }) {
  const { out, project, client } = await projectContext(io, options);
  const path = resolve(io.cwd, options.file);
  const name = shown(path, io.cwd);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw usageError(`${name}: no such file`);
    throw error;
  }
  let entries;
  try {
    entries = parseGlossaryCsv(bytes, name);
  } catch (error) {
    if (error instanceof FormatError) throw new CliError(error.code, error.message, ExitCode.usage);
    throw error;
  }
  const result = await tolkApi(client).putGlossary(project.config.projectId, entries, !options.replace);
  const { created, updated, unchanged, deleted, total } = result;
  out.line(
    `Imported ${name}: ${created} new, ${updated} changed, ${unchanged} unchanged` +
      `${options.replace ? `, ${deleted} deleted` : ''}; the glossary has ${total} entr${total === 1 ? 'y' : 'ies'}.`,
  );
  out.document({ file: name, created, updated, unchanged, deleted, entries: total });
  return ExitCode.ok;
}
