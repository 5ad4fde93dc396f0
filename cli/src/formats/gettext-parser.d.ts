// The part of gettext-parser (which ships no types) the `po` format uses.
declare module 'gettext-parser' {
  export type PoEntry = {
    msgid: string;
    msgctxt?: string;
    msgid_plural?: string;
    msgstr: string[];
    comments?: {
      translator?: string;
      extracted?: string;
      reference?: string;
      flag?: string;
      previous?: string;
    };
  };
  export type PoData = {
    charset: string;
    headers: Record<string, string>;
    translations: Record<string, Record<string, PoEntry>>;
  };
  export const po: { parse(input: string | Buffer, options?: { validation?: boolean }): PoData };
}
