import { PROJECT_TOKEN_PREFIX } from '@tolk/contracts';

const TOKEN_IN_URL = new RegExp(`${PROJECT_TOKEN_PREFIX}[0-9A-Za-z]+`, 'g');

/**
 * The URL with anything shaped like a project API token replaced by `tolk_[redacted]`. A token
 * pasted where its id belongs (`DELETE .../tokens/tolk_...`) would otherwise be printed by the
 * access log and the error log, which name the path. No token id or project id starts so.
 */
export function redactTokensInUrl(url: string): string {
  return url.replace(TOKEN_IN_URL, `${PROJECT_TOKEN_PREFIX}[redacted]`);
}
