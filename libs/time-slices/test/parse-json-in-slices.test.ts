import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonInSlices } from '../src/index.js';

/** Cut at every member: the smallest pieces, every container read member by member. */
const TINY = { wholeBytes: 0, pieceBytes: 1 };

/** What JSON.parse gives, compared with its key order and own `__proto__` members. */
function sameAsJsonParse(text: string, value: unknown): void {
  expect(JSON.stringify(value)).toBe(JSON.stringify(JSON.parse(text)));
  expect(value).toStrictEqual(JSON.parse(text));
}

/** JSON text of a value, with whitespace of its own between tokens. */
const jsonText = fc
  .tuple(
    fc.jsonValue({ maxDepth: 4 }),
    fc.constantFrom(undefined, 1, '\t', ' \r\n '),
    fc.constantFrom('', ' ', '\n'),
  )
  .map(([value, indent, around]) => `${around}${JSON.stringify(value, null, indent)}${around}`);

/** An object written with repeated keys, `__proto__`, integer-like names and escapes. */
const memberText = fc
  .array(
    fc.tuple(
      fc.constantFrom('a', 'b', '__proto__', '10', '2', 'x"y', 'é', '\u2028', 'a\\b'),
      fc.jsonValue({ maxDepth: 2 }),
    ),
    { maxLength: 12 },
  )
  .map(
    (members) =>
      `{${members.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(',')}}`,
  );

describe('parseJsonInSlices', () => {
  it('when any JSON text is cut at every member, then the value is the one JSON.parse gives', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(jsonText, memberText),
        fc.integer({ min: 1, max: 64 }),
        async (text, piece) => {
          sameAsJsonParse(
            text,
            await parseJsonInSlices(Buffer.from(text), { wholeBytes: 0, pieceBytes: piece }),
          );
        },
      ),
      { numRuns: 400 },
    );
  });

  it('when a key is repeated or is __proto__, then the last value stands in the first place and no prototype changes', async () => {
    const text = '{"b":1,"__proto__":{"polluted":true},"a":[1,{"b":2}],"b":3,"10":0,"2":0}';
    const value = (await parseJsonInSlices(Buffer.from(text), TINY)) as Record<string, unknown>;
    sameAsJsonParse(text, value);
    expect(Object.keys(value)).toEqual(['2', '10', 'b', '__proto__', 'a']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('when the text is not JSON, then it is parsed whole and fails as JSON.parse fails', async () => {
    const broken = fc
      .tuple(fc.oneof(jsonText, memberText), fc.nat(), fc.constantFrom('', ',', '}', ']', '"', ':', 'x', '{'))
      .map(([text, at, insert]) => {
        const cut = at % (text.length + 1);
        return text.slice(0, cut) + insert + text.slice(cut + (insert === '' ? 1 : 0));
      })
      .filter((text) => {
        try {
          JSON.parse(text);
          return false;
        } catch {
          return true;
        }
      });
    await fc.assert(
      fc.asyncProperty(broken, async (text) => {
        let wholes = 0;
        const whole = (bytes: Buffer) => {
          wholes++;
          return JSON.parse(bytes.toString('utf8')) as unknown;
        };
        const error = (() => {
          try {
            JSON.parse(text);
          } catch (err) {
            return err as SyntaxError;
          }
        })()!;
        await expect(parseJsonInSlices(Buffer.from(text), { ...TINY, whole })).rejects.toThrow(error.message);
        expect(wholes).toBe(1);
      }),
      { numRuns: 300 },
    );
  });

  it('when a text is small, then it is parsed whole, at once', async () => {
    let wholes = 0;
    const value = await parseJsonInSlices(Buffer.from('{"a":1}'), {
      whole: (bytes) => {
        wholes++;
        return JSON.parse(bytes.toString()) as unknown;
      },
    });
    expect(value).toEqual({ a: 1 });
    expect(wholes).toBe(1);
  });

  it('when a text starts with a byte order mark, then it is read past it', async () => {
    const text = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":[1,2]}')]);
    expect(await parseJsonInSlices(text, TINY)).toEqual({ a: [1, 2] });
  });

  it('when 2.5 MB of 50,000 keys are parsed, some in sections and some flat, then the event loop takes turns meanwhile and the value is JSON.parse’s', async () => {
    const document: Record<string, unknown> = {};
    for (let s = 0; s < 100; s++) {
      const section: Record<string, string> = {};
      for (let k = 0; k < 200; k++) section[`key${k}`] = `Text ${s}.${k} for {name} – ${'.'.repeat(30)}`;
      document[`section${s}`] = section;
    }
    for (let k = 0; k < 30_000; k++) document[`flat.key${k}`] = `Text ${k} for {name} – ${'.'.repeat(30)}`;
    const text = JSON.stringify(document);
    expect(text.length).toBeGreaterThan(2_500_000);
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const parsed = await parseJsonInSlices(Buffer.from(text));
    counting = false;
    // A turn every 2 ms of work: JSON.parse alone takes 25 ms or more of it.
    expect(turns).toBeGreaterThan(5);
    expect(JSON.stringify(parsed)).toBe(text);
  });
});
