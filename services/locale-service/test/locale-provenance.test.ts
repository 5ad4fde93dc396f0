import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translationsResponseSchema } from '@tolk/contracts';
import {
  carryProvenance,
  decodeProvenance,
  encodeProvenance,
  provenanceOfUpload,
  type Provenance,
} from '../src/domain/provenance.js';
import { expectError, startLocaleService, type LocaleService } from './locale-harness.js';

let service: LocaleService;
beforeAll(async () => {
  service = await startLocaleService();
});
afterAll(async () => {
  await service?.close();
});

const SOURCE = { title: 'Welcome, {name}!', save: 'Save', cancel: 'Cancel', nav: { home: 'Home' } };
const MODEL = 'openai:gpt-4o-mini';

/** A project with `de` added and SOURCE uploaded, its SourceChanged consumed. */
async function readyProject() {
  const project = await service.projectWithLocales(['de']);
  await service.putSource(project.projectId, project.owner, SOURCE);
  await service.waitForSourceVersion(project.projectId, 'de', project.owner, 1);
  return project;
}

type Project = Awaited<ReturnType<typeof readyProject>>;

async function upload(project: Project, body: unknown) {
  return service.putTranslations(project.projectId, 'de', project.owner, 1, body);
}

/** `GET .../translations`, held to the contract: the content parsed and the provenance. */
async function translations(project: Project) {
  const response = await service.call('GET', `/v1/projects/${project.projectId}/locales/de/translations`, {
    as: project.owner,
  });
  expect(response.status).toBe(200);
  const body = translationsResponseSchema.parse(response.body);
  return {
    content: JSON.parse(body.content) as Record<string, unknown>,
    provenance: body.provenance,
    translatedFrom: body.translatedFrom,
  };
}

const GERMAN = {
  title: 'Willkommen, {name}!',
  save: 'Speichern',
  cancel: 'Abbrechen',
  nav: { home: 'Start' },
};

