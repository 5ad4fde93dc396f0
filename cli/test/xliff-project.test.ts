/**
 * An Angular app end to end (DESIGN §12), against the real system with the model stand-in:
 * `tolk init` finds `src/locale/messages.xlf` (XLIFF 1.2 as `ng extract-i18n` writes it, with an
 * ICU plural and interpolations), push, translate into Polish and Brazilian Portuguese writes
 * `messages.pl.xlf` and `messages.pt-BR.xlf` (Angular's naming), `xmllint` and translate-toolkit's
 * `xliff2po` accept every file written, and pull restores the targets byte for byte.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type System } from '../../test/e2e/system.js';
import { appProject, type AppProject } from './support/app-project.js';
import { needTools, xliff2po, xmllint } from './support/platform-tools.js';
import { startOpenAIStandIn, type ProviderStandIn } from './support/provider-stand-ins.js';

const ANGULAR_JSON = `{
  "$schema": "./node_modules/@angular/cli/lib/config/schema.json",
  "version": 1,
  "projects": {
    "shop": {
      "projectType": "application",
      "root": "",
      "sourceRoot": "src",
      "i18n": {
        "sourceLocale": "en",
        "locales": {
          "pl": "src/locale/messages.pl.xlf",
          "pt-BR": "src/locale/messages.pt-BR.xlf"
        }
      }
    }
  }
}
`;

// What `ng extract-i18n --output-path src/locale` writes: an ICU message is a unit of its own,
// and the text that holds it refers to it with an <x id="ICU"/>.
const MESSAGES = `<?xml version="1.0" encoding="UTF-8" ?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en" datatype="plaintext" original="ng2.template">
    <body>
      <trans-unit id="homeTitle" datatype="html">
        <source>Welcome to the shop</source>
        <context-group purpose="location">
          <context context-type="sourcefile">src/app/home.component.html</context>
          <context context-type="linenumber">1</context>
        </context-group>
        <note priority="1" from="description">Title of the home page</note>
      </trans-unit>
      <trans-unit id="greeting" datatype="html">
        <source>Hello <x id="INTERPOLATION" equiv-text="{{ user.name }}"/>, you have <x id="ICU" equiv-text="{count, plural, =0 {...} =1 {...} other {...}}" xid="4279958548223931587"/></source>
        <context-group purpose="location">
          <context context-type="sourcefile">src/app/home.component.html</context>
          <context context-type="linenumber">3</context>
        </context-group>
      </trans-unit>
      <trans-unit id="4279958548223931587" datatype="html">
        <source>{VAR_PLURAL, plural, =0 {no messages} =1 {one message} other {<x id="INTERPOLATION" equiv-text="{{ count }}"/> messages}}</source>
        <context-group purpose="location">
          <context context-type="sourcefile">src/app/home.component.html</context>
          <context context-type="linenumber">3</context>
        </context-group>
      </trans-unit>
      <trans-unit id="checkout" datatype="html">
        <source>Go to <x id="START_LINK" ctype="x-a" equiv-text="&lt;a routerLink=&quot;/cart&quot;&gt;"/>checkout<x id="CLOSE_LINK" ctype="x-a" equiv-text="&lt;/a&gt;"/> &amp; pay</source>
        <note priority="1" from="meaning">cart</note>
      </trans-unit>
    </body>
  </file>
</xliff>
`;

const TARGETS = ['src/locale/messages.pl.xlf', 'src/locale/messages.pt-BR.xlf'];

describe('an Angular app', () => {
  let system: System;
  let openai: ProviderStandIn;
  let app: AppProject;

  beforeAll(async () => {
    [system, openai] = await Promise.all([startSystem({ sources: true }), startOpenAIStandIn()]);
    const { token } = await system.signUp();
    app = await appProject({
      apiUrl: system.base,
      token,
      model: openai,
      files: { 'angular.json': ANGULAR_JSON, 'src/locale/messages.xlf': MESSAGES },
    });
  });
  afterAll(async () => {
    await app?.remove();
    await openai?.close();
    await system?.close();
  });

  it('when tolk init, push and translate run, then messages.pl.xlf and messages.pt-BR.xlf are written with targets', async () => {
    const init = await app.tolk(['init', '--name', 'Shop', '--targets', 'pl,pt-BR', '--yes', '--json']);
    expect(init.code, init.stderr).toBe(0);
    const config = await app.cli.readJson('tolk.json');
    expect(config).toMatchObject({ sourceLocale: 'en', targetLocales: ['pl', 'pt-BR'] });
    expect(config.files).toEqual([
      { path: 'src/locale/messages.{locale}.xlf', format: 'xliff', source: 'src/locale/messages.xlf' },
    ]);

    const push = await app.tolk(['push', '--json']);
    expect(push.code, push.stderr).toBe(0);
    expect(push.json()).toMatchObject({ version: 1, keyCount: 4 });

    const translated = await app.translate();
    expect(translated.code, translated.stderr).toBe(0);
    const polish = await app.text(TARGETS[0]!);
    expect(polish).toContain(
      '<file source-language="en" datatype="plaintext" original="ng2.template" target-language="pl">',
    );
    expect(polish).toContain(
      '<source>Welcome to the shop</source>\n        <target state="translated">[pl] Welcome to the shop</target>',
    );
    // Each inline code comes back as the source has it.
    expect(polish).toContain(
      '<target state="translated">[pl] Hello <x id="INTERPOLATION" equiv-text="{{ user.name }}"/>, you have <x id="ICU" equiv-text="{count, plural, =0 {...} =1 {...} other {...}}" xid="4279958548223931587"/></target>',
    );
    // The ICU unit has Polish's categories, after the source's exact selectors.
    expect(polish).toContain(
      '<target state="translated">[pl] {VAR_PLURAL, plural, =0 {no messages} =1 {one message} one {<x id="INTERPOLATION" equiv-text="{{ count }}"/> messages} few {<x id="INTERPOLATION" equiv-text="{{ count }}"/> messages} many {<x id="INTERPOLATION" equiv-text="{{ count }}"/> messages} other {<x id="INTERPOLATION" equiv-text="{{ count }}"/> messages}}</target>',
    );
    expect(await app.text(TARGETS[1]!)).toContain('target-language="pt-BR"');
  });

  it('when xmllint and xliff2po read every file written, then both accept them and xliff2po finds each translation', (context) => {
    needTools(context, 'xmllint', 'xliff2po', 'translate-toolkit');
    for (const path of ['src/locale/messages.xlf', ...TARGETS]) {
      expect(xmllint(app.path(path)), path).toMatchObject({ status: 0, stderr: '' });
    }
    for (const [index, locale] of ['pl', 'pt-BR'].entries()) {
      const units = xliff2po(app.path(TARGETS[index]!));
      expect(Object.keys(units).sort(), locale).toEqual(
        ['4279958548223931587', 'checkout', 'greeting', 'homeTitle'].sort(),
      );
      expect(units['homeTitle']).toEqual({
        msgid: 'Welcome to the shop',
        msgstr: `[${locale}] Welcome to the shop`,
      });
      for (const { msgstr } of Object.values(units)) expect(msgstr.startsWith(`[${locale}] `)).toBe(true);
    }
  });

  it('when the targets are deleted, then pull restores them byte for byte, and status --check passes', async () => {
    const { pull, before, after } = await app.pullRestores(TARGETS);
    expect(pull.code, pull.stderr).toBe(0);
    expect(after).toEqual(before);
    const status = await app.tolk(['status', '--check']);
    expect(status.code, status.stdout + status.stderr).toBe(0);
  });
});
