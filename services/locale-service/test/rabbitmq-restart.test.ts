import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  canRunPrivateRabbit,
  realServers,
  settled,
  startPrivateRabbit,
  type PrivateRabbit,
} from '@tolk/testing';
import { startLocaleService, type LocaleService } from './locale-harness.js';

/**
 * RabbitMQ stopped and started again in the middle of a stream of source and translation
 * uploads, on a broker of this file's own (the shared one serves other test files). Afterwards
 * every SourceChanged and TranslationBaselineChanged has taken effect exactly once and every
 * locale's status is what the uploads make it.
 */
const withoutRabbitMQ = !canRunPrivateRabbit() || !realServers().rabbitmq;

describe.skipIf(withoutRabbitMQ)('RabbitMQ restarted during a stream of uploads', () => {
  let broker: PrivateRabbit;
  let service: LocaleService;
  beforeAll(async () => {
    broker = await startPrivateRabbit();
    service = await startLocaleService({ amqpUrl: broker.url });
  }, 120_000);
  afterAll(async () => {
    await service?.close();
    await broker?.close();
  }, 60_000);

  const KEYS = Array.from({ length: 8 }, (_, i) => `key${i}`);
  const LOCALES = ['de', 'fr'] as const;

  it('when the broker goes away and comes back, then nothing is lost and every status is right', async () => {
    type Tracked = Awaited<ReturnType<LocaleService['projectWithLocales']>> & {
      version: number;
      values: Record<string, string>;
      /** The version in which each key's value last changed. */
      revision: Record<string, number>;
      /** The source version of each locale's last translation upload. */
      from: Record<string, number>;
    };
    const projects: Tracked[] = [];
    for (let p = 0; p < 3; p++) {
      const project = await service.projectWithLocales([...LOCALES]);
      const values = Object.fromEntries(KEYS.map((key) => [key, `${key} v1`]));
      await service.putSource(project.projectId, project.owner, values);
      projects.push({
        ...project,
        version: 1,
        values,
        revision: Object.fromEntries(KEYS.map((key) => [key, 1])),
        from: { de: 0, fr: 0 },
      });
    }

    const STEPS = 36;
    for (let step = 0; step < STEPS; step++) {
      if (step === 12) await broker.stop();
      if (step === 24) {
        // While it was away, the uploads' events waited in the outbox.
        expect(service.bus.isConnected()).toBe(false);
        const { rows } = await service.source.db.query(`SELECT 1 FROM outbox WHERE published_at IS NULL`);
        expect(rows.length).toBeGreaterThanOrEqual(12);
        await broker.start();
      }
      const project = projects[step % projects.length]!;
      // One key's value changes: a new version.
      const key = KEYS[step % KEYS.length]!;
      project.values = { ...project.values, [key]: `${key} changed at step ${step}` };
      const answer = await service.putSource(project.projectId, project.owner, project.values);
      project.version = answer.version;
      project.revision[key] = answer.version;
      // Every third step a locale is translated from the version just made.
      if (step % 3 === 0) {
        const locale = LOCALES[(step / 3) % LOCALES.length]!;
        const translated = Object.fromEntries(KEYS.map((k) => [k, `${project.values[k]} (${locale})`]));
        const uploaded = await service.putTranslations(
          project.projectId,
          locale,
          project.owner,
          project.version,
          translated,
        );
        expect(uploaded.status).toBe(200);
        project.from[locale] = project.version;
      }
    }

    for (const project of projects) {
      const baseline = Math.min(...LOCALES.map((locale) => synced(project, locale)));
      for (const locale of LOCALES) {
        const shown = await vi.waitFor(
          async () => {
            const detail = await service.getLocale(project.projectId, locale, project.owner);
            expect(detail['sourceVersion'], `${locale} of ${project.projectId} at ${project.version}`).toBe(
              project.version,
            );
            return detail;
          },
          { ...settled, timeout: 30_000 },
        );
        const outdated =
          project.from[locale]! === 0 ? [] : KEYS.filter((k) => project.revision[k]! > project.from[locale]!);
        expect(shown, `${locale} of project ${projects.indexOf(project)}`).toMatchObject({
          status: synced(project, locale) >= project.version ? 'up_to_date' : 'behind',
          syncedVersion: synced(project, locale),
          missingCount: project.from[locale] === 0 ? KEYS.length : 0,
          outdated,
        });
      }
      // The baseline reached source-service: what is pending is what changed since it.
      const pending = KEYS.filter((k) => project.revision[k]! > baseline);
      await vi.waitFor(
        async () => {
          const source = await service.getSource(project.projectId, project.owner);
          const changed = [...source.pendingDiff['added']!, ...source.pendingDiff['modified']!];
          expect(
            JSON.stringify(changed) === JSON.stringify(pending),
            `pendingDiff of ${project.projectId} from baseline ${baseline}`,
          ).toBe(true);
        },
        { ...settled, timeout: 30_000 },
      );
    }

    // Every SourceChanged source-service wrote was published and applied exactly once.
    await vi.waitFor(
      async () => {
        const { rows } = await service.source.db.query(`SELECT 1 FROM outbox WHERE published_at IS NULL`);
        expect(rows, 'source outbox drained').toHaveLength(0);
      },
      { ...settled, timeout: 30_000 },
    );
    const { rows: written } = await service.source.db.query<{ id: string }>(
      `SELECT id FROM outbox WHERE type = 'SourceChanged' AND payload -> 'data' ->> 'projectId' = ANY($1)`,
      [projects.map((p) => p.projectId)],
    );
    expect(written.length).toBe(projects.length + STEPS);
    const { rows: applied } = await service.db.query<{ event_id: string }>(
      `SELECT event_id FROM processed_events WHERE consumer = $1 AND event_id = ANY($2)`,
      [service.queue, written.map((row) => row.id)],
    );
    expect(applied.length).toBe(written.length);
    expect(service.deadLettered).toEqual([]);
  }, 180_000);

  /** What the uploads make a locale's synced version (see computeLocaleState). */
  function synced(
    project: { revision: Record<string, number>; from: Record<string, number> },
    locale: string,
  ): number {
    const from = project.from[locale]!;
    if (from === 0) return 0;
    const pending = KEYS.map((k) => project.revision[k]!).filter((revision) => revision > from);
    return pending.length === 0 ? from : Math.min(from, Math.min(...pending) - 1);
  }
});
