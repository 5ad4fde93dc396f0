/**
 * `tolk init` finds where an app keeps its strings (DESIGN §12): each ecosystem's detector
 * (`layouts/`) looks at the file and folder names of the app's tree, read once, reads the locale
 * each name spells through its format's `readLocale`, and reads the candidate files with their
 * formats, so it proposes only files that are locale files of that format; it only reads, never
 * writes. What is found is proposed as tolk.json's file sets (`propose-layout.ts`), with the
 * source locale and the other locales seen on disk as the targets. Layouts are searched for
 * anywhere below the directory, not at fixed paths, leaving out dependencies, build output and
 * tests (`IGNORED_FOLDERS`).
 */
import { detectAndroidLayouts } from './layouts/android.js';
import { detectFlutterLayouts } from './layouts/flutter.js';
import { detectGettextLayouts } from './layouts/gettext.js';
import { detectJavaLayouts } from './layouts/java.js';
import { detectJsonLayouts } from './layouts/json.js';
import { detectRailsLayouts } from './layouts/rails.js';
import { detectXcodeLayouts } from './layouts/xcode.js';
import { detectXcstringsLayouts } from './layouts/xcstrings.js';
import { detectXliffLayouts } from './layouts/xliff.js';
import { searchTree, type FoundFileSet, type LayoutDetector } from './layout-search.js';
import { proposeLayout, type LayoutProposal } from './propose-layout.js';

export type { DetectedFileSet, FileSet, FoundFileSet } from './layout-search.js';
export type { LayoutProposal } from './propose-layout.js';

/** One per ecosystem; each claims files of its own extensions, so their order does not matter. */
const DETECTORS: readonly LayoutDetector[] = [
  detectJsonLayouts,
  detectRailsLayouts,
  detectFlutterLayouts,
  detectJavaLayouts,
  detectXliffLayouts,
  detectAndroidLayouts,
  detectXcstringsLayouts,
  detectXcodeLayouts,
  detectGettextLayouts,
];

/** Every file set found below `root`, and the notes on what was left out. */
export async function detectFileSets(root: string): Promise<{ found: FoundFileSet[]; notes: string[] }> {
  const search = await searchTree(root);
  const found: FoundFileSet[] = [];
  for (const detect of DETECTORS) found.push(...(await detect(search)));
  return { found, notes: search.notes };
}

/** What `tolk init` proposes for the app below `root`. */
export async function detectLayout(root: string): Promise<LayoutProposal> {
  const { found, notes } = await detectFileSets(root);
  return proposeLayout(found, notes);
}
