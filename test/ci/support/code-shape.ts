/**
 * The measures of the code's shape (issue 28): how many lines each function has of its own, and
 * how many lines a file has. Parsed with the TypeScript compiler's parser alone (no program, no
 * type checking), so the whole of `src/` is measured in a second or two.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** A function and the lines it has of its own: its lines less those of the functions nested in it. */
export type FunctionSize = { file: string; line: number; name: string; ownLines: number };

/** The repository's root. */
export const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * The TypeScript files of `src/` in the services, the libraries, the gateway and the CLI, as
 * paths from the root (`cli/src/run.ts`), in a stable order.
 */
export function sourceFiles(root = ROOT): string[] {
  const folders = [
    ...['services', 'libs'].flatMap((group) =>
      readdirSync(path.join(root, group), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${group}/${entry.name}/src`),
    ),
    'gateway/src',
    'cli/src',
  ];
  return folders
    .flatMap((folder) =>
      readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.ts'))
        .map((name) => `${folder}/${name.split(path.sep).join('/')}`),
    )
    .sort();
}

/** The lines of a text as `wc -l` counts them: a final line break ends the last line. */
export function lineCount(text: string): number {
  if (text === '') return 0;
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') ? breaks : breaks + 1;
}

type FunctionNode =
  | ts.FunctionDeclaration
  | ts.FunctionExpression
  | ts.ArrowFunction
  | ts.MethodDeclaration
  | ts.GetAccessorDeclaration
  | ts.SetAccessorDeclaration
  | ts.ConstructorDeclaration;

function isFunction(node: ts.Node): node is FunctionNode {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isGetAccessor(node) ||
    ts.isSetAccessor(node) ||
    ts.isConstructorDeclaration(node)
  );
}

/**
 * Every function with a body in `text` (of `file`) and its own lines: from its first line to its
 * last, less the lines of each function nested in it (counted for that function). A function is
 * named by its own name, else by the variable or property it is assigned to, else `(anon)`.
 */
export function functionSizes(file: string, text: string): FunctionSize[] {
  // No parent pointers and no JSDoc: positions and names are all the measure reads.
  const source = ts.createSourceFile(file, text, {
    languageVersion: ts.ScriptTarget.Latest,
    jsDocParsingMode: ts.JSDocParsingMode.ParseNone,
  });
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line;
  const linesOf = (node: ts.Node) => lineOf(node.end) - lineOf(node.getStart(source)) + 1;
  const sizes: FunctionSize[] = [];
  const visit = (node: ts.Node, assignedTo: string | undefined) => {
    if (isFunction(node) && node.body) {
      let nested = 0;
      const inner = (child: ts.Node) => {
        if (isFunction(child) && child.body) nested += linesOf(child);
        else ts.forEachChild(child, inner);
      };
      ts.forEachChild(node.body, inner);
      sizes.push({
        file,
        line: lineOf(node.getStart(source)) + 1,
        name: node.name?.getText(source) ?? assignedTo ?? '(anon)',
        ownLines: linesOf(node) - nested,
      });
    }
    const name =
      ts.isVariableDeclaration(node) || ts.isPropertyAssignment(node) ? node.name.getText(source) : undefined;
    ts.forEachChild(node, (child) => visit(child, name));
  };
  visit(source, undefined);
  return sizes;
}

/** A file of `src/`, its lines and its functions' sizes. */
export type MeasuredFile = { file: string; lines: number; functions: FunctionSize[] };

/**
 * Every file of `sourceFiles()` measured. Only the functions of a file longer than `longerThan`
 * lines are measured (none of a shorter file can have more lines of its own than it has): most
 * files are short, and parsing them would be most of the time taken.
 */
export function measureSources(longerThan = 0, root = ROOT): MeasuredFile[] {
  return sourceFiles(root).map((file) => {
    const text = readFileSync(path.join(root, file), 'utf8');
    const lines = lineCount(text);
    return { file, lines, functions: lines > longerThan ? functionSizes(file, text) : [] };
  });
}
