/**
 * Key rules one member sets, against everyone else: through the real gateway in front of the
 * real project-, source- and locale-service (one process, as `npm start` runs embedded), the
 * patterns that froze locale-service for minutes (a backtracking `*a*a*a*a*a*a*ab` against a key
 * of 400 `a`s; 3 lists of 200 nested braces of 500 characters), and as many PATCHes of costly
 * rules as one caller may have in flight, leave another user's reads answering within a second
 * while they are compiled and worked out, and rules whose work over a source would
 * pass the budget are refused where they are set and where the source is uploaded.
 */
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_KEY_RULES_BUDGET, keyCharacters } from '@tolk/contracts';
import { startSystem, type System } from './system.js';

/** How long another user's read may take. */
const WITHIN_MS = 1_000;
/** Past this a read is given up: today's rules held the process for minutes. */
const GIVE_UP_MS = 5_000;
/** How long the bus and the work may take to settle. */
const settled = { timeout: 60_000, interval: 50 };

let system: System;
beforeAll(async () => {
  system = await startSystem({ sources: true });
});
afterAll(async () => {
  await system?.close();
});

/** A new user's project with German as a target locale: its path and the user's token. */
async function projectWithGerman(name: string) {
  const user = await system.signUp();
  const created = await system.call('POST', '/v1/projects', user.token, { name, sourceLocale: 'en' });
  expect(created.status).toBe(201);
  const project = `/v1/projects/${created.body.projectId as string}`;
  expect((await system.call('POST', `${project}/locales`, user.token, { locale: 'de' })).status).toBe(201);
  return { token: user.token, project };
}

/**
 * Another user reading their own German locale again and again until `work` has settled (at
 * least 5 times): how long each read took (a read given up counts as GIVE_UP_MS).
 */
async function readsBeside(work: Promise<unknown>): Promise<number[]> {
  const victim = await projectWithGerman('Bystander');
  expect(
    (await system.call('PUT', `${victim.project}/source`, victim.token, { hello: 'Hello' })).status,
  ).toBe(200);
  let done = false;
  const finished = work.finally(() => (done = true));
  const durations: number[] = [];
  while (!done || durations.length < 5) {
    const started = performance.now();
    try {
      const response = await fetch(`${system.base}${victim.project}/locales/de`, {
        headers: { authorization: `Bearer ${victim.token}` },
        signal: AbortSignal.timeout(GIVE_UP_MS),
      });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      durations.push(performance.now() - started);
    } catch (error) {
      if ((error as Error).name !== 'TimeoutError') throw error;
      durations.push(GIVE_UP_MS);
      break;
    }
  }
  await finished;
  return durations;
}

/** The attacker's German locale once it counts the source's version 1. */
function settledGerman(attacker: { token: string; project: string }) {
  return vi.waitFor(async () => {
    const locale = await system.call('GET', `${attacker.project}/locales/de`, attacker.token);
    expect(locale.status).toBe(200);
    expect(locale.body.sourceVersion).toBe(1);
    return locale.body as { keyCount: number; missing: string[] };
  }, settled);
}

describe('key rules that backtracked', () => {
  it('when "*a*a*a*a*a*a*ab" meets a key of 400 "a"s, then another user’s locale answers within 1 s while it is worked out', async () => {
    const attacker = await projectWithGerman('Stars');
    const rules = { settings: { keyRules: { exclude: ['*a*a*a*a*a*a*ab'] } } };
    expect((await system.call('PATCH', attacker.project, attacker.token, rules)).status).toBe(200);

    const work = (async () => {
      const source = { ['a'.repeat(400)]: 'Many', title: 'Title' };
      expect((await system.call('PUT', `${attacker.project}/source`, attacker.token, source)).status).toBe(
        200,
      );
      return settledGerman(attacker);
    })();
    const durations = await readsBeside(work);

    expect(Math.max(...durations)).toBeLessThan(WITHIN_MS);
    // The pattern does not match: both keys are the locale's, left to translate.
    expect(await work).toMatchObject({ keyCount: 2, missing: ['a'.repeat(400), 'title'] });
  });

  it('when 3 lists of 200 nested braces of 500 characters meet 300 keys, then another user’s locale answers within 1 s while they are worked out', async () => {
    const attacker = await projectWithGerman('Braces');
    const nested = (inner: string) => {
      let pattern = inner;
      while (`{a,${pattern}}`.length <= 500) pattern = `{a,${pattern}}`;
      return pattern;
    };
    const list = (name: string) => Array.from({ length: 200 }, (_, i) => nested(`x${name}${i}`));
    const keyRules = { humanOnly: list('h'), neverTranslate: list('n'), exclude: list('e') };
    const source = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`key${i}`, `Value ${i}`]));
    source['xe7'] = 'Left out';

    const work = (async () => {
      const patched = await system.call('PATCH', attacker.project, attacker.token, {
        settings: { keyRules },
      });
      expect(patched.status).toBe(200);
      expect((await system.call('PUT', `${attacker.project}/source`, attacker.token, source)).status).toBe(
        200,
      );
      return settledGerman(attacker);
    })();
    const durations = await readsBeside(work);

    expect(Math.max(...durations)).toBeLessThan(WITHIN_MS);
    // `xe7` matches the exclude list's 8th pattern (its innermost alternative): no key of German.
    expect((await work).keyCount).toBe(300);
  });
});