describe('PUT /v1/projects/:projectId/locales/:locale/translations with @@provenance', () => {
  it('when keys are claimed as ai and memory, then they are returned so and every other key as human', async () => {
    const project = await readyProject();
    const before = Date.now();
    const response = await upload(project, {
      ...GERMAN,
      '@@provenance': { ai: { model: MODEL, keys: ['title', 'nav.home'] }, memory: { keys: ['save'] } },
    });
    expect(response.status).toBe(200);
    const { content, provenance, translatedFrom } = await translations(project);
    expect(content).toStrictEqual(GERMAN);
    expect(translatedFrom).toBe(1);
    const at = provenance.title!.at;
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now() + 1000);
    // In the order of content.
    expect(Object.entries(provenance)).toStrictEqual([
      ['title', { by: 'ai', model: MODEL, at }],
      ['save', { by: 'memory', at }],
      ['cancel', { by: 'human', at }],
      ['nav.home', { by: 'ai', model: MODEL, at }],
    ]);
  });

  it('when an upload has no claim, then every key is human', async () => {
    const project = await readyProject();
    expect((await upload(project, GERMAN)).status).toBe(200);
    const { provenance } = await translations(project);
    expect(Object.values(provenance).map((p) => p.by)).toStrictEqual(['human', 'human', 'human', 'human']);
  });

  it('when unchanged values are uploaded again unclaimed, then they keep their provenance and time; changed ones become human', async () => {
    const project = await readyProject();
    await upload(project, {
      ...GERMAN,
      '@@provenance': { ai: { model: MODEL, keys: ['title', 'save', 'cancel', 'nav.home'] } },
    });
    const first = (await translations(project)).provenance;
    await expect.poll(() => Date.now()).toBeGreaterThan(first.title!.at);

    const response = await upload(project, {
      ...GERMAN,
      cancel: 'Doch nicht',
      '@@provenance': { memory: { keys: ['nav.home'] } },
    });
    expect(response.status).toBe(200);
    const second = (await translations(project)).provenance;
    expect(second.title).toStrictEqual(first.title);
    expect(second.save).toStrictEqual(first.save);
    expect(second.cancel).toStrictEqual({ by: 'human', at: expect.any(Number) });
    expect(second.cancel!.at).toBeGreaterThan(first.title!.at);
    expect(second['nav.home']).toStrictEqual({ by: 'memory', at: second.cancel!.at });
  });

  it('when a human value is uploaded again with an ai claim, then the claim wins', async () => {
    const project = await readyProject();
    await upload(project, GERMAN);
    await upload(project, {
      ...GERMAN,
      '@@provenance': { ai: { model: 'anthropic:claude-x', keys: ['save'] } },
    });
    const { provenance } = await translations(project);
    expect(provenance.save).toMatchObject({ by: 'ai', model: 'anthropic:claude-x' });
    expect(provenance.title).toMatchObject({ by: 'human' });
  });

  it('when a key is left out of an upload, then it has no provenance any more', async () => {
    const project = await readyProject();
    await upload(project, { ...GERMAN, '@@provenance': { ai: { model: MODEL, keys: ['save'] } } });
    const { save: _save, ...rest } = GERMAN;
    await upload(project, rest);
    const { content, provenance } = await translations(project);
    expect(Object.keys(content)).toStrictEqual(['title', 'cancel', 'nav']);
    expect(Object.keys(provenance)).toStrictEqual(['title', 'cancel', 'nav.home']);
  });

  it('when the source drops a key, then the download shows no provenance for it', async () => {
    const project = await readyProject();
    await upload(project, { ...GERMAN, '@@provenance': { ai: { model: MODEL, keys: ['save', 'cancel'] } } });
    const { cancel: _cancel, ...smaller } = SOURCE;
    await service.putSource(project.projectId, project.owner, smaller);
    await service.waitForSourceVersion(project.projectId, 'de', project.owner, 2);
    const { provenance } = await translations(project);
    expect(Object.keys(provenance)).toStrictEqual(['title', 'save', 'nav.home']);
    expect(provenance.save).toMatchObject({ by: 'ai', model: MODEL });
  });

  it('when a claimed upload and an unclaimed one of the same values run at once, then the keys stay ai in either order', async () => {
    // Whichever is stored second finds the first's values: the unclaimed one keeps the claim's
    // provenance only if it is worked out against what is stored when its row is locked.
    const project = await readyProject();
    for (let round = 0; round < 5; round++) {
      const text = { ...GERMAN, save: `Speichern ${round}` };
      const [claimed, unclaimed] = await Promise.all([
        upload(project, {
          ...text,
          '@@provenance': { ai: { model: MODEL, keys: ['title', 'save', 'cancel', 'nav.home'] } },
        }),
        upload(project, text),
      ]);
      expect([claimed.status, unclaimed.status]).toStrictEqual([200, 200]);
      const { provenance } = await translations(project);
      expect(provenance.save, `round ${round}`).toMatchObject({ by: 'ai', model: MODEL });
    }
  });

  it('when a locale has nothing uploaded, then its provenance is empty', async () => {
    const project = await readyProject();
    expect(await translations(project)).toStrictEqual({ content: {}, provenance: {}, translatedFrom: 0 });
  });

  it('when the upload is stored, then @@provenance is not content and provenance is stored beside it', async () => {
    const project = await readyProject();
    await upload(project, { ...GERMAN, '@@provenance': { ai: { model: MODEL, keys: ['save'] } } });
    const { content } = await translations(project);
    expect(content).not.toHaveProperty('@@provenance');
    const { rows } = await service.db.query<{ provenance: Buffer | null }>(
      `SELECT provenance FROM locales WHERE project_id = $1 AND locale = 'de'`,
      [project.projectId],
    );
    const stored = await decodeProvenance(rows[0]!.provenance ?? undefined);
    expect([...stored.keys()]).toStrictEqual(['title', 'save', 'cancel', 'nav.home']);
  });

  describe('when the claim is bad, then 400 VALIDATION_ERROR naming the problem and nothing stored', () => {
    it.each<[string, unknown, string]>([
      [
        'a key not in the upload',
        { ai: { model: MODEL, keys: ['save', 'nav.away', 'gone'] } },
        'body.@@provenance.ai.keys: "nav.away", "gone" are not keys of this upload; nothing was stored',
      ],
      [
        'a memory key not in the upload',
        { memory: { keys: ['nope'] } },
        'body.@@provenance.memory.keys: "nope" is not a key of this upload; nothing was stored',
      ],
      [
        'a key claimed by ai and memory',
        { ai: { model: MODEL, keys: ['save', 'title'] }, memory: { keys: ['save'] } },
        'body.@@provenance: "save" is claimed more than once',
      ],
      [
        'a key claimed twice by ai',
        { ai: { model: MODEL, keys: ['save', 'save'] } },
        'body.@@provenance: "save" is claimed more than once',
      ],
      [
        'an unknown member',
        { ai: { model: MODEL, keys: [] }, human: { keys: ['save'] } },
        'body.@@provenance: ',
      ],
      ['an unknown member of ai', { ai: { model: MODEL, keys: [], at: 5 } }, 'body.@@provenance.ai: '],
      [
        'an empty model',
        { ai: { model: '', keys: ['save'] } },
        'body.@@provenance.ai.model: must not be empty',
      ],
      [
        'a model of 201 characters',
        { ai: { model: 'x'.repeat(201), keys: ['save'] } },
        'body.@@provenance.ai.model: must be at most 200 characters',
      ],
      ['no model', { ai: { keys: ['save'] } }, 'body.@@provenance.ai.model: must be a string'],
      [
        'keys not an array',
        { ai: { model: MODEL, keys: 'save' } },
        'body.@@provenance.ai.keys: must be an array',
      ],
      [
        'a key not a string',
        { memory: { keys: ['save', 7] } },
        'body.@@provenance.memory.keys.1: must be a string',
      ],
      ['a claim that is not an object', 'ai', 'body.@@provenance: must be an object with ai and memory'],
    ])('%s', async (_what, claim, message) => {
      const project = await readyProject();
      await upload(project, { ...GERMAN, '@@provenance': { ai: { model: MODEL, keys: ['title'] } } });
      const before = await translations(project);

      const response = await upload(project, { ...GERMAN, save: 'Sichern', '@@provenance': claim });
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toContain(message);
      expect(await translations(project)).toStrictEqual(before);
    });

    it('an unknown member is named', async () => {
      const project = await readyProject();
      const response = await upload(project, { ...GERMAN, '@@provenance': { human: { keys: ['save'] } } });
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toBe(
        'body.@@provenance: unknown member "human": only ai and memory may be given',
      );
    });

    it('a model of 200 characters is accepted', async () => {
      const project = await readyProject();
      const model = 'x'.repeat(200);
      const response = await upload(project, {
        ...GERMAN,
        '@@provenance': { ai: { model, keys: ['save'] } },
      });
      expect(response.status).toBe(200);
      expect((await translations(project)).provenance.save).toMatchObject({ by: 'ai', model });
    });
  });
});

