import { NotFoundError } from '@tolk/errors';
import type { LocaleRow } from '../data-access/locales-repository.js';
import { statusOf, type LocaleStatus } from './locale-state.js';

/** The locale record (DESIGN §5). */
export type Locale = {
  locale: string;
  status: LocaleStatus;
  syncedVersion: number;
  sourceVersion: number;
  keyCount: number;
  translatedCount: number;
  missingCount: number;
  outdatedCount: number;
  /** Keys with an error finding (DESIGN §15). */
  errorCount: number;
  /** Keys with warning findings and no error. */
  warningCount: number;
  updatedAt: number;
};

/** The record of a locale's row, shown against source version `head`. */
export function presentLocale(row: LocaleRow, head: number): Locale {
  // Counts refreshed by a concurrent request may be newer than the head this one read.
  const sourceVersion = Math.max(head, row.countsVersion);
  return {
    locale: row.locale,
    status: statusOf(row.syncedVersion, sourceVersion),
    syncedVersion: row.syncedVersion,
    sourceVersion,
    keyCount: row.keyCount,
    translatedCount: row.translatedCount,
    missingCount: row.missingCount,
    outdatedCount: row.outdatedCount,
    errorCount: row.errorCount,
    warningCount: row.warningCount,
    updatedAt: row.updatedAt,
  };
}

export function localeNotFound(locale: string): NotFoundError {
  return new NotFoundError(`Locale ${locale} is not a target locale of this project`);
}
