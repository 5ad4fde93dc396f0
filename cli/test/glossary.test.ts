/**
 * The glossary through the CLI (DESIGN §13): `tolk glossary import|export` (CSV) against the real
 * system, and `tolk translate` with the stand-in model recording what it is sent: a term reaches
 * the prompt only when its batch uses it, and an answer missing a term's rendering is asked again.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GlossaryEntry } from '@tolk/contracts';
import { startSystem, type System } from '../../test/e2e/system.js';
import { createCliHarness, type CliHarness } from './support/cli-harness.js';
import {
  answers,
  startOpenAIStandIn,
  type ProviderStandIn,
  type RecordedRequest,
} from './support/provider-stand-ins.js';

describe('tolk glossary and translate with a glossary', () => {
  let system: System;
  let openai: ProviderStandIn;
  let user: { email: string; token: string; userId: string };
  let cli: CliHarness;
  let projectId: string;

  beforeAll(async () => {
    [system, openai] = await Promise.all([
      // A user of its own per test: more sign-ups than the gateway's 20 a minute per address.
      startSystem({ sources: true, tokens: true, gatewayEnv: { RATE_LIMIT_AUTH_PER_IP: '1000' } }),
      startOpenAIStandIn(),
    ]);
  });
  afterAll(async () => {
    await openai?.close();
    await system?.close();
  });

  // A user of its own per test: translation memory of another test's project would answer for the model.
  beforeEach(async () => {
    user = await system.signUp();
    cli = await createCliHarness(system.base);
    const init = await cli.tolk(['init', '--name', 'P', '--targets', 'de,fr', '--yes', '--json'], {
      env: { TOLK_TOKEN: user.token },
    });
    expect(init.code, init.stderr).toBe(0);
    projectId = init.json().projectId;
    openai.requests.length = 0;
    return () => cli.remove();
  });

  const tolk = (...args: string[]) => cli.tolk(args, { env: { TOLK_TOKEN: user.token } });
  const writeBytes = (name: string, bytes: Buffer | string) => writeFile(join(cli.cwd, name), bytes);
  const glossary = async (): Promise<GlossaryEntry[]> => {
    const response = await system.call('GET', `/v1/projects/${projectId}/glossary`, user.token);
    expect(response.status).toBe(200);
    return response.body.entries as GlossaryEntry[];
  };
  const setGlossary = async (entries: unknown[]) => {
    const response = await system.call('PUT', `/v1/projects/${projectId}/glossary`, user.token, { entries });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  };

  const CSV =
    '\ufeffterm,case_sensitive,keep_as_is,note,de,fr\r\n' +
    'cart,false,false,"the shopping cart, a noun",Warenkorb,panier\r\n' +
    'Tolk,true,true,,,\r\n' +
    '"Größe ""XL""",no,no,"two\nlines",Größe XL,\r\n';

  describe('tolk glossary import and export', () => {
    it('when a CSV with a BOM is imported and exported, then the entries round-trip', async () => {
      await writeBytes('glossary.csv', CSV);

      const imported = await tolk('glossary', 'import', 'glossary.csv');
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toBe(
        'Imported glossary.csv: 3 new, 0 changed, 0 unchanged; the glossary has 3 entries.\n',
      );
      expect(
        (await glossary()).map(({ term, caseSensitive, keepAsIs, note, translations }) => ({
          term,
          caseSensitive,
          keepAsIs,
          note,
          translations,
        })),
      ).toEqual([
        {
          term: 'cart',
          caseSensitive: false,
          keepAsIs: false,
          note: 'the shopping cart, a noun',
          translations: { de: 'Warenkorb', fr: 'panier' },
        },
        {
          term: 'Größe "XL"',
          caseSensitive: false,
          keepAsIs: false,
          note: 'two\nlines',
          translations: { de: 'Größe XL' },
        },
        { term: 'Tolk', caseSensitive: true, keepAsIs: true, note: null, translations: {} },
      ]);

      const exported = await tolk('glossary', 'export', '--out', 'out.csv');
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stdout).toBe('Wrote 3 glossary entries to out.csv.\n');
      expect(await cli.readText('out.csv')).toBe(
        'term,case_sensitive,keep_as_is,note,de,fr\n' +
          'cart,false,false,"the shopping cart, a noun",Warenkorb,panier\n' +
          '"Größe ""XL""",false,false,"two\nlines",Größe XL,\n' +
          'Tolk,true,true,,,\n',
      );

      const again = await tolk('glossary', 'import', 'out.csv', '--json');
      expect(again.code, again.stderr).toBe(0);
      expect(again.json()).toEqual({
        file: 'out.csv',
        created: 0,
        updated: 0,
        unchanged: 3,
        deleted: 0,
        entries: 3,
      });

      const toStdout = await tolk('glossary', 'export');
      expect(toStdout.stdout).toBe(await cli.readText('out.csv'));
    });

    it('when imported without --replace, then other terms stay; with it, they go', async () => {
      await setGlossary([{ term: 'checkout' }, { term: 'cart', translations: { de: 'Korb' } }]);
      await writeBytes('g.csv', 'term,case_sensitive,keep_as_is,note,de\nCart,,,,Warenkorb\n');

      const merged = await tolk('glossary', 'import', 'g.csv');
      expect(merged.code, merged.stderr).toBe(0);
      expect((await glossary()).map((e) => [e.term, e.translations])).toEqual([
        ['Cart', { de: 'Warenkorb' }],
        ['checkout', {}],
      ]);

      const replaced = await tolk('glossary', 'import', 'g.csv', '--replace');
      expect(replaced.code, replaced.stderr).toBe(0);
      expect(replaced.stdout).toBe(
        'Imported g.csv: 0 new, 0 changed, 1 unchanged, 1 deleted; the glossary has 1 entry.\n',
      );
      expect((await glossary()).map((e) => e.term)).toEqual(['Cart']);
    });

    it.each([
      [
        'a wrong header column',
        'term,case_sensitive,keep,note,de\ncart,false,false,,Warenkorb\n',
        'g.csv:1:3: header column 3 is "keep", expected keep_as_is; the header is term,case_sensitive,keep_as_is,note followed by one column per locale code (de,fr,pt-BR...)',
      ],
      [
        'a missing header column',
        'term,case_sensitive,keep_as_is\n',
        'g.csv:1:4: header column 4 is missing, expected note; the header is term,case_sensitive,keep_as_is,note followed by one column per locale code (de,fr,pt-BR...)',
      ],
      [
        'no header at all',
        '',
        'g.csv:1:1: has no header; the header is term,case_sensitive,keep_as_is,note followed by one column per locale code (de,fr,pt-BR...)',
      ],
      [
        'a locale column that is no locale',
        'term,case_sensitive,keep_as_is,note,german\n',
        'g.csv:1:5: header column 5 should be a locale code: "german" is not a BCP 47 locale code such as de, pt-BR, zh-Hant or es-419',
      ],
      [
        'a row with a column too many',
        'term,case_sensitive,keep_as_is,note,de\ncart,false,false,,Warenkorb,extra\n',
        'g.csv:2:1: is not valid CSV: Invalid Record Length: expect 5, got 6 on line 2',
      ],
      [
        'a flag that is not true or false',
        'term,case_sensitive,keep_as_is,note,de\ncart,false,maybe,,\n',
        'g.csv:2:3: keep_as_is is "maybe"; use true or false',
      ],
      [
        'an empty term',
        'term,case_sensitive,keep_as_is,note,de\ncart,,,,\n  ,,,,Leer\n',
        'g.csv:3:1: term: must not be empty',
      ],
      [
        'a term of 1,000 characters',
        `term,case_sensitive,keep_as_is,note,de\n${'x'.repeat(1000)},,,,\n`,
        'g.csv:2:1: term: must be at most 200 characters (it has 1000)',
      ],
      [
        'a rendering for a term kept as is',
        'term,case_sensitive,keep_as_is,note,de\nTolk,,true,,Tolk\n',
        'g.csv:2:5: translations: must be empty when keepAsIs is true (the term stays as it is in every locale)',
      ],
      [
        'a term twice, in another case',
        'term,case_sensitive,keep_as_is,note,de\ncart,,,,Warenkorb\nbasket,,,,\nCART,,,,Korb\n',
        'g.csv:4:1: a term appears more than once (terms are compared ignoring case): lines 2, 4',
      ],
    ])(
      'when the CSV has %s, then exit 2 naming the line and column, and nothing is stored',
      async (_, csv, message) => {
        await setGlossary([{ term: 'existing' }]);
        await writeBytes('g.csv', csv);

        const result = await tolk('glossary', 'import', 'g.csv', '--replace');

        expect(result.code).toBe(2);
        expect(result.stderr).toBe(`error: INVALID_FILE: ${message}\n`);
        expect((await glossary()).map((e) => e.term)).toEqual(['existing']);
      },
    );

    it('when the CSV is not UTF-8, then exit 2 naming the line and column', async () => {
      await writeBytes(
        'g.csv',
        Buffer.concat([
          Buffer.from('term,case_sensitive,keep_as_is,note,de\ncart,,,,'),
          Buffer.from([0xff, 0xfe]),
          Buffer.from('\n'),
        ]),
      );
      const result = await tolk('glossary', 'import', 'g.csv');
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        'error: INVALID_FILE: g.csv:2:9: is not UTF-8 text; save the glossary as UTF-8 CSV\n',
      );
      expect(await glossary()).toEqual([]);
    });

    it('when a project token imports, then read_write may and read may not (exit 3); any token exports', async () => {
      await writeBytes('g.csv', 'term,case_sensitive,keep_as_is,note,de\ncart,,,,Warenkorb\n');
      const token = async (permissions: string) => {
        const created = await system.call('POST', `/v1/projects/${projectId}/tokens`, user.token, {
          label: permissions,
          permissions,
        });
        expect(created.status).toBe(201);
        return created.body.token as string;
      };
      const [read, readWrite] = [await token('read'), await token('read_write')];
      const withToken = (value: string, ...args: string[]) => cli.tolk(args, { env: { TOLK_TOKEN: value } });

      const refused = await withToken(read, 'glossary', 'import', 'g.csv');
      expect(refused.code).toBe(3);
      expect(refused.stderr).toMatch(/^error: FORBIDDEN: /);
      expect(await glossary()).toEqual([]);

      expect((await withToken(readWrite, 'glossary', 'import', 'g.csv')).code).toBe(0);
      const exported = await withToken(read, 'glossary', 'export');
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stdout).toBe(
        'term,case_sensitive,keep_as_is,note,de,fr\ncart,false,false,,Warenkorb,\n',
      );
    });

    it('when terms, notes and renderings start like formulas, then the exported file shows them as text (quoted, after a quote mark) and importing it changes nothing', async () => {
      await setGlossary([
        {
          term: "=cmd|' /C calc'!A0",
          note: '@SUM(1+1)*cmd|x',
          translations: { de: '+HYPERLINK("http://x.example")' },
        },
        { term: "'=quoted already", translations: { fr: '-1' } },
        { term: 'plain', note: "'apostrophe" },
      ]);

      const exported = await tolk('glossary', 'export', '--out', 'g.csv');

      expect(exported.code, exported.stderr).toBe(0);
      expect(await cli.readText('g.csv')).toBe(
        'term,case_sensitive,keep_as_is,note,de,fr\n' +
          `"''=quoted already",false,false,,,"'-1"\n` +
          `"'=cmd|' /C calc'!A0",false,false,"'@SUM(1+1)*cmd|x","'+HYPERLINK(""http://x.example"")",\n` +
          "plain,false,false,'apostrophe,,\n",
      );
      const before = await glossary();
      const imported = await tolk('glossary', 'import', 'g.csv', '--replace');
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toBe(
        'Imported g.csv: 0 new, 0 changed, 3 unchanged, 0 deleted; the glossary has 3 entries.\n',
      );
      expect(await glossary()).toStrictEqual(before);
    });

    it('when the glossary has more entries than a page holds, then export writes every one of them', async () => {
      const entries = Array.from({ length: 1_100 }, (_, i) => ({
        term: `term ${String(i).padStart(4, '0')}`,
      }));
      await setGlossary(entries);

      const exported = await tolk('glossary', 'export', '--out', 'g.csv');

      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stdout).toBe('Wrote 1100 glossary entries to g.csv.\n');
      const lines = (await cli.readText('g.csv')).trimEnd().split('\n');
      expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(entries.map((e) => e.term));
    });

    it('when the file does not exist, then exit 2 naming it', async () => {
      const result = await tolk('glossary', 'import', 'missing.csv');
      expect(result.code).toBe(2);
      expect(result.stderr).toBe('error: USAGE: missing.csv: no such file\n');
    });
  });

  describe('tolk translate with a glossary', () => {
    /** The last user message of a request to the stand-in: what the model was told. */
    const promptOf = (request: RecordedRequest): string => {
      const messages = (request.body as { messages: { role: string; content: unknown }[] }).messages;
      const content = messages.filter((m) => m.role === 'user').at(-1)!.content;
      return typeof content === 'string' ? content : JSON.stringify(content);
    };
    const translate = (...args: string[]) =>
      tolk(
        'translate',
        '--base-url',
        openai.baseURL,
        '--model',
        'm',
        '--concurrency',
        '1',
        '--locale',
        'de',
        ...args,
      );

    it('when a term occurs in one batch only, then only that batch is told it, and an unused term never', async () => {
      // 205 keys: two batches (at most 200 keys each); "Tolk" only in the first, "Tolkien" (not the term) in the second.
      const source: Record<string, string> = { welcome: 'Welcome to Tolk' };
      for (let i = 1; i <= 203; i++) source[`text${String(i).padStart(3, '0')}`] = `Text ${i}`;
      source['zbooks'] = 'Books by Tolkien';
      await cli.writeJson('locales/en.json', source);
      expect((await tolk('push')).code).toBe(0);
      await setGlossary([
        { term: 'Tolk', caseSensitive: true, keepAsIs: true, note: 'our product' },
        { term: 'cart', translations: { de: 'Warenkorb' } },
      ]);

      const result = await translate();

      expect(result.code, result.stderr).toBe(0);
      expect(openai.requests).toHaveLength(2);
      const [first, second] = openai.requests.map(promptOf);
      expect(first).toContain(
        'Glossary: where a text uses one of these terms, its translation must use exactly the de rendering given ' +
          '(inflect it only where the grammar requires):\n- "Tolk": keep as is, untranslated (note: our product)',
      );
      expect(first).not.toContain('cart');
      expect(second).not.toContain('Glossary');
      expect(openai.stringsReceived()[1]).toHaveProperty('zbooks');
    });

    it('when the term a batch uses is on the glossary’s last page, then the model is told it', async () => {
      await cli.writeJson('locales/en.json', { greeting: 'Open the zebra menu' });
      expect((await tolk('push')).code).toBe(0);
      const filler = Array.from({ length: 1_100 }, (_, i) => ({
        term: `term ${String(i).padStart(4, '0')}`,
      }));
      await setGlossary([...filler, { term: 'zebra', translations: { de: 'Zebra-Menü' } }]);

      const result = await translate();

      expect(result.code, result.stderr).toBe(0);
      expect(promptOf(openai.requests[0]!)).toContain('- "zebra" → "Zebra-Menü"');
    });

    it('when the answer misses a term once, then that key is asked again with the problem named and the right answer uploaded', async () => {
      await cli.writeJson('locales/en.json', { cart: 'Your cart', bye: 'Goodbye' });
      expect((await tolk('push')).code).toBe(0);
      await setGlossary([{ term: 'cart', translations: { de: 'Warenkorb' } }]);
      openai.script(answers.translated(), answers.withValue('cart', 'Ihr Warenkorb'));

      const result = await translate();

      expect(result.code, result.stderr).toBe(0);
      expect(openai.stringsReceived()).toEqual([
        { cart: 'Your cart', bye: 'Goodbye' },
        { cart: 'Your cart' },
      ]);
      const retry = promptOf(openai.requests[1]!);
      expect(retry).toContain('- "cart" → "Warenkorb"');
      expect(retry).toContain(
        'An earlier answer was rejected for these ids; fix this:\n- 1: does not follow the glossary: "cart" must be "Warenkorb"',
      );
      const translations = await system.call(
        'GET',
        `/v1/projects/${projectId}/locales/de/translations`,
        user.token,
      );
      expect(JSON.parse(translations.body.content)).toEqual({ cart: 'Ihr Warenkorb', bye: '[de] Goodbye' });
      expect(result.stderr).not.toContain('glossary');
    });

    it('when the answer always misses a term, then the last translation is kept and the key named in the summary', async () => {
      await cli.writeJson('locales/en.json', { cart: 'Your cart', bye: 'Goodbye' });
      expect((await tolk('push')).code).toBe(0);
      await setGlossary([{ term: 'cart', translations: { de: 'Warenkorb' } }]);

      const result = await translate('--json');

      expect(result.code, result.stderr).toBe(0);
      expect(openai.stringsReceived()).toEqual([
        { cart: 'Your cart', bye: 'Goodbye' },
        { cart: 'Your cart' },
        { cart: 'Your cart' },
      ]);
      expect(result.stderr).toContain(
        "de: 1 key kept without the glossary's rendering after every attempt; check them: cart\n" +
          '  cart: does not follow the glossary: "cart" must be "Warenkorb"\n',
      );
      expect(result.json().locales[0].glossaryMisses).toEqual([
        { key: 'cart', message: 'does not follow the glossary: "cart" must be "Warenkorb"' },
      ]);
      const translations = await system.call(
        'GET',
        `/v1/projects/${projectId}/locales/de/translations`,
        user.token,
      );
      expect(JSON.parse(translations.body.content)).toEqual({ cart: '[de] Your cart', bye: '[de] Goodbye' });
    });
  });
});
