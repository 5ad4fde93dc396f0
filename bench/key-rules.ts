/**
 * `npm run bench:key-rules`: what key rules cost (DESIGN §13), in this process, with no server:
 * for each workload of bench/key-rule-workloads.ts (the real rule set, the two reported, and the
 * worst patterns found for each form: stars and letters, nested braces, long alternations,
 * classes, `**` runs, patterns too costly to determinise) over BENCH_KEY_RULES_KEYS keys of
 * BENCH_KEY_RULES_KEY_LENGTH characters shaped to hurt it:
 *   - the automata: compile time, cost per key character (what the budget counts), time per list
 *     and for all lists, per key and per character;
 *   - picomatch's RegExps as the rules ran before, in a worker stopped after the cap;
 *   - the ratio of the two (picomatch ÷ automata), a lower bound where picomatch was stopped.
 * Each side gets BENCH_KEY_RULES_CAP_SECONDS per run; a capped run shows the keys it matched
 * and their rate. CPU time of this process for the automata, wall time of the worker for
 * picomatch (the machine's other load counts against picomatch only).
 */
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import { loadConfig } from '@tolk/config';
import {
  DEFAULT_KEY_RULES_BUDGET,
  keyRuleMatcher,
  KEY_RULE_LISTS,
  MAX_KEY_RULE_COST,
  type KeyRuleList,
  type KeyRules,
} from '@tolk/contracts';
import { keyOf, WORKLOADS } from './key-rule-workloads.js';

const config = loadConfig(
  z.object({
    BENCH_KEY_RULES_KEYS: z.coerce.number().int().positive().default(50_000),
    BENCH_KEY_RULES_KEY_LENGTH: z.coerce.number().int().min(10).max(10_000).default(1_000),
    BENCH_KEY_RULES_CAP_SECONDS: z.coerce.number().positive().default(20),
  }),
  process.env,
);
const COUNT = config.BENCH_KEY_RULES_KEYS;
const LENGTH = config.BENCH_KEY_RULES_KEY_LENGTH;
const CAP_MS = config.BENCH_KEY_RULES_CAP_SECONDS * 1000;

const say = (line = '') => process.stdout.write(`${line}\n`);
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Keys matched and the time they took; `capped` when the cap stopped the run first; `firstMs`:
 * picomatch's first key, which includes V8 compiling its RegExps (not counted in the rate).
 */
type Run = { matched: number; ms: number; capped: boolean; firstMs?: number };

/** The automata of `rules` over the keys, stopped at the cap. */
function runAutomata(rules: KeyRules, keys: readonly string[]): Run & { cost: number; compileMs: number } {
  let started = cpuMs();
  const matcher = keyRuleMatcher(rules);
  const compileMs = cpuMs() - started;
  started = cpuMs();
  let matched = 0;
  for (const key of keys) {
    matcher.ruleOf(key);
    // The clock is read every 100 keys: reading it costs about a microsecond.
    if (++matched % 100 === 0 && cpuMs() - started > CAP_MS) break;
  }
  const ms = cpuMs() - started;
  return { matched, ms, capped: matched < keys.length, cost: matcher.cost, compileMs };
}

/** picomatch's RegExps over the same keys, in a worker stopped at the cap. */
function runPicomatch(workload: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    // TypeScript, as this process runs it: a worker's entry is loaded before `--import tsx` applies.
    const entry = new URL('./key-rules-picomatch.ts', import.meta.url).href;
    const worker = new Worker(
      `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`,
      { eval: true, workerData: { workload, count: COUNT, length: LENGTH } },
    );
    let last = { matched: 0, ms: 0 };
    let firstMs: number | undefined;
    let started: number | undefined;
    const stop = setInterval(() => {
      // The cap counts from when the worker's keys are made.
      if (started !== undefined && performance.now() - started > CAP_MS) {
        clearInterval(stop);
        void worker.terminate();
        resolve({ ...last, firstMs, capped: true });
      }
    }, 100);
    worker.on('message', (progress: { ready: true } | { matched: number; ms: number }) => {
      if ('ready' in progress) {
        started = performance.now();
        return;
      }
      last = progress;
      if (progress.matched === 1) firstMs = progress.ms;
      if (progress.matched === COUNT) {
        clearInterval(stop);
        void worker.terminate();
        resolve({ ...progress, firstMs, capped: false });
      }
    });
    worker.on('error', (error) => {
      clearInterval(stop);
      reject(error);
    });
  });
}

/** µs a key; for picomatch, over the keys after the first. */
function perKeyUs(run: Run): number {
  const first = run.firstMs === undefined ? 0 : 1;
  if (run.matched - first <= 0) return Infinity;
  return ((run.ms - (run.firstMs ?? 0)) * 1000) / (run.matched - first);
}
const fmt = (n: number, digits = 1) =>
  Number.isFinite(n) ? n.toLocaleString('en', { maximumFractionDigits: digits }) : '∞';
