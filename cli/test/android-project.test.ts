/**
 * An Android app end to end (DESIGN §12), against the real system with the model stand-in:
 * `tolk init` finds `app/src/main/res/values/strings.xml`, push, translate into Polish and
 * Brazilian Portuguese writes `values-pl/` and `values-pt-rBR/`, `aapt2 compile` and `xmllint`
 * accept every file written, Polish plurals have Polish's quantities, and pull restores the
 * targets byte for byte.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type System } from '../../test/e2e/system.js';
import { appProject, type AppProject } from './support/app-project.js';
import { aapt2Compile, aapt2Plurals, needTools, xmllint } from './support/platform-tools.js';
import { startOpenAIStandIn, type ProviderStandIn } from './support/provider-stand-ins.js';

const STRINGS = `<?xml version="1.0" encoding="utf-8"?>
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
    <string name="app_name" translatable="false">Notes</string>
    <!-- Title of the list of notes -->
    <string name="notes_title">Your notes</string>
    <string name="welcome">Welcome, <xliff:g id="user" example="Ana">%1$s</xliff:g>!</string>
    <string name="dont_lose">Don\\'t lose your \\"draft\\"\\nSaved at %2$s</string>
    <string name="share">Share &amp; export</string>
    <!-- Shown under the list -->
    <plurals name="notes_count">
        <item quantity="one">%d note</item>
        <item quantity="other">%d notes</item>
    </plurals>
    <string-array name="sort_orders">
        <item>By date</item>
        <item>By title</item>
    </string-array>
</resources>
`;

const SOURCE = 'app/src/main/res/values/strings.xml';
const TARGETS = ['app/src/main/res/values-pl/strings.xml', 'app/src/main/res/values-pt-rBR/strings.xml'];

describe('an Android app', () => {
  let system: System;
  let openai: ProviderStandIn;
  let app: AppProject;

  beforeAll(async () => {
    [system, openai] = await Promise.all([startSystem({ sources: true }), startOpenAIStandIn()]);
    const { token } = await system.signUp();
    app = await appProject({ apiUrl: system.base, token, model: openai, files: { [SOURCE]: STRINGS } });
  });
  afterAll(async () => {
    await app?.remove();
    await openai?.close();
    await system?.close();
  });

  it('when tolk init, push and translate run, then values-pl and values-pt-rBR are written in the source layout', async () => {
    const init = await app.tolk(['init', '--name', 'Notes', '--targets', 'pl,pt-BR', '--yes', '--json']);
    expect(init.code, init.stderr).toBe(0);
    const config = await app.cli.readJson('tolk.json');
    expect(config).toMatchObject({ sourceLocale: 'en', targetLocales: ['pl', 'pt-BR'] });
    expect(config.files).toEqual([
      { path: 'app/src/main/res/values-{locale}/strings.xml', format: 'android', source: SOURCE },
    ]);

    const push = await app.tolk(['push', '--json']);
    expect(push.code, push.stderr).toBe(0);
    // notes_title, welcome, dont_lose, share, notes_count, sort_orders.0 and .1; app_name is not text.
    expect(push.json()).toMatchObject({ version: 1, keyCount: 7 });

    const translated = await app.translate();
    expect(translated.code, translated.stderr).toBe(0);
    const polish = await app.text(TARGETS[0]!);
    expect(polish).not.toContain('app_name');
    expect(polish).toContain(
      '<string name="welcome">[pl] Welcome, <xliff:g id="user" example="Ana">%1$s</xliff:g>!</string>',
    );
    expect(polish).toContain(
      '<string name="dont_lose">[pl] Don\\\'t lose your \\"draft\\"\\nSaved at %2$s</string>',
    );
    expect(polish).toContain('<string name="share">[pl] Share &amp; export</string>');
    expect(polish).toContain('<!-- Shown under the list -->');
    expect(polish).toContain('<item>[pl] By date</item>');
    // The stand-in marks the whole message: the mark goes into each quantity, a whole sentence.
    expect(polish).toContain(
      '<item quantity="one">[pl] %d note</item>\n        <item quantity="few">[pl] %d notes</item>',
    );
    expect(await app.text(TARGETS[1]!)).toContain('<string name="notes_title">[pt-BR] Your notes</string>');
  });

  it('when aapt2 compiles and xmllint reads every file written, then both accept them and the Polish plurals have one, few, many and other', (context) => {
    needTools(context, 'aapt2', 'xmllint');
    for (const path of [SOURCE, ...TARGETS]) {
      const lint = xmllint(app.path(path));
      expect(lint, path).toMatchObject({ status: 0, stderr: '' });
      const { compile, dump } = aapt2Compile(app.path(path));
      expect(compile, path).toMatchObject({ status: 0, stderr: '' });
      const quantities = aapt2Plurals(dump).get('notes_count');
      if (path === TARGETS[0]) expect(quantities).toEqual(['one', 'few', 'many', 'other']);
      if (path === TARGETS[1]) expect(quantities).toEqual(['one', 'many', 'other']);
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
