import { PayloadTooLargeError, ValidationError } from '@tolk/http';
import {
  LocaleFileError,
  parseSourceDocument,
  type ParsedSource,
  type ParseOptions,
  type SourceLimits,
} from '@tolk/locale-file';

/**
 * An uploaded locale file, parsed; what the format refuses is answered in the error vocabulary:
 * 413 PAYLOAD_TOO_LARGE for too many keys, 400 VALIDATION_ERROR for anything else, each with the
 * parser's message (it names the key path).
 */
export function parseUpload(body: unknown, limits: SourceLimits, options?: ParseOptions): ParsedSource {
  try {
    return parseSourceDocument(body, limits, options);
  } catch (error) {
    if (!(error instanceof LocaleFileError)) throw error;
    throw error.code === 'TOO_MANY_KEYS'
      ? new PayloadTooLargeError(error.message)
      : new ValidationError(error.message);
  }
}
