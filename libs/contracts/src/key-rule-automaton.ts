/**
 * Key-rule globs compiled to finite automata that read a key once, left to right, and never
 * backtrack: matching a key costs at most its length times the automata's `cost`, whatever the
 * patterns, and one table step per character and list for the rule sets people write.
 *
 * Hand-written, not a library, for two reasons measured (bench:key-rules). picomatch and
 * minimatch turn globs into RegExps for V8's backtracking engine (`*a*a*a*a*a*a*ab` against a
 * key of 400 `a`s ran for minutes), and the `re2` package is a native addon compiled at install.
 * re2js 2.10, the pure-JavaScript RE2 port, is linear, but (1) it cannot say what a rule set
 * costs: its DFA is built while it matches and may give way to simulating the NFA, so a budget
 * would have to count the NFA's size for every character (hundreds of steps for real rule sets,
 * which a DFA determinised up front reads in one); (2) it was about 3 times slower on a real
 * rule set (45 patterns, 200,000 keys: 29 ns a character against 10) and 6 times on nested braces. The strategy is RE2's: a Thompson NFA per
 * list of patterns (alternation stays in the automaton, so braces never expand), determinised
 * by subset construction within DFA_LIMITS, and where that would pass them, run as a lazy DFA
 * built as keys need it, one NFA step (its size) per character at worst.
 *
 * Compiling is a generator (compileSteps) that yields every few thousand steps, so that a server
 * can spread the compilation of a large rule set over turns of its event loop.
 *
 * Characters are UTF-16 code units, as in a JavaScript RegExp without the `u` flag.
 */

/** A set of characters: inclusive code ranges, sorted and disjoint, or their complement. */
type CharSet = { readonly ranges: readonly number[]; readonly negated: boolean };

/**
 * A pattern's syntax tree. Every node has the same fields, so that V8 keeps one shape for them
 * all (building the automaton of 600 nested patterns was several times slower over a union of
 * shapes).
 * - chars: one character of `set`;
 * - loop: any run of characters of `set` (a `*`: of any but `.`; a `**` body: of any);
 * - seq: `items` one after the other; alt: one of `items`;
 * - repeat: `items[0]` at least `min` times, and more than once only if `many`.
 */
export type GlobNode = {
  readonly t: 'chars' | 'loop' | 'seq' | 'alt' | 'repeat';
  readonly set: CharSet | null;
  readonly items: readonly GlobNode[];
  readonly min: 0 | 1;
  readonly many: boolean;
};
type Node = GlobNode;

const NO_ITEMS: readonly Node[] = [];

function node(t: Node['t'], set: CharSet | null, items = NO_ITEMS, min: 0 | 1 = 0, many = false): Node {
  return { t, set, items, min, many };
}

const DOT = 0x2e;
/** `?`, a `*`'s characters: any but the separator. Negated classes exclude it too. */
const NOT_DOT: CharSet = { ranges: [DOT, DOT], negated: true };
const ANY: CharSet = { ranges: [], negated: true };

export class GlobSyntaxError extends Error {}

const missingClosing = (c: string) =>
  new GlobSyntaxError(`Missing closing: "${c}" - use "\\\\${c}" to match literal characters`);
const missingOpening = (c: string) =>
  new GlobSyntaxError(`Missing opening: "${c}" - use "\\\\${c}" to match literal characters`);

const POSIX_CLASSES: Record<string, number[]> = {
  alnum: [0x30, 0x39, 0x41, 0x5a, 0x61, 0x7a],
  alpha: [0x41, 0x5a, 0x61, 0x7a],
  ascii: [0x00, 0x7f],
  blank: [0x09, 0x09, 0x20, 0x20],
  cntrl: [0x00, 0x1f, 0x7f, 0x7f],
  digit: [0x30, 0x39],
  graph: [0x21, 0x7e],
  lower: [0x61, 0x7a],
  print: [0x20, 0x7e],
  punct: [0x21, 0x2f, 0x3a, 0x40, 0x5b, 0x60, 0x7b, 0x7e],
  space: [0x09, 0x0d, 0x20, 0x20],
  upper: [0x41, 0x5a],
  word: [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a],
  xdigit: [0x30, 0x39, 0x41, 0x46, 0x61, 0x66],
};

/** Sorted, merged inclusive ranges from unordered pairs. */
function normalise(pairs: number[]): number[] {
  const spans: [number, number][] = [];
  for (let i = 0; i < pairs.length; i += 2) spans.push([pairs[i]!, pairs[i + 1]!]);
  spans.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of spans) {
    const last = out.length - 1;
    if (last > 0 && lo <= out[last]! + 1) out[last] = Math.max(out[last]!, hi);
    else out.push(lo, hi);
  }
  return out;
}

function inSet(set: CharSet, code: number): boolean {
  const { ranges } = set;
  let lo = 0;
  let hi = ranges.length / 2 - 1;
  let found = false;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (code < ranges[2 * mid]!) hi = mid - 1;
    else if (code > ranges[2 * mid + 1]!) lo = mid + 1;
    else {
      found = true;
      break;
    }
  }
  return found !== set.negated;
}

