/**
 * One member uploading the worst values it can, over and over, for bench:big-values and
 * test/hostile/big-values.test.ts: into three projects of its own, each with the target locale
 * `de`, in turn a source of 200,000 keys filling the body limit and its German translations, a
 * source of values at the length and brace limits filling the body limit and their translations,
 * three values of the worst shapes and theirs; each source alternating with its translation so that
 * every upload is a change, and every accepted upload sets off the consumer's work. Then what the
 * limits refuse: an 8 MB plural value and 1.5 million `{name}` in one value, as a source and as a
 * translation. Loopback only.
 */
import {
  hugeValuesDocuments,
  manyKeysDocuments,
  worstValues,
  type LocaleDocuments,
} from './big-value-documents.js';

const MB = 1024 * 1024;

export type BigValueUploads = {
  /** Each upload's `PUT <what>: <status>` → how many times it was answered so. */
  outcomes: Map<string, number>;
  /** Rounds of every upload completed. */
  rounds(): number;
  /** Stops after the upload under way; resolves once it is answered. */
  stop(): Promise<void>;
};

/** The documents, built once (they take a second or two): before anything is measured. */
export function bigValueDocuments() {
  const worst = worstValues();
  return {
    many: manyKeysDocuments(),
    huge: hugeValuesDocuments(),
    worst: {
      source: Buffer.from(JSON.stringify(worst.source)),
      german: Buffer.from(JSON.stringify(worst.german)),
    } satisfies LocaleDocuments,
    refused: {
      plural: Buffer.from(
        JSON.stringify({
          plural: `{count, plural, one {# ${'x'.repeat(4 * MB)}} other {# ${'y'.repeat(4 * MB)}}}`,
        }),
      ),
      placeholders: Buffer.from(JSON.stringify({ placeholders: '{name}'.repeat(1_500_000) })),
    },
  };
}

export type BigValueDocuments = ReturnType<typeof bigValueDocuments>;

export type UploadKind = 'many' | 'huge' | 'worst' | 'refused';

/**
 * Starts the uploads of `headers`' user into `projects` (ids of projects it owns, each with `de`
 * as a target locale) at `baseUrl`, until `stop`.
 */
export function startBigValueUploads(options: {
  baseUrl: string;
  headers: Record<string, string>;
  projects: { many: string; huge: string; worst: string };
  documents: BigValueDocuments;
  /**
   * Which uploads a round holds (all by default): `many` the 200,000 keys, `huge` the values at
   * the limits filling the body, `worst` the three values of the worst shapes, `refused` what the
   * limits refuse.
   */
  kinds?: readonly UploadKind[];
}): BigValueUploads {
  const base = new URL(options.baseUrl);
  if (base.hostname !== '127.0.0.1' && base.hostname !== 'localhost') {
    throw new Error('big-value uploads are sent to loopback only');
  }
  const outcomes = new Map<string, number>();
  const kinds = new Set<UploadKind>(options.kinds ?? ['many', 'huge', 'worst', 'refused']);
  let stopped = false;
  let rounds = 0;

  async function put(
    what: string,
    path: string,
    body: Buffer,
  ): Promise<{ status: number; version?: number }> {
    const response = await fetch(`${options.baseUrl}${path}`, {
      method: 'PUT',
      headers: { ...options.headers, 'content-type': 'application/json' },
      body,
    });
    // Only the version is read: an answer naming 200,000 modified keys is not parsed here, where
    // (in the hostile test) the services share this process.
    const version = /^\{"version":(\d+)/.exec(await response.text())?.[1];
    const outcome = `PUT ${what}: ${response.status}`;
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    return { status: response.status, version: version === undefined ? undefined : Number(version) };
  }

  /** The source, then its translations made from the version it created. */
  async function sourceAndTranslations(what: string, projectId: string, source: Buffer, german: Buffer) {
    const uploaded = await put(`${what} source`, `/v1/projects/${projectId}/source`, source);
    if (stopped || uploaded.version === undefined) return;
    await put(
      `${what} translations`,
      `/v1/projects/${projectId}/locales/de/translations?sourceVersion=${uploaded.version}`,
      german,
    );
  }

  async function loop(): Promise<void> {
    const { many, huge, worst, refused } = options.documents;
    const { projects } = options;
    for (let round = 0; !stopped; round++) {
      // The source and the translation change places each round: every upload is a change.
      const flip = (documents: LocaleDocuments): [Buffer, Buffer] =>
        round % 2 === 0 ? [documents.source, documents.german] : [documents.german, documents.source];
      const steps: Array<[UploadKind, () => Promise<unknown>]> = [
        ['many', () => sourceAndTranslations('200,000 keys', projects.many, ...flip(many))],
        ['huge', () => sourceAndTranslations('values at the limits', projects.huge, ...flip(huge))],
        ['worst', () => sourceAndTranslations('worst shapes', projects.worst, ...flip(worst))],
        ['refused', () => put('8 MB plural source', `/v1/projects/${projects.worst}/source`, refused.plural)],
        [
          'refused',
          () =>
            put(
              '8 MB plural translations',
              `/v1/projects/${projects.worst}/locales/de/translations?sourceVersion=1`,
              refused.plural,
            ),
        ],
        [
          'refused',
          () =>
            put(
              '1.5 million {name} translations',
              `/v1/projects/${projects.worst}/locales/de/translations?sourceVersion=1`,
              refused.placeholders,
            ),
        ],
      ];
      for (const [kind, step] of steps) {
        if (!kinds.has(kind)) continue;
        if (stopped) return;
        await step();
      }
      rounds++;
    }
  }

  const running = loop();
  return {
    outcomes,
    rounds: () => rounds,
    async stop() {
      stopped = true;
      await running;
    },
  };
}
