/**
 * The translation browser under load: one member's many reads of a large project — pages and
 * searches over 20,000 keys in 10 locales, 20 at a time — must not keep another user waiting.
 * Everything runs in this one process (locale-, source- and project-service and the client), so
 * any read holding the event loop holds the other user's request too. A timed file (`TIMED` in
 * vitest.config.ts): it runs alone.
 */
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocaleService, type LocaleService } from './locale-harness.js';

const KEYS = 20_000;
const LOCALES = ['de', 'nl', 'sv', 'da', 'nb', 'fi', 'et', 'el', 'hu', 'bg'];
const READERS = 20;
const ROUNDS = 2;

let service: LocaleService;
beforeAll(async () => {
  service = await startLocaleService();
});
afterAll(async () => {
  await service?.close();
});

const WORDS = ['file', 'folder', 'team', 'project', 'invoice', 'message', 'report', 'setting'];

/** A source of `KEYS` keys in 100 sections, with texts of a few words. */
function largeSource(): Record<string, Record<string, string>> {
  const source: Record<string, Record<string, string>> = {};
  for (let i = 0; i < KEYS; i++) {
    const section = (source[`section${i % 100}`] ??= {});
    section[`item${i}`] = `Open the ${WORDS[i % WORDS.length]} number ${i} of this page`;
  }
  return source;
}

function translationOf(source: Record<string, Record<string, string>>, locale: string, skip: number) {
  let n = 0;
  return Object.fromEntries(
    Object.entries(source).map(([section, items]) => [
      section,
      Object.fromEntries(
        Object.entries(items).flatMap(([key, text]) =>
          n++ % 20 === skip ? [] : [[key, `[${locale}] ${text}`]],
        ),
      ),
    ]),
  );
}

function p99(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.ceil(0.99 * sorted.length) - 1]!;
}

describe('GET /v1/projects/:projectId/keys under load', () => {
  let project: Awaited<ReturnType<LocaleService['projectWithLocales']>>;
  // 20,000 keys uploaded in 11 files: most of the time of this file.
  beforeAll(async () => {
    project = await service.projectWithLocales(LOCALES);
    const source = largeSource();
    const { version } = await service.putSource(project.projectId, project.owner, source);
    for (const [i, locale] of LOCALES.entries()) {
      await service.waitForSourceVersion(project.projectId, locale, project.owner, version);
      const uploaded = await service.putTranslations(
        project.projectId,
        locale,
        project.owner,
        version,
        translationOf(source, locale, i),
      );
      expect(uploaded.status, JSON.stringify(uploaded.body).slice(0, 500)).toBe(200);
    }
  }, 240_000);

  it(
    "when a member reads 20 pages and searches of 20,000 keys × 10 locales at once, then another user's reads stay under a second at p99",
    { timeout: 240_000 },
    async () => {
      const other = await service.projectWithLocales(['de']);
      const otherRead = async () => {
        const started = performance.now();
        const response = await service.call('GET', `/v1/projects/${other.projectId}/locales`, {
          as: other.owner,
        });
        expect(response.status).toBe(200);
        return performance.now() - started;
      };
      await otherRead();

      const waits: number[] = [];
      let reading = true;
      const otherUser = (async () => {
        while (reading) waits.push(await otherRead());
      })();
      const reads: number[] = [];
      try {
        for (let round = 0; round < ROUNDS; round++) {
          await Promise.all(
            Array.from({ length: READERS }, async (_, reader) => {
              // Half page through, half search every key for a text of their own.
              const query =
                reader % 2 === 0
                  ? `offset=${reader * 500}&limit=200`
                  : `q=${encodeURIComponent(`number ${reader}${round}`)}&status=${reader % 4 === 1 ? 'missing' : 'translated'}`;
              const started = performance.now();
              const response = await service.call('GET', `/v1/projects/${project.projectId}/keys?${query}`, {
                as: project.owner,
              });
              reads.push(performance.now() - started);
              expect(response.status).toBe(200);
              expect(response.body.locales).toEqual(LOCALES);
              if (reader % 2 === 0) {
                expect(response.body.total).toBe(KEYS);
                expect(response.body.keys).toHaveLength(200);
              } else {
                expect(response.body.total).toBeGreaterThan(0);
              }
            }),
          );
        }
      } finally {
        reading = false;
        await otherUser;
      }
      const slowest = Math.max(...reads);
      expect(waits.length, `the other user's reads beside ${reads.length} browses`).toBeGreaterThan(10);
      expect(p99(waits), `other user's p99 (browses: slowest ${slowest.toFixed(0)} ms)`).toBeLessThan(1000);
    },
  );
});