/**
 * Reads a bracket expression starting at `start` (a `[`): its set and the index after its `]`,
 * or undefined when it has no `]`. `]` first is a member; `^` or `!` first negates; `a-z` is a
 * range; `[:alpha:]` and the other POSIX classes; `\` escapes.
 */
function readClass(pattern: string, start: number): { set: CharSet; end: number } | undefined {
  let i = start + 1;
  let negated = false;
  if (pattern[i] === '^' || pattern[i] === '!') {
    negated = true;
    i++;
  }
  const pairs: number[] = [];
  let first = true;
  while (i < pattern.length) {
    let c = pattern[i]!;
    if (c === ']' && !first) {
      const ranges = normalise(negated ? [...pairs, DOT, DOT] : pairs);
      return { set: { ranges, negated }, end: i + 1 };
    }
    first = false;
    if (c === '[' && pattern[i + 1] === ':') {
      const close = pattern.indexOf(':]', i + 2);
      const name = close > 0 ? pattern.slice(i + 2, close) : '';
      const members = Object.hasOwn(POSIX_CLASSES, name) ? POSIX_CLASSES[name] : undefined;
      if (members) {
        pairs.push(...members);
        i = close + 2;
        continue;
      }
    }
    if (c === '\\') {
      if (i + 1 >= pattern.length) return undefined;
      c = pattern[++i]!;
    }
    const lo = c.charCodeAt(0);
    i++;
    if (pattern[i] === '-' && i + 1 < pattern.length && pattern[i + 1] !== ']') {
      let h = pattern[i + 1]!;
      i += 2;
      if (h === '\\') {
        if (i >= pattern.length) return undefined;
        h = pattern[i++]!;
      }
      const hi = h.charCodeAt(0);
      if (hi < lo) throw new GlobSyntaxError(`the range ${c}-${h} is out of order`);
      pairs.push(lo, hi);
    } else pairs.push(lo, lo);
  }
  return undefined;
}

/** What a `{` or `(` holds: where it closes, and for a brace whether it lists alternatives. */
type Opening = { close: number; alternatives: boolean };

/**
 * One pass over the pattern pairing each `{` and `(` with its closing character, so that the
 * parser knows at a `{` whether it opens alternatives (`{a,b}`) or is a literal (`{a}`) without
 * scanning ahead again for every one of nested braces.
 */
function pairBrackets(pattern: string): Map<number, Opening> {
  const pairs = new Map<number, Opening>();
  const open: { at: number; c: '{' | '('; alternatives: boolean }[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      if (i + 1 >= pattern.length) throw new GlobSyntaxError('a trailing "\\" escapes nothing');
      i++;
    } else if (c === '[') {
      const read = readClass(pattern, i);
      if (!read) throw missingClosing(']');
      i = read.end - 1;
    } else if (c === ']') throw missingOpening('[');
    else if (c === '{' || c === '(') open.push({ at: i, c, alternatives: false });
    else if (c === ',' || c === '|') {
      const top = open[open.length - 1];
      if (top?.c === '{') top.alternatives = true;
    } else if (c === '}') {
      const top = open[open.length - 1];
      if (top?.c === '{') {
        open.pop();
        pairs.set(top.at, { close: i, alternatives: top.alternatives });
      }
    } else if (c === ')') {
      const top = open[open.length - 1];
      if (top?.c !== '(') throw missingOpening('(');
      open.pop();
      pairs.set(top.at, { close: i, alternatives: true });
    }
  }
  const unclosed = open[open.length - 1];
  if (unclosed) throw missingClosing(unclosed.c === '{' ? '}' : ')');
  return pairs;
}

const chars = (set: CharSet): Node => node('chars', set);
// One node per character, shared by every pattern: 600 patterns of 500 characters make no
// 300,000 sets for the automaton to tell apart.
const literals = new Map<number, Node>();
const literal = (c: number): Node => {
  let node = literals.get(c);
  if (!node) literals.set(c, (node = chars({ ranges: [c, c], negated: false })));
  return node;
};
const ONE_CHARACTER = chars(NOT_DOT);
const STAR = node('loop', NOT_DOT);
const ANY_CHARACTERS = node('loop', ANY);
const isDot = (node: Node | undefined) => node === literal(DOT);

/** Zero or more whole segments and the `.` after them: a `**` before a `.`. */
const LEADING_SEGMENTS = node('repeat', null, [node('seq', null, [ANY_CHARACTERS, literal(DOT)])], 0, false);
/** A `.` and one or more segments after it, or nothing: a `**` after a `.`, at the end. */
const TRAILING_SEGMENTS = node('repeat', null, [node('seq', null, [literal(DOT), ANY_CHARACTERS])], 0, false);

const EXTGLOB: Record<string, { min: 0 | 1; many: boolean } | 'one' | 'negated'> = {
  '@': 'one',
  '*': { min: 0, many: true },
  '+': { min: 1, many: true },
  '?': { min: 0, many: false },
  '!': 'negated',
};

