/**
 * A gettext app end to end (DESIGN §12), against the real system with the model stand-in:
 * `tolk init` finds `po/messages.pot`, push, translate into Polish and Brazilian Portuguese
 * writes `po/pl.po` and `po/pt_BR.po`, `msgfmt --check-format --check-header` accepts each, the
 * Polish catalog has gettext's three Polish plural forms filled from CLDR's one, few and many,
 * and pull restores the targets byte for byte.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type System } from '../../test/e2e/system.js';
import { appProject, type AppProject } from './support/app-project.js';
import { msgfmtCheck, needTools } from './support/platform-tools.js';
import { fakeTranslation, startOpenAIStandIn, type ProviderStandIn } from './support/provider-stand-ins.js';

const POT = `# Messages of the shop.
# Copyright (C) 2026 The Shop
# This file is distributed under the same license as the shop package.
#, fuzzy
msgid ""
msgstr ""
"Project-Id-Version: shop 1.0\\n"
"Report-Msgid-Bugs-To: \\n"
"POT-Creation-Date: 2026-01-05 10:00+0000\\n"
"PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\\n"
"Last-Translator: FULL NAME <EMAIL@ADDRESS>\\n"
"Language-Team: LANGUAGE <LL@li.org>\\n"
"Language: \\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n"

#. The title of the home page.
#: src/home.c:12
msgid "Welcome to the shop."
msgstr ""

#. A button of the menu: keep it short.
#: src/menu.c:40
msgctxt "menu"
msgid "Open"
msgstr ""

#: src/files.c:8
msgctxt "file"
msgid "Open"
msgstr ""

#: src/cart.c:21
#, c-format
msgid "Hello %s, you have %d new message"
msgid_plural "Hello %s, you have %d new messages"
msgstr[0] ""
msgstr[1] ""

#: src/cart.c:30
#, python-brace-format
msgid "Total: {amount}"
msgstr ""
`;

const TARGETS = ['po/pl.po', 'po/pt_BR.po'];

// Django's `makemessages -l en`: the source language's catalog, its msgstrs empty.
const DJANGO_EN = `# Shop translations.
msgid ""
msgstr ""
"Project-Id-Version: shop\\n"
"POT-Creation-Date: 2026-01-05 10:00+0000\\n"
"PO-Revision-Date: 2026-01-06 09:00+0000\\n"
"Last-Translator: Ana Silva <ana@example.com>\\n"
"Language-Team: Shop translators <i18n@example.com>\\n"
"Language: en\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

#. Heading of the order page
#: shop/templates/order.html:4
msgid "Your order"
msgstr ""

#: shop/views.py:31
#, python-format
msgid "%(count)s item in your cart"
msgid_plural "%(count)s items in your cart"
msgstr[0] ""
msgstr[1] ""
`;
const DJANGO_TARGETS = ['locale/pl/LC_MESSAGES/django.po', 'locale/pt_BR/LC_MESSAGES/django.po'];

describe('a gettext app', () => {
  let system: System;
  let openai: ProviderStandIn;
  let app: AppProject;
  let django: AppProject | undefined;
  let token: string;

  beforeAll(async () => {
    [system, openai] = await Promise.all([startSystem({ sources: true }), startOpenAIStandIn()]);
    ({ token } = await system.signUp());
    // The stand-in's translation, each plural branch marked with its category, so the test sees
    // which CLDR form went to which msgstr[n]; its locale mark stays outside the plural.
    openai.answerAlways({
      translate: (asked, target) =>
        Object.fromEntries(
          Object.entries(asked).map(([key, text]) => [
            key,
            fakeTranslation(text, target).replace(/\b(zero|one|two|few|many|other) \{/g, '$1 {($1) '),
          ]),
        ),
    });
    app = await appProject({
      apiUrl: system.base,
      token,
      model: openai,
      files: { 'po/messages.pot': POT, 'src/home.c': 'int main(void) { return 0; }\n' },
    });
  });
  afterAll(async () => {
    await django?.remove();
    await app?.remove();
    await openai?.close();
    await system?.close();
  });

  it('when tolk init, push and translate run, then po/pl.po and po/pt_BR.po are written from the POT', async () => {
    const init = await app.tolk(['init', '--name', 'Shop', '--targets', 'pl,pt-BR', '--yes', '--json']);
    expect(init.code, init.stderr).toBe(0);
    const config = await app.cli.readJson('tolk.json');
    expect(config).toMatchObject({ sourceLocale: 'en', targetLocales: ['pl', 'pt-BR'] });
    expect(config.files).toEqual([{ path: 'po/{locale}.po', format: 'po', source: 'po/messages.pot' }]);

    const push = await app.tolk(['push', '--json']);
    expect(push.code, push.stderr).toBe(0);
    expect(push.json()).toMatchObject({ version: 1, keyCount: 5 });
    // The model sees the extracted comments as context.
    const translated = await app.translate();
    expect(translated.code, translated.stderr).toBe(0);
    expect(JSON.stringify(openai.requests.map((request) => request.body))).toContain(
      'A button of the menu: keep it short.',
    );

    const polish = await app.text('po/pl.po');
    expect(polish).toContain('"Language: pl\\n"');
    // Wrapped at 79 columns as gettext's tools wrap it.
    expect(polish).toContain(
      '"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 "\n"|| n%100>=20) ? 1 : 2);\\n"',
    );
    expect(polish).toContain(
      '#. A button of the menu: keep it short.\n#: src/menu.c:40\nmsgctxt "menu"\nmsgid "Open"\nmsgstr "[pl] Open"',
    );
    expect(polish).toContain('msgctxt "file"\nmsgid "Open"\nmsgstr "[pl] Open"');
    expect(polish).toContain('msgstr "[pl] Total: {amount}"');
    const brazilian = await app.text('po/pt_BR.po');
    expect(brazilian).toContain('"Language: pt_BR\\n"');
    expect(brazilian).toContain('"Plural-Forms: nplurals=2; plural=(n > 1);\\n"');
  });

  it("when the plural entry is written in Polish, then msgstr[0..2] are CLDR's one, few and many (gettext's Polish has three forms), the text around the plural in each", async () => {
    const polish = await app.text('po/pl.po');
    const plural = /msgid_plural .*\n((?:msgstr\[\d\] .*\n)+)/.exec(polish)?.[1];
    expect(plural).toBe(
      [
        'msgstr[0] "[pl] (one) Hello %s, you have %d new message"',
        'msgstr[1] "[pl] (few) Hello %s, you have %d new messages"',
        'msgstr[2] "[pl] (many) Hello %s, you have %d new messages"',
        '',
      ].join('\n'),
    );
    const brazilian = await app.text('po/pt_BR.po');
    expect(/msgid_plural .*\n((?:msgstr\[\d\] .*\n)+)/.exec(brazilian)?.[1]).toBe(
      [
        'msgstr[0] "[pt-BR] (one) Hello %s, you have %d new message"',
        'msgstr[1] "[pt-BR] (other) Hello %s, you have %d new messages"',
        '',
      ].join('\n'),
    );
  });

  it('when msgfmt checks every catalog written, then it accepts each, warning only of the header fields the POT left to the translator', (context) => {
    needTools(context, 'msgfmt');
    for (const path of TARGETS) {
      const check = msgfmtCheck(app.path(path));
      expect(check.status, check.stderr).toBe(0);
      // PO-Revision-Date, Last-Translator and Language-Team keep the POT's placeholders: Tolk
      // writes the same bytes on every pull, and the team fills them in if it wants them.
      const warnings = check.stderr.split('\n').filter((line) => line !== '');
      expect(warnings.map((line) => line.slice(line.indexOf(': ') + 2))).toEqual(
        ['PO-Revision-Date', 'Last-Translator', 'Language-Team'].map(
          (field) => `warning: header field '${field}' still has the initial default value`,
        ),
      );
    }
  });

  it('when the targets are deleted, then pull restores them byte for byte, and status --check passes', async () => {
    const { pull, before, after } = await app.pullRestores(TARGETS);
    expect(pull.code, pull.stderr).toBe(0);
    expect(after).toEqual(before);
    const status = await app.tolk(['status', '--check']);
    expect(status.code, status.stdout + status.stderr).toBe(0);
  });

  it('when a Django app has locale/en/LC_MESSAGES/django.po and no POT, then the English catalog is the source and every locale gets its LC_MESSAGES/django.po, which msgfmt accepts', async (context) => {
    django = await appProject({
      apiUrl: system.base,
      token,
      model: openai,
      files: { 'locale/en/LC_MESSAGES/django.po': DJANGO_EN },
    });
    const init = await django.tolk(['init', '--name', 'Django', '--targets', 'pl,pt-BR', '--yes', '--json']);
    expect(init.code, init.stderr).toBe(0);
    const config = await django.cli.readJson('tolk.json');
    expect(config).toMatchObject({ sourceLocale: 'en', targetLocales: ['pl', 'pt-BR'] });
    expect(config.files).toEqual([{ path: 'locale/{locale}/LC_MESSAGES/django.po', format: 'po' }]);

    const push = await django.tolk(['push', '--json']);
    expect(push.code, push.stderr).toBe(0);
    expect(push.json()).toMatchObject({ version: 1, keyCount: 2 });
    const translated = await django.translate();
    expect(translated.code, translated.stderr).toBe(0);
    const polish = await django.text(DJANGO_TARGETS[0]!);
    expect(polish).toContain('"Language: pl\\n"');
    expect(polish).toContain('msgid "Your order"\nmsgstr "[pl] Your order"');
    expect(polish).toContain(
      'msgstr[0] "[pl] (one) %(count)s item in your cart"\nmsgstr[1] "[pl] (few) %(count)s items in your cart"\nmsgstr[2] "[pl] (many) %(count)s items in your cart"\n',
    );
    expect(await django.text(DJANGO_TARGETS[1]!)).toContain('"Language: pt_BR\\n"');

    const { pull, before, after } = await django.pullRestores(DJANGO_TARGETS);
    expect(pull.code, pull.stderr).toBe(0);
    expect(after).toEqual(before);
    const status = await django.tolk(['status', '--check']);
    expect(status.code, status.stdout + status.stderr).toBe(0);

    needTools(context, 'msgfmt');
    for (const path of DJANGO_TARGETS) {
      const check = msgfmtCheck(django.path(path));
      expect(check, path).toMatchObject({ status: 0, stderr: '' });
    }
  });
});
