/** Temporary directories of files for tests that look at an app's tree, removed after each test. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';

/**
 * A `tree(files)` function for the test file: each call makes a directory holding `files` (path →
 * text, bytes, or an object written as JSON), removed after the test.
 */
export function temporaryTrees(prefix = 'tolk-tree-') {
  const roots: string[] = [];
  afterEach(async () => {
    await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
  });
  return async function tree(files: Record<string, string | Buffer | object>): Promise<string> {
    const root = await mkdtemp(join(tmpdir(), prefix));
    roots.push(root);
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      const bytes =
        typeof content === 'string' || Buffer.isBuffer(content) ? content : JSON.stringify(content, null, 2);
      await writeFile(join(root, path), bytes);
    }
    return root;
  };
}