/**
 * The syntax tree of one pattern. Throws GlobSyntaxError with a sentence for a pattern that is
 * not a glob this engine reads.
 */
export function parseGlob(pattern: string): GlobNode {
  const pairs = pairBrackets(pattern);
  let i = 0;

  /** Items until `stop` (a closing character or an alternative separator), which is not consumed. */
  function sequence(inBrace: boolean, inGroup: boolean): Node[] {
    const items: Node[] = [];
    while (i < pattern.length) {
      const c = pattern[i]!;
      if (inBrace && (c === ',' || c === '|' || c === '}')) break;
      if (inGroup && (c === '|' || c === ')')) break;
      const next = pattern[i + 1];
      if (c === '\\') {
        items.push(literal(pattern.charCodeAt(i + 1)));
        i += 2;
      } else if (next === '(' && Object.hasOwn(EXTGLOB, c)) {
        const kind = EXTGLOB[c]!;
        if (kind === 'negated') {
          throw new GlobSyntaxError(
            'a negated group "!(…)" is not supported: list the keys the rule is for instead',
          );
        }
        i++;
        const group = alternatives(false);
        items.push(kind === 'one' ? group : node('repeat', null, [group], kind.min, kind.many));
      } else if (c === '(') {
        items.push(alternatives(false));
      } else if (c === '{' && pairs.get(i)?.alternatives) {
        items.push(alternatives(true));
      } else if (c === '[') {
        const read = readClass(pattern, i)!;
        items.push(chars(read.set));
        i = read.end;
      } else if (c === '?') {
        items.push(ONE_CHARACTER);
        i++;
      } else if (c === '*') {
        let end = i;
        while (pattern[end] === '*') end++;
        // A star right before `(` is the `*(…)` group's, not part of this run.
        if (pattern[end] === '(' && end - i > 1) end--;
        const run = end - i;
        const before = i === 0 ? '' : pattern[i - 1]!;
        const after = end < pattern.length ? pattern[end]! : '';
        const segmentStart =
          before === '' || before === '.' || (inBrace && (before === '{' || before === ','));
        const segmentEnd = after === '' || after === '.' || (inBrace && (after === '}' || after === ','));
        if (run === 2 && segmentStart && segmentEnd) {
          globstar(items, after);
          if (after === '.') end++;
        } else items.push(STAR);
        i = end;
      } else {
        items.push(literal(pattern.charCodeAt(i)));
        i++;
      }
    }
    return items;
  }

  /** `**` as a whole segment: any number of segments, none included. */
  function globstar(items: Node[], after: string) {
    // `**.**` is one `**`.
    if (items[items.length - 1] === LEADING_SEGMENTS) items.pop();
    if (after === '.') {
      items.push(LEADING_SEGMENTS);
    } else if (isDot(items[items.length - 1])) {
      // `a.**`: the `.` read before belongs to the segments, which may be none.
      items.pop();
      items.push(TRAILING_SEGMENTS);
    } else {
      items.push(ANY_CHARACTERS);
    }
  }

  /** The alternatives of the `{` or `(` at `i`, up to and past its closing character. */
  function alternatives(brace: boolean): Node {
    const close = pairs.get(i)!.close;
    i++;
    const options: Node[] = [];
    for (;;) {
      // An option of one item is that item: `{a,{a,…}}` nested 120 deep in 600 patterns makes a
      // third of the objects it would (each compilation keeps its patterns' trees a while).
      const items = sequence(brace, !brace);
      options.push(items.length === 1 ? items[0]! : node('seq', null, items));
      if (i >= close) break;
      i++; // the separator
    }
    i = close + 1;
    return options.length === 1 ? options[0]! : node('alt', null, options);
  }

  const items = sequence(false, false);
  return node('seq', null, items);
}

// ---- automata ----

const CHAR = 0;
const SPLIT = 1;
const MATCH = 2;
/** An NFA's one MATCH state. */
const MATCH_STATE = 0;

/**
 * A Thompson NFA: a CHAR state reads a character of its set and goes to `out1`; a SPLIT state
 * goes to `out1` and `out2` (-1: nowhere) reading nothing; the MATCH state accepts. With the
 * scratch space of closures.
 */
type Nfa = {
  size: number;
  start: number;
  kind: Uint8Array;
  out1: Int32Array;
  out2: Int32Array;
  /** A CHAR state's set, as an index into `sets`. */
  set: Int32Array;
  sets: CharSet[];
  marks: Uint32Array;
  generation: number;
  stack: Int32Array;
  seeds: Int32Array;
  /** States the last closure looked at. */
  visited: number;
};

/** Bytes an NFA holds per state (its arrays and scratch). */
const NFA_BYTES_PER_STATE = 1 + 4 * 4 + 8 + 4 + 4;

