import { PayloadTooLargeError, ValidationError } from '@tolk/errors';
import { LocaleFileError } from './errors.js';
import {
  parseSourceDocumentInSlices,
  type ParsedSource,
  type ParseOptions,
  type SourceLimits,
} from './parse-locale-file.js';

/**
 * A locale file uploaded to a service, parsed; what the format refuses is answered in the
 * services' error vocabulary (@tolk/errors): 413 PAYLOAD_TOO_LARGE for too many keys, 400
 * VALIDATION_ERROR for anything else, each with the parser's message (it names the key path).
 * Its own entry point (`@tolk/locale-file/upload`), so that the format itself, which the CLI
 * bundles, carries no service library. Read in time slices: the event loop serves others meanwhile.
 */
export async function parseUpload(
  body: unknown,
  limits: SourceLimits,
  options?: ParseOptions,
): Promise<ParsedSource> {
  try {
    return await parseSourceDocumentInSlices(body, limits, options);
  } catch (error) {
    if (!(error instanceof LocaleFileError)) throw error;
    throw error.code === 'TOO_MANY_KEYS'
      ? new PayloadTooLargeError(error.message)
      : new ValidationError(error.message);
  }
}