describe('translations stored before provenance was kept', () => {
  /** `de` uploaded, then its provenance taken away, as a release before provenance stored it. */
  async function storedWithoutProvenance(): Promise<Project> {
    const project = await readyProject();
    expect((await upload(project, GERMAN)).status).toBe(200);
    await service.db.query(`UPDATE locales SET provenance = NULL WHERE project_id = $1 AND locale = 'de'`, [
      project.projectId,
    ]);
    return project;
  }

  async function unknownWriters(project: Project): Promise<string[] | undefined> {
    const response = await service.call('GET', `/v1/projects/${project.projectId}/locales/de/translations`, {
      as: project.owner,
    });
    return translationsResponseSchema.parse(response.body).unknownWriters;
  }

  /** Each key of the browser with the writer of its `de` value. */
  async function browsedWriters(project: Project, query = ''): Promise<Record<string, unknown>> {
    const response = await service.call('GET', `/v1/projects/${project.projectId}/keys?locale=de${query}`, {
      as: project.owner,
    });
    expect(response.status).toBe(200);
    const keys = response.body.keys as Array<{ key: string; locales: { de: { provenance: unknown } } }>;
    return Object.fromEntries(keys.map((row) => [row.key, row.locales.de.provenance]));
  }

  it('when they are downloaded, then unknownWriters names every key, in order, and provenance none', async () => {
    const project = await storedWithoutProvenance();
    expect((await translations(project)).provenance).toStrictEqual({});
    expect(await unknownWriters(project)).toStrictEqual(['title', 'save', 'cancel', 'nav.home']);
  });

  it('when one is uploaded changed, then it is human and the others stay unknown', async () => {
    const project = await storedWithoutProvenance();
    expect((await upload(project, { ...GERMAN, save: 'Sichern' })).status).toBe(200);
    expect(Object.keys((await translations(project)).provenance)).toStrictEqual(['save']);
    expect(await unknownWriters(project)).toStrictEqual(['title', 'cancel', 'nav.home']);
  });

  it('when the browser shows them, then their writer is unknown, a key with no value has none, and ?by=unknown finds them', async () => {
    const project = await storedWithoutProvenance();
    expect((await upload(project, { ...GERMAN, cancel: undefined, save: 'Sichern' })).status).toBe(200);
    expect(await browsedWriters(project)).toStrictEqual({
      title: { by: 'unknown' },
      save: { by: 'human', at: expect.any(Number) },
      cancel: null,
      'nav.home': { by: 'unknown' },
    });
    expect(Object.keys(await browsedWriters(project, '&by=unknown'))).toStrictEqual(['title', 'nav.home']);
  });
});

describe('provenance helpers', () => {
  const ai: Provenance = { by: 'ai', model: MODEL, at: 1 };

  it('when a key is carried over, then it gets the provenance of the key it came from', () => {
    const carried = carryProvenance(
      new Map([['b', ai]]),
      'a',
      new Map([['old', { by: 'human', at: 2 }]]),
      'old',
    );
    expect([...carried]).toStrictEqual([
      ['b', ai],
      ['a', { by: 'human', at: 2 }],
    ]);
    expect([...carryProvenance(new Map(), 'a', new Map(), 'old')]).toStrictEqual([]);
  });

  it('when a stored key had no provenance and is uploaded unchanged, then it still has none', async () => {
    const next = await provenanceOfUpload({
      uploaded: new Map([['a', 'x']]),
      claimed: new Map(),
      before: new Map([['a', 'x']]),
      beforeProvenance: new Map(),
      at: 5,
    });
    expect([...next]).toStrictEqual([]);
  });

  it('when 50,000 keys of 5 locales are stored, then each stays compact and reads back the same', async () => {
    const map = new Map<string, Provenance>();
    for (let i = 0; i < 50_000; i++) {
      map.set(`screen${i % 500}.section${i % 37}.key${i}`, i % 3 === 0 ? { by: 'human', at: 7 } : ai);
    }
    const encoded = await encodeProvenance(map);
    // The key names dominate: well under 8 bytes a key compressed.
    expect(encoded.byteLength).toBeLessThan(400_000);
    expect([...(await decodeProvenance(encoded))]).toStrictEqual([...map]);
  });
});
