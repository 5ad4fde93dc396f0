/**
 * One user filling a glossary to its bounds through every caller they can be at once — their
 * session and nine project API tokens of the project: ten callers, as many as project-service's
 * database pool has connections — with imports built from the OpenAPI document's glossary schema
 * (openapi-inputs.ts): at the bound in bytes and in entries, and one entry past each. Another
 * user's reads of their own project and glossary (served by project-service, from the same pool)
 * keep their p99 under a second; no answer is a 500 or a 504 (an import that waited too long for
 * its turn is 503 with Retry-After); and the glossary at the end is what an acknowledged import
 * made it.
 */
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_GLOSSARY_BYTES } from '@tolk/contracts';
import { buildOpenApiDocument } from '../../gateway/src/openapi/openapi-document.js';
import { startSystem, type System } from '../e2e/system.js';
import { glossaryImportsAtBounds, isEnvelope, json } from './openapi-inputs.js';
import { victimP99 } from './victim-p99.js';

const TOKENS = 9;
const VICTIM_CALLS = 100;
/** Past this a call counts as failed; two of them put p99 of 100 calls over a second anyway. */
const CALL_TIMEOUT_MS = 2000;

let system: System;
beforeAll(async () => {
  system = await startSystem({
    tokens: true,
    gatewayEnv: { RATE_LIMIT_PER_USER: '1000000', RATE_LIMIT_PER_IP: '1000000' },
  });
});
afterAll(async () => {
  await system?.close();
});

type Answer = { kind: string; status: number; text: string; retryAfter: string | null };

/**
 * The attacker's client, in a thread of its own: each caller sends its imports (`plans[caller]`,
 * indexes into `imports`) in turn, from one of its own, until told to stop. The system runs in
 * this process, and sending ten imports of 4 MB at once from its event loop would be counted as
 * the system's work.
 */
const SENDER = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, callers, imports, plans } = workerData;
let stopping = false;
parentPort.on('message', () => { stopping = true; });
const send = async (token, caller) => {
  for (let n = caller; !stopping; n++) {
    const plan = plans[caller];
    const { kind, body } = imports[plan[n % plan.length]];
    const response = await fetch(url, {
      method: 'PUT',
      headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
      body,
    });
    const text = await response.text();
    parentPort.postMessage({ kind, status: response.status, text, retryAfter: response.headers.get('retry-after') });
  }
};
Promise.all(callers.map(send)).then(() => parentPort.postMessage('done'), (error) => { throw error; });
`;

/**
 * Starts the attacker's imports: what they are answered, as it comes, and how to stop them. The
 * first caller sends every import; the others those of many small entries, so that ten
 * callers wait at once without 40 MB in flight.
 */
function startImports(url: string, callers: string[], imports: { kind: string; body: Buffer }[]) {
  const answers: Answer[] = [];
  const light = imports.flatMap(({ body }, index) => (body.length < 1024 * 1024 ? [index] : []));
  const plans = callers.map((_, caller) => (caller === 0 ? imports.map((_, index) => index) : light));
  const worker = new Worker(SENDER, { eval: true, workerData: { url, callers, imports, plans } });
  const done = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: Answer | 'done') =>
      message === 'done' ? resolve() : answers.push(message),
    );
    worker.once('error', reject);
  });
  return {
    answers,
    async stop() {
      worker.postMessage('stop');
      await done;
      await worker.terminate();
    },
  };
}

/** What an acknowledged import says the glossary holds after it. */
function sizeIn(answer: Answer): string {
  const { total, bytes } = JSON.parse(answer.text) as { total: number; bytes: number };
  return `${total} entries, ${bytes} bytes`;
}

/** The attacker's project and its callers: the session, then TOKENS read_write project API tokens. */
async function projectWithCallers(token: string) {
  const created = await system.call('POST', '/v1/projects', token, { name: 'Full', sourceLocale: 'en' });
  expect(created.status).toBe(201);
  const projectId = created.body.projectId as string;
  const callers = [token];
  for (let i = 0; i < TOKENS; i++) {
    const issued = await system.call('POST', `/v1/projects/${projectId}/tokens`, token, {
      label: `importer ${i}`,
      permissions: 'read_write',
    });
    expect(issued.status).toBe(201);
    callers.push(issued.body.token as string);
  }
  return { projectId, callers };
}

describe('one user importing glossaries through every caller they can be at once', () => {
  it('when a session and nine project API tokens fill a glossary to its bounds at once, then another user’s p99 stays under 1 s, no answer is 500 or 504, and the glossary is what an acknowledged import made it', async () => {
    const imports = Object.entries(glossaryImportsAtBounds(buildOpenApiDocument(), MAX_GLOSSARY_BYTES)).map(
      ([kind, body]) => ({ kind, body: json(body) }),
    );
    const attacker = await system.signUp();
    const victim = await system.signUp();
    const { projectId, callers } = await projectWithCallers(attacker.token);
    const own = await system.call('POST', '/v1/projects', victim.token, { name: 'Own', sourceLocale: 'en' });
    const ownProject = `/v1/projects/${own.body.projectId as string}`;
    const term = { term: 'cart', translations: { de: 'Warenkorb' } };
    expect((await system.call('POST', `${ownProject}/glossary`, victim.token, term)).status).toBe(201);

    const { answers, stop } = startImports(
      `${system.base}/v1/projects/${projectId}/glossary`,
      callers,
      imports,
    );
    let p99: number;
    try {
      p99 = await victimP99({
        calls: VICTIM_CALLS,
        timeoutMs: CALL_TIMEOUT_MS,
        // Beside every kind of import answered at least once.
        done: () => imports.every(({ kind }) => answers.some((answer) => answer.kind === kind)),
        request: (n, signal) =>
          fetch(`${system.base}${ownProject}${n % 2 === 0 ? '' : '/glossary?limit=10'}`, {
            headers: { authorization: `Bearer ${victim.token}` },
            signal,
          }),
      });
    } finally {
      await stop();
    }

    const unexpected = answers.filter((answer) =>
      !isEnvelope(answer.text)
        ? answer.status !== 200
        : !(
            (answer.kind === 'pastByteBound' && answer.status === 413) ||
            (answer.kind === 'pastEntryBound' && answer.status === 400) ||
            (answer.status === 503 && answer.retryAfter !== null)
          ),
    );
    expect(
      unexpected.map((answer) => `${answer.kind}: ${answer.status} ${answer.text.slice(0, 200)}`),
    ).toEqual([]);
    const acknowledged = answers.filter((answer) => answer.status === 200);
    for (const kind of ['atByteBound', 'atEntryBound']) {
      expect(
        acknowledged.some((answer) => answer.kind === kind),
        `${kind} stored`,
      ).toBe(true);
    }
    const page = await system.call('GET', `/v1/projects/${projectId}/glossary?limit=1`, attacker.token);
    expect(acknowledged.map(sizeIn)).toContain(
      `${String(page.body.total)} entries, ${String(page.body.bytes)} bytes`,
    );
    expect(p99).toBeLessThan(1000);
  }, 120_000);
});
