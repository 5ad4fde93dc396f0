/**
 * What is wrong with a locale document, in the format's own terms: the server answers each
 * with an HTTP error, the CLI with an exit code, each where it parses.
 */
export type LocaleFileErrorCode =
  /** No document at all (an empty upload): never an empty file that would delete every key. */
  | 'DOCUMENT_REQUIRED'
  /** The document is not a JSON object of keys. */
  | 'NOT_AN_OBJECT'
  /** More keys than the limit allows. */
  | 'TOO_MANY_KEYS'
  /** A key path longer than the limit. */
  | 'KEY_TOO_LONG'
  /** A value longer than the limit. */
  | 'VALUE_TOO_LONG'
  /** A value with more opening braces (ICU arguments, placeholders, branches) than the limit. */
  | 'TOO_MANY_BRACES'
  /** Nested deeper than the limit. */
  | 'TOO_DEEP'
  /** A leaf that is not a string. */
  | 'NOT_A_STRING'
  /** An empty object or array below the top level. */
  | 'EMPTY_CONTAINER'
  /** A key segment that is empty (`"a..b"`, `"."`, `""`). */
  | 'EMPTY_SEGMENT'
  /** Two paths that flatten to the same key. */
  | 'DUPLICATE_KEY'
  /** An `@key` or `@@metadata` entry that breaks the annotation rules. */
  | 'INVALID_ANNOTATION';

/** The document's place and the limit a refusal is about; `path` is the key path in full. */
export type LocaleFileErrorDetails = { path?: string; limit?: number };

export class LocaleFileError extends Error {
  constructor(
    readonly code: LocaleFileErrorCode,
    message: string,
    readonly details: LocaleFileErrorDetails = {},
  ) {
    super(message);
    this.name = 'LocaleFileError';
  }
}

/** The message of a document-less upload, as every Tolk route needing a body words it. */
export const DOCUMENT_REQUIRED_MESSAGE = 'body: a JSON body is required';
