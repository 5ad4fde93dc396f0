import type { AiProvider } from '@tolk/contracts';
import { tolkApi } from '../api/tolk-api.js';
import { projectContext } from '../context.js';
import { saveSyncState } from '../files/sync-state.js';
import type { Io } from '../io.js';
import { translateContext } from '../translate/context.js';
import type { FixLevel } from '../translate/fix.js';
import { translateWork } from '../translate/jobs.js';
import { chooseModel } from '../translate/model.js';
import { planWork } from '../translate/plan.js';
import { createProgress } from '../translate/progress.js';
import { nothingToTranslate, summarize } from '../translate/summary.js';
import { uploadLocale } from '../translate/upload-locale.js';

export type TranslateOptions = {
  locale: string[];
  provider?: AiProvider;
  model?: string;
  baseUrl?: string;
  /** Translate again every key not a person's (missing, outdated, the model's). */
  force: boolean;
  /** Translation memory: identical texts filled without the model, near matches as examples (default on). */
  memory?: boolean;
  /** With force: a person's translations too. */
  overwriteHuman?: boolean;
  /**
   * `--fix`: the keys whose translation has errors (`warnings`: or warnings) go to the model with
   * their text as the reference (DESIGN §15). Without it, a person's translation is never sent for
   * what it says.
   */
  fix?: FixLevel;
  concurrency: number;
  json: boolean;
};

/**
 * For each behind locale: its missing and outdated keys (all keys with --force) in batches to the
 * model, every answer checked before use; then the local target file merged and written, and
 * uploaded with the source version the translations were made from.
 */
export async function translate(io: Io, options: TranslateOptions) {
  const started = Date.now();
  const { out, project, client, credential, apiUrl } = await projectContext(io, options);
  const api = tolkApi(client);
  const context = await translateContext({
    io,
    out,
    api,
    project,
    locale: options.locale,
    memory: options.memory,
  });
  const { problems, version } = context;
  const { work, memorySavedChars } = await planWork(context, options);
  if (work.length === 0) return nothingToTranslate({ out, problems, version, fix: options.fix, started });

  const needsModel = work.some((item) => item.keys.length > 0);
  const chosen = needsModel
    ? await chooseModel({
        io,
        out,
        api,
        apiUrl,
        credential,
        settings: context.settings,
        provider: options.provider,
        model: options.model,
        baseUrl: options.baseUrl,
      })
    : undefined;
  // With --json the document alone goes to stdout: the progress goes to stderr, line by line.
  const progress = createProgress(out.json ? io.stderr : io.stdout, {
    tty: io.isTTY && !out.json,
    locales: work.map((item) => ({ locale: item.locale, total: item.keys.length })),
  });
  const { usage, fatal } = await translateWork({
    context,
    work,
    model: chosen?.model,
    progress,
    concurrency: options.concurrency,
    finish: (item) =>
      uploadLocale(context, { item, progress, model: chosen && `${chosen.provider}:${chosen.modelId}` }),
  });
  progress.done();
  await saveSyncState(project.dir, context.syncState);

  return summarize({
    out,
    work,
    problems,
    provider: chosen?.provider,
    modelId: chosen?.modelId,
    usage,
    fatal,
    fix: options.fix,
    started,
    memorySavedChars,
  });
}
