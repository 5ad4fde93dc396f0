/**
 * An XML file's DOM as `@xmldom/xmldom` builds it, strictly: each error or fatal error xmldom
 * reports (not well-formed, an entity it does not know) is a FormatError with the line and column
 * of its locator, never a message on the console and a document read past it. xmldom reads the
 * DOCTYPE but never loads an external DTD or entity, and expands no entity a DTD declares, so
 * no document can make it fetch a file (XXE) or expand without bound (billion laughs).
 */
import { DOMParser } from '@xmldom/xmldom';
import { FormatError } from './format.js';
import { positionIn } from './utf8.js';

export type XmlNode = {
  nodeType: number;
  nodeName: string;
  lineNumber?: number;
  columnNumber?: number;
  firstChild: XmlNode | null;
  nextSibling: XmlNode | null;
  parentNode: XmlNode | null;
  data?: string;
  getAttribute?(name: string): string | null;
  hasAttribute?(name: string): boolean;
};

export function parseXmlStrictly(text: string, path: string): { documentElement: XmlNode | null } {
  let fault: FormatError | undefined;
  try {
    return new DOMParser({
      onError(level, message, context) {
        if (level === 'warning') return;
        const locator = (context as { locator?: { lineNumber?: number; columnNumber?: number } } | undefined)
          ?.locator;
        fault = new FormatError(
          path,
          `is not well-formed XML: ${message
            .split('\n')[0]!
            .replace(/^\[xmldom \w+\]\s*/, '')
            .trim()}`,
          locator?.lineNumber
            ? { line: locator.lineNumber, column: locator.columnNumber ?? 1 }
            : { line: 1, column: 1 },
        );
        throw fault;
      },
    }).parseFromString(text, 'text/xml') as unknown as { documentElement: XmlNode | null };
  } catch (error) {
    // xmldom wraps what its error handler throws in a ParseError of its own.
    if (fault) throw fault;
    if (error instanceof RangeError) {
      throw new FormatError(path, 'is nested too deeply to read', { line: 1, column: 1 });
    }
    throw new FormatError(path, `is not well-formed XML: ${(error as Error).message}`, {
      line: 1,
      column: 1,
    });
  }
}

/**
 * Refuses a DOCTYPE that declares anything of its own (`<!DOCTYPE plist [ <!ENTITY … > ]>`), at
 * its place: a locale file needs no DTD, and one with entities is how an entity bomb comes.
 */
export function refuseInternalSubset(text: string, path: string, what: string): void {
  const doctype = /<!DOCTYPE[^[>]*\[/i.exec(text);
  if (!doctype) return;
  throw new FormatError(
    path,
    `has a DOCTYPE with declarations of its own ([…]); ${what} have none, and Tolk reads no DTD or entity`,
    positionIn(text, doctype.index),
  );
}

/** The end of an element's opening tag: the first `>` outside quotes. */
export function openTagEnd(text: string, start: number): number {
  let quote = '';
  for (let at = start; at < text.length; at++) {
    const char = text[at]!;
    if (quote) {
      if (char === quote) quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '>') return at + 1;
  }
  return text.length;
}
