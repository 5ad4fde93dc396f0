/** The figures of `npm run bench:source`, as `--json` prints them, and the table of a normal run. */

type Spread = { medianMs: number; minMs: number; maxMs: number };

export type Report = {
  machine: { cpus: number; node: string; loadAverage: number[] };
  mode: 'servers' | 'embedded';
  /** The embedded mode's process: its start, and its VmRSS sampled from the start of (1) to the end of (5). */
  embedded?: {
    readyMs: number;
    memory?: {
      everyMs: number;
      samples: number;
      idleMiB: number;
      medianMiB: number;
      peakMiB: number;
      /** VmHWM at the end: the peak between the samples too, the start included. */
      highWaterMiB: number;
    };
  };
  source: { keys: number; bytes: number; repetitions: number; warmup: number };
  parse: Spread;
  changedUpload: Spread & { ratioToParse: number; target: number; pass: boolean; direct: Spread };
  identicalUpload: Spread & {
    ratioToChanged: number;
    ratioToParse: number;
    target: number;
    pass: boolean;
    direct: Spread;
  };
  propagation: {
    polled: string;
    keys: number;
    locales: number;
    uploads: number;
    p50Ms: number;
    p95Ms: number;
    p99Ms: number;
    maxMs: number;
    /** From the PUT returning to the answering poll being sent: the state was not visible earlier. */
    lowerBound: { p50Ms: number; p95Ms: number; p99Ms: number };
    pollsMedian: number;
    pollMedianMs: number;
    uploadMedianMs: number;
    target: number;
    pass: boolean;
  };
  largest: {
    keys: number;
    bytes: number;
    compact: boolean;
    realisticBytes: number;
    firstUpload: { status: number; ms: number };
    changedUpload: { status: number; ms: number };
  };
  /** (6) 1 % of the keys moved to new names: texts kept (renames) against texts reworded. */
  renames: {
    moved: number;
    replaced: Spread;
    renamed: Spread & { ratioToReplaced: number; ratioToChanged: number; target: number; pass: boolean };
  };
};

const MIB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
const verdict = (pass: boolean) => (pass ? 'PASS' : 'MISS');
const thousands = (n: number) => n.toLocaleString('en');

function row(label: string, spread: Spread | undefined, ratio = '', target = '', result = ''): string {
  const median = spread ? spread.medianMs.toFixed(1) : '';
  const range = spread ? `${spread.minMs.toFixed(1)}-${spread.maxMs.toFixed(1)}` : '';
  return `${label.padEnd(52)}${median.padStart(9)}  ${range.padStart(13)}  ${ratio.padEnd(12)}${target.padEnd(12)}${result}`.trimEnd();
}

function modeLine(report: Report): string {
  if (report.mode === 'servers')
    return 'mode: servers — one process per service on Postgres, RabbitMQ and Redis';
  const ready = report.embedded
    ? ` (ready ${(report.embedded.readyMs / 1000).toFixed(1)} s after spawning it)`
    : '';
  return (
    `mode: embedded — npm start's launcher with no servers: one process, PGlite, in-process bus${ready};` +
    ' "straight to source-service" is its port 8083'
  );
}

function memoryLines(report: Report): string[] {
  const memory = report.embedded?.memory;
  if (!memory) return [];
  return [
    `resident memory of the embedded process (VmRSS every ${memory.everyMs} ms, ${memory.samples} samples from (1) to the end of (5)):`,
    `    idle before (1): ${memory.idleMiB} MiB   median: ${memory.medianMiB} MiB   peak: ${memory.peakMiB} MiB` +
      `   (VmHWM at the end: ${memory.highWaterMiB} MiB)`,
    '',
  ];
}

export function formatReport(report: Report): string {
  const { source, parse, changedUpload: changed, identicalUpload: identical, propagation, largest } = report;
  const lines = [
    '',
    `Source of ${thousands(source.keys)} keys, ${mb(source.bytes)}: median of ${source.repetitions} after ${source.warmup} warm-up (the parse (1): one beside each upload of (2) and (3))`,
    `machine: ${report.machine.cpus} CPUs, Node ${report.machine.node}, load average ${report.machine.loadAverage.join(' ')} (at the end)`,
    modeLine(report),
    '',
    `${''.padEnd(52)}${'median ms'.padStart(9)}  ${'min-max ms'.padStart(13)}  ${'ratio'.padEnd(12)}target`,
    row('(1) JSON.parse + parseSourceDocument, in process', parse),
    row(
      '(2) PUT source, 1 % changed (new version), gateway',
      changed,
      `${changed.ratioToParse.toFixed(2)}× (1)`,
      `≤ ${changed.target}× (1)`,
      verdict(changed.pass),
    ),
    row('      the same, straight to source-service', changed.direct),
    row(
      '(3) PUT source, identical (no new version), gateway',
      identical,
      `${identical.ratioToChanged.toFixed(2)}× (2)`,
      `≤ ${identical.target}× (2)`,
      verdict(identical.pass),
    ),
    row('', undefined, `${identical.ratioToParse.toFixed(2)}× (1)`, '(info)'),
    row('      the same, straight to source-service', identical.direct),
    '',
    '(4) from a changed PUT returning to every target locale "behind" at the new sourceVersion',
    `    ${propagation.keys}-key source, ${propagation.locales} target locales made up to date before each of ${propagation.uploads} changed uploads;`,
    `    polled: ${propagation.polled}`,
    `    p50 ${propagation.p50Ms} ms   p95 ${propagation.p95Ms} ms   p99 ${propagation.p99Ms} ms   max ${propagation.maxMs} ms` +
      `      target p99 ≤ ${propagation.target} ms   ${verdict(propagation.pass)}`,
    `    (not yet visible when the answering poll was sent: p50 ${propagation.lowerBound.p50Ms}, p95 ${propagation.lowerBound.p95Ms}, ` +
      `p99 ${propagation.lowerBound.p99Ms} ms; polls: median ${propagation.pollMedianMs} ms each, ${propagation.pollsMedian} per upload;`,
    `    the ${propagation.keys}-key PUT itself: median ${propagation.uploadMedianMs} ms)`,
    '',
    `(5) ${thousands(largest.keys)} keys, ${mb(largest.bytes)} (${(largest.bytes / MIB).toFixed(2)} MiB of the 10 MiB limit)` +
      (largest.compact
        ? `: compact values, no indentation — a realistic file of ${thousands(largest.keys)} keys is ${mb(largest.realisticBytes)}, over 10 MiB`
        : ''),
    `    first upload: ${largest.firstUpload.status} in ${largest.firstUpload.ms} ms; ` +
      `1 % changed: ${largest.changedUpload.status} in ${largest.changedUpload.ms} ms`,
    '',
    `(6) ${thousands(report.renames.moved)} keys moved to new names in each upload of a ${thousands(source.keys)}-key source (1 %), gateway`,
    row('    texts reworded too: deleted and added', report.renames.replaced),
    row(
      '    texts kept: renames detected and carried over',
      report.renames.renamed,
      `${report.renames.renamed.ratioToReplaced.toFixed(2)}× above`,
      `≤ ${report.renames.renamed.target}×`,
      verdict(report.renames.renamed.pass),
    ),
    row('', undefined, `${report.renames.renamed.ratioToChanged.toFixed(2)}× (2)`, '(info)'),
    '',
    ...memoryLines(report),
  ];
  return lines.join('\n');
}