function describeRun(run: Run): string {
  if (run.matched === 0) return `not one key within ${fmt(CAP_MS / 1000, 0)} s (capped)`;
  const perKey = perKeyUs(run);
  const first = run.firstMs === undefined ? '' : `first key ${fmt(run.firstMs, 1)} ms, `;
  const total = run.capped
    ? `${fmt(run.matched, 0)} keys in ${fmt(run.ms / 1000)} s (capped; all ${fmt((perKey * COUNT) / 1e6)} s at that rate)`
    : `${fmt(run.ms / 1000, 2)} s`;
  return `${first}${total}, ${fmt(perKey, 2)} µs a key, ${fmt((perKey * 1000) / LENGTH, 2)} ns a character`;
}

say(
  `key rules over ${COUNT.toLocaleString('en')} keys of ${LENGTH.toLocaleString('en')} characters; ` +
    `each run capped at ${config.BENCH_KEY_RULES_CAP_SECONDS} s`,
);
const summary: string[] = [];
/** Per workload: µs a key, and ns a step of the cost the budget counts. */
const rates: { name: string; cost: number; perKeyUs: number; perStepNs: number; capped: boolean }[] = [];
for (const [index, workload] of WORKLOADS.entries()) {
  say();
  say(`${workload.name}: ${workload.why} (keys: ${workload.keys})`);
  const keys = Array.from({ length: COUNT }, (_, i) => keyOf(workload.keys, i, LENGTH));
  const used = KEY_RULE_LISTS.filter((list) => workload.rules[list].length > 0);
  if (used.length > 1) {
    for (const list of used) {
      const alone = {
        humanOnly: [],
        neverTranslate: [],
        exclude: [],
        [list]: workload.rules[list],
      } as Record<KeyRuleList, string[]>;
      say(
        `  automata, ${list} alone (${alone[list].length} patterns): ${describeRun(runAutomata(alone, keys))}`,
      );
    }
  }
  const ours = runAutomata(workload.rules, keys);
  const allowed =
    ours.cost > MAX_KEY_RULE_COST ? 'over MAX_KEY_RULE_COST: refused when saved' : 'within MAX_KEY_RULE_COST';
  say(`  automata: compiled in ${fmt(ours.compileMs)} ms, ${ours.cost} steps a character (${allowed})`);
  say(`  automata, all lists: ${describeRun(ours)}`);
  rates.push({
    name: workload.name,
    cost: ours.cost,
    perKeyUs: perKeyUs(ours),
    perStepNs: (perKeyUs(ours) * 1000) / (ours.cost * LENGTH),
    capped: ours.capped,
  });
  const theirs = await runPicomatch(index);
  say(`  picomatch RegExp: ${describeRun(theirs)}`);
  // Where picomatch finished no key in the cap, the cap is a lower bound of its time for one.
  const ratio = Math.min(perKeyUs(theirs), CAP_MS * 1000) / perKeyUs(ours);
  const bound = theirs.capped ? '≥ ' : '';
  const shown = fmt(ratio, ratio < 1 ? 4 : 1);
  say(`  picomatch ÷ automata: ${bound}${shown}×`);
  const theirsPerKey = Number.isFinite(perKeyUs(theirs))
    ? `${fmt(perKeyUs(theirs), 2)} µs`
    : `> ${fmt(CAP_MS / 1000, 0)} s for ${theirs.matched === 0 ? 'one key' : 'a key after the first'}`;
  summary.push(
    `${workload.name.padEnd(30)} ${fmt(perKeyUs(ours), 2).padStart(10)} µs  ${theirsPerKey}${
      theirs.capped ? ' (capped)' : ''
    }  ${bound}${shown}×`,
  );
}
say();
say('per key: automata, picomatch, picomatch ÷ automata');
for (const line of summary) say(`  ${line}`);

// The worst found: the slowest key, and the slowest step of what the budget counts, with what
// the default budget (cost × key characters) then takes of one core.
const slowest = (of: (rate: (typeof rates)[number]) => number) =>
  rates.reduce((worst, rate) => (of(rate) > of(worst) ? rate : worst));
const slowestKey = slowest((rate) => rate.perKeyUs);
const slowestStep = slowest((rate) => rate.perStepNs);
say();
say(
  `slowest key: ${slowestKey.name}, ${fmt(slowestKey.perKeyUs / 1000, 2)} ms a key of ${fmt(LENGTH, 0)} characters ` +
    `(${fmt((slowestKey.perKeyUs * COUNT) / 1e6, 0)} s for all ${fmt(COUNT, 0)}${slowestKey.capped ? ', at the rate of the keys within the cap' : ''}: ` +
    `its rules are refused for a source of more than ${fmt(DEFAULT_KEY_RULES_BUDGET / (slowestKey.cost * LENGTH), 0)} such keys by the budget)`,
);
say(
  `slowest step: ${slowestStep.name}, ${fmt(slowestStep.perStepNs, 2)} ns a step: the default budget of ` +
    `${fmt(DEFAULT_KEY_RULES_BUDGET, 0)} steps takes up to ${fmt((slowestStep.perStepNs * DEFAULT_KEY_RULES_BUDGET) / 1e9, 2)} s of one core, in slices`,
);