/** At most how many states a node takes. */
function capacityOf(node: Node): number {
  switch (node.t) {
    case 'chars':
      return 1;
    case 'loop':
      return 2;
    case 'seq':
      return node.items.reduce((n, item) => n + capacityOf(item), 0);
    case 'alt':
      return node.items.reduce((n, option) => n + capacityOf(option) + 1, 0);
    case 'repeat':
      return capacityOf(node.items[0]!) + 1;
  }
}

function emptyNfa(capacity: number): Nfa {
  return {
    size: 0,
    start: -1,
    kind: new Uint8Array(capacity),
    out1: new Int32Array(capacity),
    out2: new Int32Array(capacity),
    set: new Int32Array(capacity),
    sets: [],
    marks: new Uint32Array(capacity),
    generation: 0,
    stack: new Int32Array(2 * capacity + 2),
    seeds: new Int32Array(capacity),
    visited: 0,
  };
}

/** Room in `nfa` for `more` states beyond its size: its arrays grown, at least doubled, if need be. */
function makeRoom(nfa: Nfa, more: number): void {
  if (nfa.size + more <= nfa.kind.length) return;
  const capacity = Math.max(2 * nfa.kind.length, nfa.size + more);
  const roomy = emptyNfa(capacity);
  roomy.kind.set(nfa.kind);
  roomy.out1.set(nfa.out1);
  roomy.out2.set(nfa.out2);
  roomy.set.set(nfa.set);
  Object.assign(nfa, {
    kind: roomy.kind,
    out1: roomy.out1,
    out2: roomy.out2,
    set: roomy.set,
    marks: roomy.marks,
    stack: roomy.stack,
    seeds: roomy.seeds,
  });
}

function addState(nfa: Nfa, kind: number, out1 = -1, out2 = -1, set = -1): number {
  const s = nfa.size++;
  nfa.kind[s] = kind;
  nfa.out1[s] = out1;
  nfa.out2[s] = out2;
  nfa.set[s] = set;
  return s;
}

/**
 * The states of `node`, built backwards from `next`, the state after it: returns where it
 * starts. Alternatives all lead to the same `next`: nothing is copied or patched however deep
 * they nest.
 */
function build(nfa: Nfa, setIds: Map<CharSet, number>, node: Node, next: number): number {
  const setId = (set: CharSet) => {
    let id = setIds.get(set);
    if (id === undefined) {
      setIds.set(set, (id = nfa.sets.length));
      nfa.sets.push(set);
    }
    return id;
  };
  switch (node.t) {
    case 'chars':
      return addState(nfa, CHAR, next, -1, setId(node.set!));
    case 'loop': {
      const split = addState(nfa, SPLIT, -1, next);
      nfa.out1[split] = addState(nfa, CHAR, split, -1, setId(node.set!));
      return split;
    }
    case 'seq': {
      let start = next;
      for (let k = node.items.length - 1; k >= 0; k--) start = build(nfa, setIds, node.items[k]!, start);
      return start;
    }
    case 'alt': {
      let start = build(nfa, setIds, node.items[node.items.length - 1]!, next);
      for (let k = node.items.length - 2; k >= 0; k--) {
        start = addState(nfa, SPLIT, build(nfa, setIds, node.items[k]!, next), start);
      }
      return start;
    }
    case 'repeat': {
      if (!node.many) return addState(nfa, SPLIT, build(nfa, setIds, node.items[0]!, next), next);
      const split = addState(nfa, SPLIT, -1, next);
      const body = build(nfa, setIds, node.items[0]!, split);
      nfa.out1[split] = body;
      return node.min === 0 ? split : body;
    }
  }
}

/**
 * One NFA matching any of `patterns`, yielding after each pattern. Each is parsed here and its
 * tree dropped once built: the trees of 600 nested patterns are some 20 MB of small objects,
 * which kept for a whole compilation cost the collector long pauses (several compiled at once,
 * hundreds of milliseconds), where a tree that dies young costs it nothing.
 */
function* nfaOf(patterns: readonly string[]): Generator<void, Nfa> {
  const nfa = emptyNfa(64);
  const setIds = new Map<CharSet, number>();
  addState(nfa, MATCH);
  for (const text of patterns) {
    const pattern = parseGlob(text);
    makeRoom(nfa, capacityOf(pattern) + 1);
    const first = build(nfa, setIds, pattern, MATCH_STATE);
    nfa.start = nfa.start < 0 ? first : addState(nfa, SPLIT, first, nfa.start);
    yield;
  }
  return nfa;
}

/**
 * Writes to `into` the CHAR and MATCH states reachable from `seeds` without reading, and returns
 * how many; `nfa.visited` is then the number of states it looked at, and `nfa.marks[s] ===
 * nfa.generation` whether it reached `s`.
 */
