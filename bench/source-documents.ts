/**
 * Source locale files for the source benchmark: nested i18n content as applications keep it —
 * feature sections, UI subsections, camelCase keys, English text from one-word labels to help
 * paragraphs, `{name}` and ICU plural placeholders, ARB `@key` annotations and `@@locale`. Seeded,
 * so every run uploads the same bytes. Values can be edited in place between uploads.
 */

/** Small seeded generator (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// prettier-ignore
const SECTIONS = [
  'common', 'auth', 'onboarding', 'dashboard', 'projects', 'settings', 'billing', 'team',
  'notifications', 'reports', 'search', 'editor', 'integrations', 'profile', 'admin', 'help',
  'errors', 'invoices', 'calendar', 'messages', 'files', 'analytics', 'checkout', 'orders',
  'products', 'inventory', 'shipping', 'support', 'security', 'api', 'marketplace', 'workflow',
  'comments', 'activity', 'import', 'export', 'permissions', 'audit', 'subscriptions', 'tasks',
  'labels', 'templates', 'webhooks', 'domains', 'emails', 'reviews', 'campaigns', 'contacts',
  'deals', 'forms',
];

// prettier-ignore
const SUBSECTIONS = [
  'header', 'form', 'errors', 'buttons', 'table', 'filters', 'dialogs', 'emptyState', 'toasts',
  'tooltips', 'validation', 'menu', 'tabs', 'wizard', 'summary', 'details', 'list', 'search',
  'footer', 'help', 'banner', 'confirmations', 'sidebar', 'pagination', 'shortcuts', 'status',
  'actions', 'permissions', 'history', 'settings',
];

// prettier-ignore
const NOUNS = [
  'email', 'password', 'name', 'title', 'description', 'date', 'amount', 'status', 'owner',
  'member', 'project', 'file', 'invoice', 'plan', 'card', 'address', 'phone', 'company', 'role',
  'language', 'timezone', 'currency', 'tag', 'comment', 'link', 'report', 'task', 'period',
  'limit', 'quota', 'token', 'domain', 'webhook', 'template', 'channel', 'price', 'discount',
  'tax', 'country', 'city',
];

// prettier-ignore
const ROLES = [
  'Label', 'Placeholder', 'Hint', 'Error', 'Required', 'Tooltip', 'Title', 'Description',
  'Confirm', 'Success', 'Empty', 'Action',
];

// prettier-ignore
const VERBS = [
  'save', 'delete', 'archive', 'update', 'create', 'share', 'export', 'import', 'invite',
  'remove', 'publish', 'restore', 'download', 'upload', 'review', 'approve', 'assign', 'cancel',
  'rename', 'duplicate',
];

// prettier-ignore
const PAST = [
  'saved', 'deleted', 'archived', 'updated', 'created', 'shared', 'exported', 'imported',
  'invited', 'removed', 'published', 'restored', 'downloaded', 'uploaded', 'reviewed', 'approved',
  'assigned', 'cancelled', 'renamed', 'duplicated',
];

// prettier-ignore
const ADJECTIVES = [
  'new', 'current', 'previous', 'selected', 'default', 'shared', 'private', 'active', 'pending',
  'expired', 'recent', 'primary', 'optional', 'required', 'archived', 'available',
];

const FILLER = [
  'This may take a few minutes depending on the size of your workspace.',
  'Changes are applied to every member of the team right away.',
  'You can change this later in the settings of the project.',
  'If the problem persists, contact your administrator or our support team.',
  'Only owners and administrators can see this information.',
  'We will send you an email as soon as it is ready.',
  'Nothing is lost: you can undo this action for 30 days.',
  'Learn more about how we keep your data safe in our documentation.',
  'Your progress is saved automatically while you work.',
  'Make sure you have a stable internet connection before you continue.',
];

const EXAMPLES = {
  name: 'Ada',
  count: '3',
  date: '12 May 2025',
  amount: '€12.50',
  email: 'ada@example.com',
  project: 'Website',
};

type Placeholder = keyof typeof EXAMPLES;

const PLACEHOLDERS = Object.keys(EXAMPLES) as Placeholder[];

export type SourceStyle = 'realistic' | 'compact';

/** A generated source file: `keyCount` leaves in document order, editable, serialisable. */
export type GeneratedSource = {
  keyCount: number;
  value(index: number): string;
  setValue(index: number, value: string): void;
  /** Gives leaf `index` another name in its place, its annotation following it. */
  rename(index: number, name: string): void;
  name(index: number): string;
  /** The file as it would be uploaded: pretty-printed when realistic, one line when compact. */
  toBuffer(): Buffer;
};

