/**
 * The first day of Ice Cubes (cli/test/support/real-apps-first-day.ts): its Xcode String Catalog,
 * 18 locales in one 2 MB file, takes about as long as the nine other apps together
 * (real-apps-adoption.test.ts), so it has a file of its own, which runs beside theirs.
 */
import { describe, expect, it } from 'vitest';
import { realAppsPresent } from './support/real-apps.js';
import { realAppsFirstDay, XCSTRINGS } from './support/real-apps-first-day.js';

const present = realAppsPresent();

describe.skipIf(!present)("a real String Catalog's first day: init, push, translate, pull, check", () => {
  const of = realAppsFirstDay(['apple-xcstrings']);

  it('when Ice Cubes is checked, then a French plural without many is a warning, not an error', () => {
    const app = of('apple-xcstrings');
    const french = app.findings.filter(
      (finding) => finding.locale === 'fr' && finding.kind === 'plural' && /\bmany\b/.test(finding.message),
    );
    expect(french.length).toBeGreaterThan(0);
    for (const finding of french) {
      expect(finding).toMatchObject({ file: XCSTRINGS, severity: 'warning' });
      expect(finding.line).toBeGreaterThan(1);
    }
  });
});