function closure(nfa: Nfa, seeds: ArrayLike<number>, count: number, into: Int32Array): number {
  const { kind, out1, out2, marks, stack } = nfa;
  if (nfa.generation === 0xffffffff) {
    marks.fill(0);
    nfa.generation = 0;
  }
  const generation = ++nfa.generation;
  let found = 0;
  let visited = 0;
  for (let k = 0; k < count; k++) {
    let top = 0;
    stack[top++] = seeds[k]!;
    while (top > 0) {
      const s = stack[--top]!;
      if (s < 0 || marks[s] === generation) continue;
      marks[s] = generation;
      visited++;
      if (kind[s] === SPLIT) {
        stack[top++] = out2[s]!;
        stack[top++] = out1[s]!;
      } else into[found++] = s;
    }
  }
  nfa.visited = visited;
  return found;
}

/** The intervals of characters on which every set of the NFA agrees, and a character's interval. */
function characterClasses(nfa: Nfa) {
  const cuts = new Set<number>([0]);
  for (const set of nfa.sets) {
    for (let k = 0; k < set.ranges.length; k += 2) {
      cuts.add(set.ranges[k]!);
      if (set.ranges[k + 1]! < 0xffff) cuts.add(set.ranges[k + 1]! + 1);
    }
  }
  const bounds = Int32Array.from(cuts).sort();
  const classOf = (code: number) => {
    let lo = 0;
    let hi = bounds.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (bounds[mid]! <= code) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const ascii = new Uint32Array(128);
  for (let c = 0; c < 128; c++) ascii[c] = classOf(c);
  return { bounds, ascii, classOf };
}

/**
 * Sorts the closed set in found[0, count) in place (a DFA state's name), the states the last
 * closure reached: by sorting when few, else read off the marks of all states, so that naming a
 * state never costs more than the NFA's size.
 */
function sortFound(nfa: Nfa, found: Int32Array, count: number): void {
  if (count * 16 < nfa.size) {
    found.subarray(0, count).sort();
    return;
  }
  const { kind, marks, generation } = nfa;
  let k = 0;
  for (let s = 0; s < nfa.size; s++) if (marks[s] === generation && kind[s] !== SPLIT) found[k++] = s;
}

/** States of a lazy DFA before it starts again empty, and cells of its table. */
const LAZY_LIMITS = { states: 2_000, cells: 1 << 18 };

/**
 * Whether a key matches an NFA whose DFA would pass DFA_LIMITS, by a DFA built as keys need it
 * (RE2's lazy DFA): a character costs one table step where an earlier key took the same way,
 * else one step of the NFA simulation (its size at most) that adds the state. When LAZY_LIMITS
 * are reached, the states go and the DFA starts again from the current one.
 */
function lazyDfa(nfa: Nfa): (key: string) => boolean {
  const { bounds, ascii, classOf } = characterClasses(nfa);
  const classCount = bounds.length;
  const capacity = Math.max(3, Math.min(LAZY_LIMITS.states, Math.floor(LAZY_LIMITS.cells / classCount)));
  const table = new Int32Array(capacity * classCount).fill(-1);
  // A state's number is its entry in `states`; kept between keys, emptied when full.
  const states = new SetIndex();
  const found = new Int32Array(nfa.size);
  /** A set kept aside while the states start again. */
  const aside = new Int32Array(nfa.size);
  /** The state of the sorted set in set[0, count), added if new. */
  const add = (set: Int32Array, count: number): number => {
    const known = states.find(set, count);
    return known >= 0 ? known : states.add(set, count, states.size);
  };
  /** The state of the closed set the last closure wrote to found[0, count). */
  const closed = (count: number): number => {
    sortFound(nfa, found, count);
    return add(found, count);
  };
  const reset = () => {
    table.fill(-1, 0, states.size * classCount);
    states.clear();
    add(found, 0);
    nfa.seeds[0] = nfa.start;
    return closed(closure(nfa, nfa.seeds, 1, found));
  };
  const start = reset();
  /** The state after `state` reads `code`, added to the table. */
  const step = (state: number, code: number, cell: number): number => {
    const { kind, set, sets, out1, seeds } = nfa;
    const { data } = states;
    let taken = 0;
    for (let k = states.startOf(state), end = k + states.lengthOf(state); k < end; k++) {
      const s = data[k]!;
      if (kind[s] === CHAR && inSet(sets[set[s]!]!, code)) seeds[taken++] = out1[s]!;
    }
    const count = closure(nfa, seeds, taken, found);
    if (states.size >= capacity) {
      sortFound(nfa, found, count);
      aside.set(found.subarray(0, count));
      reset();
      return add(aside, count);
    }
    const id = closed(count);
    table[cell] = id;
    return id;
  };
  return (key) => {
    let state = start;
    for (let i = 0; i < key.length; i++) {
      const code = key.charCodeAt(i);
      const cell = state * classCount + (code < 128 ? ascii[code]! : classOf(code));
      const next = table[cell]!;
      state = next >= 0 ? next : step(state, code, cell);
      if (state === 0) return false;
    }
    return states.accepts(state);
  };
}

/** Limits of determinising a rule set; past them, patterns are run as a lazy DFA. */
export const DFA_LIMITS = {
  /** States of one DFA. */
  states: 250_000,
  /** Cells of all the transition tables of a rule set (states × character classes): 32 MiB. */
  cells: 1 << 23,
  /** Steps of a rule set's whole construction (an NFA state looked at): a few hundred ms at most. */
  work: 6_000_000,
};

/** Steps of work between two yields of a compilation. */
const STEPS_PER_YIELD = 2_000;

type Budget = { work: number; cells: number };

type Dfa = { states: number; bytes: number; matches: (key: string) => boolean };

/**
 * Subset construction over character classes (the intervals on which every set of the NFA
 * agrees), within DFA_LIMITS.states, `cap` steps and what is left of `budget` (taken from it):
 * undefined past them. Yields every STEPS_PER_YIELD steps.
 */
function* determinise(nfa: Nfa, budget: Budget, cap: number): Generator<void, Dfa | undefined> {
  // What a try costs is taken from the budget, whether it succeeds or not.
  const spent = { work: 0 };
  try {
    return yield* construct(nfa, budget, Math.min(cap, budget.work), spent);
  } finally {
    budget.work -= spent.work;
  }
}

function* construct(
  nfa: Nfa,
  budget: Budget,
  limit: number,
  spent: { work: number },
): Generator<void, Dfa | undefined> {
  const { bounds, ascii, classOf } = characterClasses(nfa);
  const classCount = bounds.length;
  spent.work += nfa.size + classCount;

  // The classes a set's ranges cover (for a negated set: those it excludes), when first needed.
  const coveredBy = new Map<CharSet, Int32Array>();
  const covered = (set: CharSet): Int32Array => {
    let known = coveredBy.get(set);
    if (known) return known;
    const list: number[] = [];
    for (let k = 0; k < set.ranges.length; k += 2) {
      const last = set.ranges[k + 1]!;
      for (let c = classOf(set.ranges[k]!); c < classCount && bounds[c]! <= last; c++) list.push(c);
    }
    spent.work += list.length + 1;
    coveredBy.set(set, (known = Int32Array.from(list)));
    return known;
  };

  // A DFA state's number is its entry in `states`, which holds its set of NFA states.
  const states = new SetIndex();
  let table = new Int32Array(16 * classCount);
  // The DFA state of each single NFA state (-1: none yet), of which a long literal pattern makes
  // one per character: found without hashing.
  const ofOne = new Int32Array(nfa.size).fill(-1);
  const found = new Int32Array(nfa.size);
  /** The DFA state of the closed set in found[0, count); undefined past the limits. */
  const stateOf = (count: number): number | undefined => {
    const one = count === 1 ? found[0]! : -1;
    if (one >= 0 && ofOne[one]! >= 0) return ofOne[one];
    sortFound(nfa, found, count);
    spent.work += count;
    const known = one >= 0 ? -1 : states.find(found, count);
    if (known >= 0) return known;
    const id = states.size;
    if (id >= DFA_LIMITS.states || (id + 1) * classCount > budget.cells) return undefined;
    if (one >= 0) ofOne[one] = id;
    states.add(found, count, id);
    if ((id + 1) * classCount > table.length) {
      const grown = new Int32Array(table.length * 2);
      grown.set(table);
      table = grown;
    }
    return id;
  };
  /** The DFA state reached from the NFA states `from` (sorted) by a character they all take. */
  const successors = new SetIndex();
  const afterOne = new Int32Array(nfa.size).fill(-1);
  const seeds = nfa.seeds;
  /** The same for the NFA states in from[0, length). */
  const successor = (from: Int32Array, length: number): number | undefined => {
    if (length === 0) return 0;
    spent.work += length;
    const one = length === 1 ? from[0]! : -1;
    const seen = one >= 0 ? afterOne[one]! : successors.find(from, length);
    if (seen >= 0) return seen;
    for (let k = 0; k < length; k++) seeds[k] = nfa.out1[from[k]!]!;
    const count = closure(nfa, seeds, length, found);
    spent.work += nfa.visited;
    if (spent.work > limit) return undefined;
    const next = count > 0 ? stateOf(count) : 0;
    if (next !== undefined) {
      if (one >= 0) afterOne[one] = next;
      else successors.add(from, length, next);
    }
    return next;
  };

  // State 0 is dead (no NFA state alive); 1 the start.
  stateOf(0);
  seeds[0] = nfa.start;
  if (stateOf(closure(nfa, seeds, 1, found)) === undefined) return undefined;
  // Per state, the CHAR states taking every class but a few (`*`, `?`, negated classes) are
  // followed once for all the classes no set singles out; only the singled-out classes (a
  // literal's, a class's, the `.` a `*` stops at) are worked out one by one.
  const named: number[][] = Array.from({ length: classCount }, () => []);
  const singledOut = new Uint8Array(classCount);
  const singled = new Int32Array(classCount);
  const wide = new Int32Array(nfa.size);
  const from = new Int32Array(nfa.size);
  let yielded = 0;
  for (let id = 1; id < states.size; id++) {
    let wideCount = 0;
    let singledCount = 0;
    const { data } = states;
    for (let m = states.startOf(id), end = m + states.lengthOf(id); m < end; m++) {
      const s = data[m]!;
      if (nfa.kind[s] !== CHAR) continue;
      const set = nfa.sets[nfa.set[s]!]!;
      const classes = covered(set);
      spent.work += classes.length + 1;
      if (set.negated) wide[wideCount++] = s;
      for (const c of classes) {
        if (!set.negated) named[c]!.push(s);
        if (!singledOut[c]) {
          singledOut[c] = 1;
          singled[singledCount++] = c;
        }
      }
    }
    // A state of thousands of NFA states (600 nested patterns' first characters) is worked out
    // over several turns: the scratch arrays are this construction's own.
    if (spent.work - yielded >= STEPS_PER_YIELD) {
      yielded = spent.work;
      yield;
    }
    const otherwise = successor(wide, wideCount);
    if (otherwise === undefined) return undefined;
    table.fill(otherwise, id * classCount, (id + 1) * classCount);
    spent.work += classCount >> 3;
    for (let k = 0; k < singledCount; k++) {
      const c = singled[k]!;
      const code = bounds[c]!;
      const list = named[c]!;
      let count = 0;
      let w = 0;
      let n = 0;
      // Merged in state order, so that equal sets are found equal.
      while (w < wideCount || n < list.length) {
        if (n >= list.length || (w < wideCount && wide[w]! < list[n]!)) {
          const s = wide[w++]!;
          if (inSet(nfa.sets[nfa.set[s]!]!, code)) from[count++] = s;
        } else from[count++] = list[n++]!;
      }
      spent.work += wideCount + list.length;
      list.length = 0;
      singledOut[c] = 0;
      const next = successor(from, count);
      if (next === undefined) return undefined;
      table[id * classCount + c] = next;
      if (spent.work - yielded >= STEPS_PER_YIELD) {
        yielded = spent.work;
        yield;
      }
    }
    if (spent.work > limit) return undefined;
    if (spent.work - yielded >= STEPS_PER_YIELD) {
      yielded = spent.work;
      yield;
    }
  }
  const count = states.size;
  budget.cells -= count * classCount;
  const transitions = table.slice(0, count * classCount);
  const accepts = new Uint8Array(count);
  for (let id = 0; id < count; id++) accepts[id] = states.accepts(id) ? 1 : 0;
  return {
    states: count,
    bytes: transitions.byteLength + accepts.byteLength + bounds.byteLength + ascii.byteLength,
    matches(key) {
      let state = 1;
      for (let i = 0; i < key.length; i++) {
        const code = key.charCodeAt(i);
        state = transitions[state * classCount + (code < 128 ? ascii[code]! : classOf(code))]!;
        if (state === 0) return false;
      }
      return accepts[state] === 1;
    },
  };
}

/**
 * Sets of NFA states (sorted), each an entry numbered in the order added, with a number found by
 * the set: the members side by side in one array, and an open-addressing table of their hashes.
 * A few typed arrays however many sets: a DFA of 100,000 states, or several compiled at once,
 * makes no object per state for the collector to trace and copy (which held the event loop for
 * tens of milliseconds at a time when each set was an array of its own).
 */
class SetIndex {
  /** The members of every entry; entry e's from startOf(e), lengthOf(e) of them. */
  data = new Int32Array(256);
  /** How many entries. */
  size = 0;
  private used = 0;
  private starts = new Int32Array(32);
  private lengths = new Int32Array(32);
  private hashes = new Int32Array(32);
  private values = new Int32Array(32);
  /** Entries by hash (-1: empty), at most half full. */
  private slots = new Int32Array(64).fill(-1);

  private static hash(set: Int32Array, length: number): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < length; i++) h = Math.imul(h ^ set[i]!, 0x01000193);
    return h;
  }

  startOf(entry: number): number {
    return this.starts[entry]!;
  }

  lengthOf(entry: number): number {
    return this.lengths[entry]!;
  }

  /** Whether entry `entry` holds the MATCH state (its least member, sets being sorted). */
  accepts(entry: number): boolean {
    return this.lengths[entry]! > 0 && this.data[this.starts[entry]!] === MATCH_STATE;
  }

  /** The number of the set in set[0, length), or -1. */
  find(set: Int32Array, length: number): number {
    const h = SetIndex.hash(set, length);
    const mask = this.slots.length - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]!;
      if (entry < 0) return -1;
      if (this.hashes[entry] !== h || this.lengths[entry] !== length) continue;
      const start = this.starts[entry]!;
      let same = true;
      for (let i = 0; i < length && same; i++) same = this.data[start + i] === set[i];
      if (same) return this.values[entry]!;
    }
  }

  /** Adds the set in set[0, length) (not yet here) with `value`: its entry's number. */
  add(set: Int32Array, length: number, value: number): number {
    const entry = this.size++;
    if (this.used + length > this.data.length) {
      this.data = grown(this.data, this.used + length);
    }
    if (entry >= this.starts.length) {
      this.starts = grown(this.starts, entry + 1);
      this.lengths = grown(this.lengths, entry + 1);
      this.hashes = grown(this.hashes, entry + 1);
      this.values = grown(this.values, entry + 1);
    }
    const h = SetIndex.hash(set, length);
    this.data.set(length === set.length ? set : set.subarray(0, length), this.used);
    this.starts[entry] = this.used;
    this.lengths[entry] = length;
    this.hashes[entry] = h;
    this.values[entry] = value;
    this.used += length;
    if (2 * this.size > this.slots.length) {
      this.slots = new Int32Array(2 * this.slots.length).fill(-1);
      for (let e = 0; e < entry; e++) this.place(e);
    }
    this.place(entry);
    return entry;
  }

  /** Forgets every entry, keeping the space. */
  clear(): void {
    this.size = 0;
    this.used = 0;
    this.slots.fill(-1);
  }

  private place(entry: number): void {
    const mask = this.slots.length - 1;
    let slot = this.hashes[entry]! & mask;
    while (this.slots[slot]! >= 0) slot = (slot + 1) & mask;
    this.slots[slot] = entry;
  }
}