describe('key rules compiled at once', () => {
  it('when one user has as many PATCHes of distinct costly rules in flight as the gateway lets them, then another user’s locale answers within 1 s while they are compiled', async () => {
    const attacker = await projectWithGerman('Many at once');
    // Each list a character far from a key's end: no DFA within the limits, so each rule set
    // takes its whole construction budget (some 6 million steps) before it runs lazily.
    const far = (i: number, x: string) => `*${x}${'?'.repeat(400 + i)}`;
    const patch = (i: number) =>
      system.call('PATCH', attacker.project, attacker.token, {
        settings: {
          keyRules: { humanOnly: [far(i, 'a')], neverTranslate: [far(i, 'b')], exclude: [far(i, 'c')] },
        },
      });
    // MAX_UPLOADS_PER_PRINCIPAL: requests with a body one caller may have in progress at once.
    const work = Promise.all(Array.from({ length: 10 }, (_, i) => patch(i)));
    const durations = await readsBeside(work);

    expect(Math.max(...durations)).toBeLessThan(WITHIN_MS);
    expect((await work).map((answer) => answer.status)).toEqual(Array<number>(10).fill(200));
    // About 5 s of one core in all: on a machine shared with other work, more.
  }, 90_000);
});

describe('the budget of key rules', () => {
  /** 35 patterns each with too many cases to determinise: about 1,750 steps a key character. */
  const COSTLY = Array.from({ length: 35 }, (_, i) => `**.k${i}${'.*'.repeat(14)}`);
  /** 4,000 keys of 19 characters: 76,000 characters, over 130 million steps under COSTLY. */
  const LARGE = Object.fromEntries(
    Array.from({ length: 4_000 }, (_, i) => [`section.k${String(i).padStart(4, '0')}.label`, `Value ${i}`]),
  );
  const LARGE_CHARACTERS = keyCharacters(Object.keys(LARGE));

  it('when new rules would take more than the budget over the current source, then PATCH answers 400 naming it, and nothing changes', async () => {
    const owner = await projectWithGerman('Large');
    expect((await system.call('PUT', `${owner.project}/source`, owner.token, LARGE)).status).toBe(200);

    const patched = await system.call('PATCH', owner.project, owner.token, {
      settings: { keyRules: { exclude: COSTLY } },
    });
    expect(patched.status).toBe(400);
    expect(patched.body.error.code).toBe('VALIDATION_ERROR');
    expect(patched.body.error.message).toMatch(
      new RegExp(
        `^body\\.settings\\.keyRules: checking the source's keys \\(${LARGE_CHARACTERS} characters\\) against the key rules ` +
          `would take up to \\d+ steps \\(\\d+ a character\\), over the budget of ${DEFAULT_KEY_RULES_BUDGET}: ` +
          'use fewer or simpler patterns, or fewer keys$',
      ),
    );
    const project = await system.call('GET', owner.project, owner.token);
    expect(project.body.settings.keyRules).toEqual({ humanOnly: [], neverTranslate: [], exclude: [] });
  });

  it('when a source would push the rules past the budget, then its upload answers 400 naming it, and nothing is stored', async () => {
    const owner = await projectWithGerman('Growing');
    const patched = await system.call('PATCH', owner.project, owner.token, {
      settings: { keyRules: { exclude: COSTLY } },
    });
    expect(patched.status).toBe(200);

    // A dry run until source-service has the rules (ProjectUpdated): it stores nothing either way.
    await vi.waitFor(async () => {
      const dryRun = await system.call('PUT', `${owner.project}/source?dryRun=true`, owner.token, LARGE);
      expect(dryRun.status).toBe(400);
    }, settled);
    const upload = await system.call('PUT', `${owner.project}/source`, owner.token, LARGE);
    expect(upload.status).toBe(400);
    expect(upload.body.error.code).toBe('VALIDATION_ERROR');
    expect(upload.body.error.message).toMatch(
      new RegExp(
        `^body: checking the source's keys \\(${LARGE_CHARACTERS} characters\\) .* over the budget of ${DEFAULT_KEY_RULES_BUDGET}: ` +
          'use fewer or simpler patterns, or fewer keys; nothing was stored$',
      ),
    );
    expect((await system.call('GET', `${owner.project}/source`, owner.token)).status).toBe(404);

    const small = Object.fromEntries(Object.entries(LARGE).slice(0, 100));
    expect((await system.call('PUT', `${owner.project}/source`, owner.token, small)).status).toBe(200);
  });
});
