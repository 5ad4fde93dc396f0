/**
 * An Xcode app end to end (DESIGN §12), against the real system with the model stand-in:
 * `tolk init` finds `MyApp/en.lproj/Localizable.strings`, `Localizable.stringsdict` and
 * `InfoPlist.strings`, push, translate into Polish and Brazilian Portuguese writes `pl.lproj/`
 * and `pt-BR.lproj/`,
 * `plistutil` parses every stringsdict (Polish's with one, few, many and other), translate-toolkit's
 * `prop2po --personality=strings` reads every strings file, and pull restores the targets byte
 * for byte.
 */
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type System } from '../../test/e2e/system.js';
import { appProject, type AppProject } from './support/app-project.js';
import { needTools, plistutilRoundTrip, prop2poStrings } from './support/platform-tools.js';
import { startOpenAIStandIn, type ProviderStandIn } from './support/provider-stand-ins.js';

const STRINGS = `/*
  Localizable.strings
  MyApp
*/

/* Title of the home screen */
"home.title" = "Welcome";

/* Greeting; %@ is the user's name */
"greeting" = "Hello, %@!";

"quote" = "Say \\"cheese\\"\\nthen smile";
"saved_at" = "Saved at %1$@ by %2$@";
`;

const STRINGSDICT = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
\t<key>files_count</key>
\t<dict>
\t\t<key>NSStringLocalizedFormatKey</key>
\t\t<string>%#@files@</string>
\t\t<key>files</key>
\t\t<dict>
\t\t\t<key>NSStringFormatSpecTypeKey</key>
\t\t\t<string>NSStringPluralRuleType</string>
\t\t\t<key>NSStringFormatValueTypeKey</key>
\t\t\t<string>d</string>
\t\t\t<key>one</key>
\t\t\t<string>%d file</string>
\t\t\t<key>other</key>
\t\t\t<string>%d files</string>
\t\t</dict>
\t</dict>
</dict>
</plist>
`;

const INFO_PLIST = `/* Name under the app icon */
"CFBundleDisplayName" = "Notes";
/* Asked before the camera opens */
"NSCameraUsageDescription" = "Notes uses the camera to scan documents.";
`;

const FILES = ['InfoPlist.strings', 'Localizable.strings', 'Localizable.stringsdict'];
const TARGETS = ['pl', 'pt-BR'].flatMap((lproj) => FILES.map((file) => `MyApp/${lproj}.lproj/${file}`));

describe('an Xcode app', () => {
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
      files: {
        'MyApp/en.lproj/Localizable.strings': STRINGS,
        'MyApp/en.lproj/Localizable.stringsdict': STRINGSDICT,
        'MyApp/en.lproj/InfoPlist.strings': INFO_PLIST,
        'MyApp/Base.lproj/Main.storyboard': '<?xml version="1.0" encoding="UTF-8"?>\n<document/>\n',
      },
    });
  });
  afterAll(async () => {
    await app?.remove();
    await openai?.close();
    await system?.close();
  });

  it('when tolk init, push and translate run, then pl.lproj and pt-BR.lproj get both files, each file its own namespace', async () => {
    const init = await app.tolk(['init', '--name', 'MyApp', '--targets', 'pl,pt-BR', '--yes', '--json']);
    expect(init.code, init.stderr).toBe(0);
    const config = await app.cli.readJson('tolk.json');
    expect(config).toMatchObject({ sourceLocale: 'en', targetLocales: ['pl', 'pt-BR'] });
    expect(config.files).toEqual([
      { path: 'MyApp/{locale}.lproj/InfoPlist.strings', format: 'strings', namespace: 'InfoPlist' },
      { path: 'MyApp/{locale}.lproj/Localizable.strings', format: 'strings', namespace: 'Localizable' },
      {
        path: 'MyApp/{locale}.lproj/Localizable.stringsdict',
        format: 'stringsdict',
        namespace: 'Localizable-stringsdict',
      },
    ]);

    const push = await app.tolk(['push', '--json']);
    expect(push.code, push.stderr).toBe(0);
    expect(push.json()).toMatchObject({ version: 1, keyCount: 7 });

    const translated = await app.translate();
    expect(translated.code, translated.stderr).toBe(0);
    const polish = await app.text('MyApp/pl.lproj/Localizable.strings');
    expect(polish).toContain('/* Title of the home screen */\n"home.title" = "[pl] Welcome";');
    expect(polish).toContain('"quote" = "[pl] Say \\"cheese\\"\\nthen smile";');
    expect(polish).toContain('"saved_at" = "[pl] Saved at %1$@ by %2$@";');
    expect(await app.text('MyApp/pt-BR.lproj/InfoPlist.strings')).toContain(
      '/* Name under the app icon */\n"CFBundleDisplayName" = "[pt-BR] Notes";',
    );
    expect(await app.text('MyApp/pt-BR.lproj/Localizable.strings')).toContain(
      '"greeting" = "[pt-BR] Hello, %@!";',
    );
  });

  it('when plistutil and prop2po read every file written, then they accept them and the Polish plural rule has one, few, many and other', (context) => {
    needTools(context, 'plistutil', 'prop2po', 'translate-toolkit');
    for (const lproj of ['en', 'pl', 'pt-BR']) {
      const xml = plistutilRoundTrip(app.path(`MyApp/${lproj}.lproj/Localizable.stringsdict`));
      const rule = /<key>files<\/key>\s*<dict>([\s\S]*?)<\/dict>/.exec(xml)?.[1] ?? '';
      const keys = [...rule.matchAll(/<key>(\w+)<\/key>/g)].map((match) => match[1]);
      const categories = keys.filter((key) => !key!.startsWith('NSString'));
      expect(categories, lproj).toEqual(
        { en: ['one', 'other'], pl: ['one', 'few', 'many', 'other'], 'pt-BR': ['one', 'many', 'other'] }[
          lproj
        ],
      );
      expect(xml).toContain('<string>NSStringPluralRuleType</string>');
      // The stand-in marks the whole message, so the mark is text of the format key, outside the rule.
      if (lproj !== 'en') expect(xml).toContain(`<string>[${lproj}] %#@files@</string>`);
      if (lproj === 'pl') expect(xml).toMatch(/<key>few<\/key>\s*<string>%d files<\/string>/);

      const [units, info] = prop2poStrings(
        ['Localizable', 'InfoPlist'].map((name) => app.path(`MyApp/${lproj}.lproj/${name}.strings`)),
      );
      const mark = lproj === 'en' ? '' : `[${lproj}] `;
      expect(units, lproj).toEqual({
        'home.title': `${mark}Welcome`,
        greeting: `${mark}Hello, %@!`,
        quote: `${mark}Say "cheese"\nthen smile`,
        saved_at: `${mark}Saved at %1$@ by %2$@`,
      });
      expect(info, lproj).toEqual({
        CFBundleDisplayName: `${mark}Notes`,
        NSCameraUsageDescription: `${mark}Notes uses the camera to scan documents.`,
      });
    }
  });

  it('when the targets are deleted, then pull restores them byte for byte, and status --check passes', async () => {
    const { pull, before, after } = await app.pullRestores(TARGETS);
    expect(pull.code, pull.stderr).toBe(0);
    expect(after).toEqual(before);
    const status = await app.tolk(['status', '--check']);
    expect(status.code, status.stdout + status.stderr).toBe(0);
  });

  it("when a translator reordered and commented a target, then pull keeps its bytes and translate adds only the new key's line (DESIGN §16)", async () => {
    const path = 'MyApp/pl.lproj/Localizable.strings';
    const edited = [
      '/* Tłumaczenie: Anna */',
      '',
      '"saved_at"="[pl] Saved at %1$@ by %2$@";',
      '// Powitanie',
      '"greeting"="[pl] Hello, %@!";',
      '"quote"="[pl] Say \\"cheese\\"\\nthen smile";',
      '"home.title"="[pl] Welcome";',
    ].join('\r\n');
    await writeFile(app.path(path), edited);
    const pull = await app.tolk(['pull']);
    expect(pull.code, pull.stderr).toBe(0);
    expect(await app.text(path)).toBe(edited);

    await writeFile(
      app.path('MyApp/en.lproj/Localizable.strings'),
      STRINGS.replace('"quote"', '"farewell" = "Goodbye";\n"quote"'),
    );
    const push = await app.tolk(['push', '--json']);
    expect(push.code, push.stderr).toBe(0);
    const translated = await app.translate();
    expect(translated.code, translated.stderr).toBe(0);
    // After the nearest key before it in the source that the target has, in that key's layout.
    expect(await app.text(path)).toBe(
      edited.replace(
        '"greeting"="[pl] Hello, %@!";\r\n',
        '"greeting"="[pl] Hello, %@!";\r\n"farewell"="[pl] Goodbye";\r\n',
      ),
    );
  });
});