/** `array` copied into one at least twice as long and of at least `length`. */
function grown(array: Int32Array, length: number): Int32Array<ArrayBuffer> {
  const copy = new Int32Array(Math.max(2 * array.length, length));
  copy.set(array);
  return copy;
}

/** Patterns of one list, matched by a DFA, or by a lazy DFA over their NFA. */
type Group = {
  rank: number;
  matches(key: string): boolean;
  /** Steps one key character costs at most: 1 on a DFA, the NFA's size on a lazy one. */
  cost: number;
  dfaStates: number;
  bytes: number;
};

export type RuleAutomaton = {
  /** States of the NFAs of every list: the compiled size. */
  readonly nfaStates: number;
  /** States of the DFAs. */
  readonly dfaStates: number;
  /** How many DFAs, and how many lazy DFAs. */
  readonly dfas: number;
  readonly nfas: number;
  /** Steps one key character costs at most: one per DFA, the NFA's size for each lazy one. */
  readonly cost: number;
  /** Bytes the automata hold. */
  readonly bytes: number;
  /** The highest rank among the lists with a pattern matching the whole key; 0 when none. */
  rankOf(key: string): number;
};

/**
 * The automata of ranked pattern lists, yielding every few thousand steps (run it with
 * compileRuleAutomaton, or spread over turns of an event loop). Each list is determinised whole
 * when it can be; one that passes DFA_LIMITS is split in halves, again and again, so that a few
 * patterns whose subset construction explodes (`**.a.*.*.*.*.*.*.*.*`) cost what they cost and
 * not the rest of the list with them: those run as a lazy DFA, costing their NFA's size.
 */
