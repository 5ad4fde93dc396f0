/** A scalar's text set in the CST, in the scalar's own style where that style can hold it. */
import { CST, parseDocument, type Scalar } from 'yaml';

const LINE_BREAK = /[\n\r\u0085\u2028\u2029]/;

export function setScalar(node: Scalar, value: string, context: { key?: boolean; inFlow?: boolean }): void {
  if (node.value === value) return;
  const token = node.srcToken as CST.FlowScalar | CST.BlockScalar | undefined;
  if (!token) throw new Error('yaml: a scalar without its CST token');
  setScalarToken(token, value, context);
  node.value = value;
}

/**
 * A scalar token's text set to `value` in the token's own style where it can hold it: a block
 * scalar (`|`, `>`) stays one, at its body's indentation; a quoted or plain scalar stays on one
 * line, and becomes double-quoted (JSON's escapes, which YAML's double quotes share) when it
 * holds a line break or a plain scalar would read as something else.
 */
export function setScalarToken(
  token: CST.FlowScalar | CST.BlockScalar,
  value: string,
  context: { key?: boolean; inFlow?: boolean },
): void {
  // A block scalar whose text starts with a space or a line break needs an indentation
  // indicator relative to its parent's indentation, which the CST does not give: quoted instead.
  if (token.type === 'block-scalar' && /^\S/.test(value)) {
    const header = token.props[0];
    const folded = header?.type === 'block-scalar-header' && header.source.startsWith('>');
    const indent = /^( *)\S/m.exec(token.source)?.[1]?.length;
    const saved = token.indent;
    if (indent !== undefined) token.indent = indent;
    CST.setScalarValue(token, value, {
      type: folded ? 'BLOCK_FOLDED' : 'BLOCK_LITERAL',
      afterKey: indent === undefined,
    });
    if (token.type === 'block-scalar') token.indent = saved;
    return;
  }
  const options = { implicitKey: context.key === true, inFlow: context.inFlow === true };
  if (token.type === 'double-quoted-scalar' || token.type === 'block-scalar' || LINE_BREAK.test(value)) {
    CST.setScalarValue(token, value, { ...options, type: 'QUOTE_DOUBLE' });
    (token as CST.FlowScalar).source = doubleQuoted(value);
    return;
  }
  CST.setScalarValue(token, value, { ...options, type: token.type === 'scalar' ? 'PLAIN' : 'QUOTE_SINGLE' });
  const written = token as CST.FlowScalar;
  // PyYAML refuses a tab in a plain scalar, which YAML allows.
  if (written.type === 'scalar' && (value.includes('\t') || !readsAsText(written.source, value))) {
    CST.setScalarValue(token, value, { ...options, type: 'QUOTE_DOUBLE' });
    written.source = doubleQuoted(value);
  }
}

/** A YAML double-quoted scalar on one line: JSON's string, also escaping YAML 1.1's line breaks. */
function doubleQuoted(value: string): string {
  return JSON.stringify(value).replace(
    /[\u0085\u2028\u2029\u007f]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Whether a plain scalar reads back as the text itself for both YAML 1.1 (Ruby, PyYAML: `yes`,
 * `on`, `2024-01-01`, `1:30`) and 1.2 readers, and for Ruby is no symbol (`:foo`).
 */
function readsAsText(source: string, value: string): boolean {
  if (source.startsWith(':') || source === '<<' || source === '=') return false;
  return (['1.1', '1.2'] as const).every((version) => {
    const document = parseDocument(source, { version });
    return document.errors.length === 0 && document.toJS() === value;
  });
}
