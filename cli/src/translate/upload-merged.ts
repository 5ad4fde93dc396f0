import type { ProvenanceClaim, UploadTranslationsResponse } from '@tolk/contracts';
import type { TolkApi } from '../api/tolk-api.js';
import { ApiError, CliError, ExitCode } from '../errors.js';

/** A locale's translations as downloaded, with their revision (`etag`). */
export type ServerTranslations = Awaited<ReturnType<TolkApi['getTranslations']>>;

/** What merging this command's keys with the server's translations gives to upload. */
export type MergedUpload = {
  document: Record<string, unknown>;
  /** The source version the translations are uploaded as made from. */
  sourceVersion: number;
  claim?: ProvenanceClaim;
  /** How many keys of the upload are this command's own (new translations, local edits). */
  ownKeys: number;
};

export type UploadedMerge<M extends MergedUpload> = {
  merged: M;
  answer: UploadTranslationsResponse;
  /**
   * The server's translations changed between the download and the upload (412): this many of
   * the command's keys were merged with the newer ones and uploaded.
   */
  mergedAgain?: { keys: number };
};

/**
 * Uploads a locale's translations as `merge` makes them of the server's, with the revision of the
 * download it merged with as `If-Match`: the server stores the upload only if nobody replaced its
 * translations in between, so another client's values are never lost. When somebody did (412),
 * the translations are downloaded again and merged again — the command's own keys over the
 * newest, by the same rules — and uploaded once more; a second 412 is an error, and nothing of
 * this upload is stored. `merge` answers undefined when there is nothing to upload.
 */
export async function uploadMerged<M extends MergedUpload>(options: {
  api: TolkApi;
  projectId: string;
  locale: string;
  merge: (server: ServerTranslations) => Promise<M | undefined>;
}): Promise<UploadedMerge<M> | undefined> {
  const { api, projectId, locale, merge } = options;
  for (let attempt = 1; ; attempt++) {
    const server = await api.getTranslations(projectId, locale);
    const merged = await merge(server);
    if (!merged) return undefined;
    try {
      const answer = await api.putTranslations(projectId, locale, merged.document, merged.sourceVersion, {
        claim: merged.claim,
        ifMatch: server.etag,
      });
      return { merged, answer, ...(attempt > 1 && { mergedAgain: { keys: merged.ownKeys } }) };
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 412) throw error;
      if (attempt > 1) {
        throw new CliError(
          'PRECONDITION_FAILED',
          `the server's translations of ${locale} changed again while the upload was merged with them ` +
            'a second time; nothing of it was stored: run the command again',
          ExitCode.failure,
        );
      }
    }
  }
}

/** What a person reads of a retried upload. */
export function describeMergedAgain(locale: string, mergedAgain: { keys: number }): string {
  const keys = `${mergedAgain.keys} key${mergedAgain.keys === 1 ? '' : 's'}`;
  return `${locale}: the server's translations changed during the upload; merged ${keys} with them again and uploaded`;
}