export function* compileSteps(
  lists: readonly { rank: number; patterns: readonly string[] }[],
): Generator<void, RuleAutomaton> {
  const budget: Budget = { work: DFA_LIMITS.work, cells: DFA_LIMITS.cells };
  const groups: Group[] = [];
  let nfaStates = 0;
  for (const { rank, patterns } of lists) {
    if (patterns.length === 0) continue;
    const lazy: string[] = [];
    const parts: (readonly string[])[] = [patterns];
    while (parts.length > 0) {
      const part = parts.pop()!;
      const nfa = yield* nfaOf(part);
      if (part === patterns) nfaStates += nfa.size;
      // A failed try may not take all that is left: the halves get their turn.
      const cap = part.length > 1 ? budget.work / 2 : budget.work;
      const dfa = budget.work > 0 ? yield* determinise(nfa, budget, cap) : undefined;
      if (dfa) {
        groups.push({ rank, matches: dfa.matches, cost: 1, dfaStates: dfa.states, bytes: dfa.bytes });
      } else if (part.length === 1 || budget.work <= 0) {
        lazy.push(...part);
      } else {
        parts.push(part.slice(part.length >> 1), part.slice(0, part.length >> 1));
      }
    }
    if (lazy.length > 0) {
      const nfa = yield* nfaOf(lazy);
      groups.push({
        rank,
        matches: lazyDfa(nfa),
        cost: nfa.size,
        dfaStates: 0,
        bytes: nfa.kind.length * NFA_BYTES_PER_STATE + LAZY_LIMITS.cells * 4,
      });
    }
  }
  // The strongest list first, and within a list the cheaper automata.
  groups.sort((a, b) => b.rank - a.rank || a.cost - b.cost);
  const sum = (of: (group: Group) => number) => groups.reduce((total, group) => total + of(group), 0);
  return {
    nfaStates,
    dfaStates: sum((g) => g.dfaStates),
    dfas: sum((g) => (g.dfaStates > 0 ? 1 : 0)),
    nfas: sum((g) => (g.dfaStates > 0 ? 0 : 1)),
    cost: sum((g) => g.cost),
    bytes: sum((g) => g.bytes),
    rankOf(key) {
      for (const group of groups) if (group.matches(key)) return group.rank;
      return 0;
    },
  };
}
