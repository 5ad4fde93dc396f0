/**
 * The one form of an email address that identity-service stores and looks up, and that the
 * gateway counts failed logins under: the same mailbox typed any way is one account and one lock.
 *
 * - Surrounding whitespace goes (JavaScript's trim: Unicode spaces, NBSP, line breaks, BOM).
 * - Lower case: Tolk has always treated addresses case-insensitively, as every mail provider does.
 * - Unicode NFC (what RFC 6532 §3.1 asks of internationalised addresses): canonically equivalent
 *   spellings, such as `é` precomposed or `e` + combining accent (NFD, as some keyboards and
 *   macOS file names produce), become one. Not NFKC, which would also merge characters that only
 *   look alike or are compatibility variants (`ﬁ` and `fi`, full-width letters, `①` and `1`):
 *   that changes what was typed into a different address, which mail servers do not do.
 *   Lower-casing runs first because it can leave text that NFC composes further.
 *
 * Stored addresses needed no migration to this form: sign-up has only ever taken addresses that
 * z.email's ASCII pattern accepts, trimmed and lower-cased, and NFC leaves ASCII as it is.
 */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase().normalize('NFC');
}