/**
 * `realistic`: values from short labels to two- or three-sentence help texts, about 5 % of keys
 * annotated, indented two spaces as such files are committed. `compact`: short values, 1 % of
 * keys annotated, no indentation — for the largest source the limits allow.
 */
export function generateSource(options: { keys: number; seed: number; style: SourceStyle }): GeneratedSource {
  const random = seededRandom(options.seed);
  const int = (below: number) => Math.floor(random() * below);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const compact = options.style === 'compact';

  const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
  const noun = () => pick(NOUNS);

  /** A value and the placeholders it uses. */
  function text(): { value: string; uses: Placeholder[] } {
    const uses: Placeholder[] = [];
    const withPlaceholder = random() < 0.15;
    const slot = (name: Placeholder) => {
      if (!uses.includes(name)) uses.push(name);
      if (name !== 'count' || random() < 0.5) return `{${name}}`;
      const item = noun();
      return `{count, plural, one {# ${item}} other {# ${item}s}}`;
    };
    const roll = random();
    if (compact || roll < 0.4) {
      // Labels and buttons: one or two words.
      const words = [pick([...VERBS, ...ADJECTIVES]), noun()].slice(0, 1 + int(2));
      const label = capitalised(words.join(' '));
      return { value: withPlaceholder ? `${label} (${slot('count')})` : label, uses };
    }
    if (roll < 0.75) {
      const forms = [
        () => `${capitalised(noun())} ${pick(PAST)}`,
        () => `Enter the ${pick(ADJECTIVES)} ${noun()}`,
        () => `${capitalised(pick(VERBS))} this ${noun()}?`,
        () => `No ${noun()}s yet`,
        () => `${capitalised(pick(VERBS))} ${pick(ADJECTIVES)} ${noun()}s`,
      ];
      const phrase = pick(forms)();
      return { value: withPlaceholder ? `${phrase} for ${slot(pick(PLACEHOLDERS))}` : phrase, uses };
    }
    if (roll < 0.96) {
      const forms = [
        () => `The ${noun()} could not be ${pick(PAST)}. Please try again.`,
        () => `${capitalised(pick(PAST))} by ${slot('name')} on ${slot('date')}.`,
        () => `You have ${slot('count')} to review.`,
        () => `Hello ${slot('name')}, your ${noun()} is ready.`,
        () => `Once ${pick(PAST)}, the ${noun()} cannot be changed.`,
        () => `Are you sure you want to ${pick(VERBS)} this ${noun()}?`,
      ];
      return { value: pick(forms)(), uses };
    }
    // Help texts and empty states: a few sentences.
    const help = `${capitalised(pick(VERBS))} your ${noun()}s in one place. ${pick(FILLER)}`;
    return { value: withPlaceholder ? `${help} Signed in as ${slot('email')}.` : help, uses };
  }

  function annotation(uses: Placeholder[]): Record<string, unknown> {
    const result: Record<string, unknown> = {
      description: `Shown in the ${pick(SUBSECTIONS)} of the ${pick(SECTIONS)} page`,
    };
    if (uses.length > 0) {
      result['placeholders'] = Object.fromEntries(
        uses.map((name) => [name, { type: name === 'count' ? 'int' : 'String', example: EXAMPLES[name] }]),
      );
    }
    return result;
  }

  const root: Record<string, unknown> = { '@@locale': 'en' };
  const leaves: { container: Record<string, unknown>; name: string }[] = [];
  const keyNames = NOUNS.flatMap((n) => ROLES.map((r) => `${n}${r}`));
  const annotated = compact ? 0.01 : 0.03;

  for (let section = 0; leaves.length < options.keys; section++) {
    const round = Math.floor(section / SECTIONS.length);
    const sectionName = `${SECTIONS[section % SECTIONS.length]}${round > 0 ? round + 1 : ''}`;
    const sectionObject: Record<string, unknown> = {};
    root[sectionName] = sectionObject;
    const subsections = 10 + int(SUBSECTIONS.length - 10);
    for (let sub = 0; sub < subsections && leaves.length < options.keys; sub++) {
      const subsection: Record<string, unknown> = {};
      sectionObject[SUBSECTIONS[sub]!] = subsection;
      // Distinct names per subsection: a random window of the noun × role names.
      const size = 20 + int(80);
      const start = int(keyNames.length - size);
      for (let k = 0; k < size && leaves.length < options.keys; k++) {
        const name = keyNames[start + k]!;
        const { value, uses } = text();
        subsection[name] = value;
        leaves.push({ container: subsection, name });
        if (random() < (uses.length > 0 ? annotated * 4 : annotated))
          subsection[`@${name}`] = annotation(uses);
      }
    }
  }

  return {
    keyCount: leaves.length,
    value: (index) => leaves[index]!.container[leaves[index]!.name] as string,
    setValue(index, value) {
      const leaf = leaves[index]!;
      leaf.container[leaf.name] = value;
    },
    name: (index) => leaves[index]!.name,
    rename(index, name) {
      const leaf = leaves[index]!;
      const entries = Object.entries(leaf.container).map(([member, value]): [string, unknown] => {
        if (member === leaf.name) return [name, value];
        return member === `@${leaf.name}` ? [`@${name}`, value] : [member, value];
      });
      for (const member of Object.keys(leaf.container)) delete leaf.container[member];
      Object.assign(leaf.container, Object.fromEntries(entries));
      leaf.name = name;
    },
    toBuffer: () => Buffer.from(JSON.stringify(root, null, compact ? undefined : 2), 'utf8'),
  };
}

