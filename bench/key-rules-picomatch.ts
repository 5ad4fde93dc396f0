/**
 * bench:key-rules' worker: key rules as they ran before the automata, one picomatch RegExp per
 * list, over a workload's keys. In a thread of its own, so that the bench can stop it when a key
 * never ends. Posts how many keys it has matched and its time after the first key (V8 compiles a
 * RegExp when it is first used), every 100 keys and at the end; first, that its keys are made.
 */
import { parentPort, workerData } from 'node:worker_threads';
import picomatch from 'picomatch/posix.js';
import { keyOf, WORKLOADS } from './key-rule-workloads.js';

const { workload, count, length } = workerData as { workload: number; count: number; length: number };
const { rules, keys: shape } = WORKLOADS[workload]!;

const swap = (value: string) => value.replace(/[./]/g, (c) => (c === '.' ? '/' : '.'));
const listRegex = (patterns: readonly string[]) =>
  patterns.length === 0
    ? undefined
    : new RegExp(
        patterns
          .map((p) => `(?:${picomatch.makeRe(swap(p), { dot: true, strictBrackets: true }).source})`)
          .join('|'),
      );
const lists = [listRegex(rules.exclude), listRegex(rules.neverTranslate), listRegex(rules.humanOnly)];

const keys = Array.from({ length: count }, (_, i) => keyOf(shape, i, length));
// The cap counts from here: starting a worker and making its keys is no part of picomatch's time.
parentPort!.postMessage({ ready: true });
const started = performance.now();
for (let i = 0; i < keys.length; i++) {
  const path = swap(keys[i]!);
  for (const regex of lists) if (regex?.test(path)) break;
  if (i === 0 || (i + 1) % 100 === 0 || i + 1 === keys.length) {
    parentPort!.postMessage({ matched: i + 1, ms: performance.now() - started });
  }
}
