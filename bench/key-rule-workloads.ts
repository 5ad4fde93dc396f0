/**
 * What bench:key-rules runs: rule sets, the worst among them that could be found for each way of
 * matching, and keys shaped to hurt each (every key the same length), made the same way in the
 * bench's process and in the worker that runs picomatch's RegExps.
 */
import type { KeyRules } from '@tolk/contracts';
import { seededRandom } from './source-documents.js';

/** The key shapes: each key of `length` characters, the same ones for the same index. */
export type KeyShape = 'a-run' | 'a-or-b' | 'a-or-b-segments' | 'cjk-or-b' | 'words';

export type Workload = {
  name: string;
  /** Why it is here. */
  why: string;
  rules: KeyRules;
  keys: KeyShape;
};

const NONE: KeyRules = { humanOnly: [], neverTranslate: [], exclude: [] };

/** `{a,{a,{a,…inner}}}` as deep as 500 characters allow. */
function nestedBraces(inner: string): string {
  let pattern = inner;
  while (`{a,${pattern}}`.length <= 500) pattern = `{a,${pattern}}`;
  return pattern;
}

/** 240 CJK characters none next to another: each a range of its own in a class. */
const CJK = Array.from({ length: 240 }, (_, i) => String.fromCharCode(0x4e00 + 2 * i));

/** `*x` and `length - 2` times `?`: the key's character that many from the end is `x`. */
const farFromTheEnd = (x: string, length = 500) => `*${x}${'?'.repeat(length - 2)}`;

/** The rule sets: the two reported, a real one, and the worst found for each form. */
export const WORKLOADS: readonly Workload[] = [
  {
    name: 'real rule set (45 patterns)',
    why: 'what projects write: one DFA per list',
    rules: {
      humanOnly: [
        'legal.**',
        'marketing.hero.*',
        'marketing.campaigns.*.headline',
        'emails.**.subject',
        '**.tagline',
        'onboarding.step?.title',
        'pricing.plans.*.description',
        'about.team.*.bio',
        'blog.posts.**',
        'landing.{hero,cta,footer}.*',
        'press.**',
        'careers.jobs.*.{title,summary}',
        '*.slogan',
        'checkout.terms_*',
        'help.faq.q[0-9]*.answer',
      ],
      neverTranslate: [
        'brand.name',
        'brand.{name,slogan,short_name}',
        '**.url',
        '**.href',
        '**.email',
        'social.*.handle',
        '**.id',
        'currency.*',
        'units.@(kg|lb|km|mi)',
        'app.version',
        'api.endpoints.**',
        '**.[A-Z][A-Z]_code',
        'countries.*.iso',
        'meta.og_*',
        'debug_*',
        '**.placeholder_token',
      ],
      exclude: [
        'debug.**',
        'internal.**',
        '**.test_*',
        'dev.*',
        '**.deprecated.**',
        'experiments.*.variant_?',
        'admin.debug_panel.*',
        'storybook.**',
        '**.todo',
        '*.fixme_*',
        'qa.**',
        'sandbox.{a,b,c}.*',
        '**.tmp',
        'legacy.v1.**',
      ],
    },
    keys: 'words',
  },
  {
    name: '*a*a*a*a*a*a*ab',
    why: 'stars and letters (reported: minutes on one key)',
    rules: { ...NONE, exclude: ['*a*a*a*a*a*a*ab'] },
    keys: 'a-run',
  },
  {
    name: '3 × 200 nested braces',
    why: '{a,{a,{a,…x}}}, 500 characters each (reported)',
    rules: {
      humanOnly: Array.from({ length: 200 }, (_, i) => nestedBraces(`xh${i}`)),
      neverTranslate: Array.from({ length: 200 }, (_, i) => nestedBraces(`xn${i}`)),
      exclude: Array.from({ length: 200 }, (_, i) => nestedBraces(`xe${i}`)),
    },
    keys: 'a-run',
  },
  {
    name: '*(a|aa|aaa|…)b',
    why: 'a long alternation, repeated',
    rules: {
      ...NONE,
      exclude: [`*(${Array.from({ length: 28 }, (_, i) => 'a'.repeat(i + 1)).join('|')})b`],
    },
    keys: 'a-run',
  },
  {
    name: '*[a-c]*[a-c]*…x',
    why: 'classes between stars, 500 characters',
    rules: { ...NONE, exclude: [`${'*[a-c]'.repeat(82)}*x`] },
    keys: 'a-or-b',
  },
  {
    name: '**.a.**.a.**…b',
    why: '`**` runs, 500 characters',
    rules: { ...NONE, exclude: [`${'**.a.'.repeat(99)}b`] },
    keys: 'a-or-b-segments',
  },
  {
    name: '**.a.*.*.*…',
    why: 'a segment far from the end: too many states to determinise',
    rules: { ...NONE, exclude: [`**.a${'.*'.repeat(248)}`] },
    keys: 'a-or-b-segments',
  },
  {
    name: '*a???…? (500 characters)',
    why: 'a character far from the end: the worst single pattern found',
    rules: { ...NONE, exclude: [farFromTheEnd('a')] },
    keys: 'a-or-b',
  },
  {
    name: '12 × *a???…? in one list',
    why: 'the slowest key found: a lazy DFA of 1,914 states in one list, within MAX_KEY_RULE_COST',
    rules: {
      ...NONE,
      exclude: Array.from({ length: 12 }, (_, i) => farFromTheEnd(i % 2 === 0 ? 'a' : 'b', 152 + i)),
    },
    keys: 'a-or-b',
  },
  {
    name: '*[240 CJK]???…?',
    why: 'the slowest step found: a class of 240 characters, each a class of characters of its own',
    rules: { ...NONE, exclude: [`*[${CJK.join('')}]${'?'.repeat(250)}`] },
    keys: 'cjk-or-b',
  },
  {
    name: 'worst rule set allowed',
    why: 'four of the worst pattern: the most a character may cost (MAX_KEY_RULE_COST)',
    rules: {
      humanOnly: [farFromTheEnd('a', 495)],
      neverTranslate: [farFromTheEnd('b', 495)],
      exclude: [farFromTheEnd('a', 494), farFromTheEnd('b', 494)],
    },
    keys: 'a-or-b',
  },
];

const WORDS = [
  'home',
  'cart',
  'legal',
  'marketing',
  'settings',
  'profile',
  'errors',
  'emails',
  'title',
  'label',
];

/** Key `index` of a shape, `length` characters long. */
export function keyOf(shape: KeyShape, index: number, length: number): string {
  // The same numbers for the same key, in both processes.
  const next = seededRandom(index + 1);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const chars: string[] = [];
  switch (shape) {
    case 'a-run':
      // The last character differs between keys; none matches.
      return 'a'.repeat(length - 1) + pick(['a', 'c', 'd']);
    case 'a-or-b':
      while (chars.length < length) chars.push(pick(['a', 'b']));
      return chars.join('');
    case 'cjk-or-b':
      while (chars.length < length) chars.push(pick([CJK[0]!, CJK[1]!, 'b']));
      return chars.join('');
    case 'a-or-b-segments':
      while (chars.length < length) chars.push(chars.length % 2 === 1 ? '.' : pick(['a', 'b']));
      if (chars[length - 1] === '.') chars[length - 1] = 'a';
      return chars.join('');
    case 'words': {
      let key = '';
      while (key.length < length) key += `${key ? '.' : ''}${pick(WORDS)}_${Math.floor(next() * 1000)}`;
      return key.slice(0, length);
    }
  }
}