/**
 * Edits every `step`-th value starting at `offset` (1 % of the keys with step 100), as a
 * rewording would: each edit is distinct from every earlier value of the key. Returns how many.
 */
export function editValues(source: GeneratedSource, offset: number, step: number, revision: number): number {
  let edited = 0;
  for (let i = offset % step; i < source.keyCount; i += step) {
    const value = source.value(i).replace(/ \(rev \d+\)$/, '');
    source.setValue(i, `${value} (rev ${revision})`);
    edited++;
  }
  return edited;
}

/**
 * Moves every `step`-th key starting at `offset` to a new name (1 % of the keys with step 100),
 * as a refactoring would: `cart.pay` becoming `cart.payV7`. With `reworded`, each moved key also
 * gets a new text, so nothing can be told a rename: an upload of the same size and churn. Returns
 * how many.
 */
export function renameKeys(
  source: GeneratedSource,
  offset: number,
  step: number,
  revision: number,
  reworded: boolean,
): number {
  let renamed = 0;
  for (let i = offset % step; i < source.keyCount; i += step) {
    source.rename(i, `${source.name(i).replace(/V\d+$/, '')}V${revision}`);
    if (reworded) source.setValue(i, `${source.value(i).replace(/ \(rev \d+\)$/, '')} (rev ${revision})`);
    renamed++;
  }
  return renamed;
}

/**
 * The translation of a source document into `locale`: each text prefixed, annotations left out;
 * a text `keep` says no to (asked in document order) left out too.
 */
export function translationOf(document: unknown, locale: string, keep: () => boolean = () => true): unknown {
  if (typeof document === 'string') return keep() ? `[${locale}] ${document}` : undefined;
  if (typeof document !== 'object' || document === null) return document;
  return Object.fromEntries(
    Object.entries(document)
      .filter(([key]) => !key.startsWith('@'))
      .map(([key, value]) => [key, translationOf(value, locale, keep)])
      .filter(([, value]) => value !== undefined),
  );
}
