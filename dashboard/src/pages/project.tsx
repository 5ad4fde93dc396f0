/** One project: its tabs (locales, translations, history, glossary, settings, members, API tokens) under one heading. */
import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { labelKeys } from '../plural-keys.js';
import { Link } from '../router.js';
import type { Locale, LocaleDetail, Project, SourceFile } from '../types.js';
import {
  ErrorNote,
  Loaded,
  Loading,
  Page,
  formatTime,
  onSubmit,
  useAction,
  useResource,
  type Resource,
} from '../ui.js';
import { GlossaryTab } from './project-glossary.js';
import { HistoryTab, parseContent } from './project-history.js';
import { MembersTab, SettingsTab } from './project-settings.js';
import { TokensTab } from './project-tokens.js';
import { TranslationsTab } from './project-translations.js';

export const TABS = [
  { id: '', label: 'Locales' },
  { id: 'translations', label: 'Translations' },
  { id: 'history', label: 'Source history' },
  { id: 'glossary', label: 'Glossary' },
  { id: 'settings', label: 'Settings' },
  { id: 'members', label: 'Members' },
  { id: 'tokens', label: 'API tokens' },
] as const;
export type TabId = (typeof TABS)[number]['id'];

export function projectPath(projectId: string, tab: TabId = ''): string {
  return `/projects/${encodeURIComponent(projectId)}${tab ? `/${tab}` : ''}`;
}

export function ProjectPage(props: { projectId: string; tab: TabId }) {
  const { projectId, tab } = props;
  const project = useResource(
    () => api<Project>('GET', `/v1/projects/${encodeURIComponent(projectId)}`),
    [projectId],
  );

  if (project.data === undefined) {
    const notFound = project.error instanceof ApiError && project.error.status === 404;
    return (
      <Page title={notFound ? 'Project not found' : 'Project'}>
        {project.error ? <ErrorNote error={project.error} /> : <Loading what="the project" />}
        <p>
          <Link href="/">Back to your projects</Link>
        </p>
      </Page>
    );
  }

  const current = project.data;
  const label = TABS.find((entry) => entry.id === tab)?.label ?? 'Locales';
  return (
    <Page title={current.name}>
      <p class="muted">
        Source locale <strong>{current.sourceLocale}</strong> · your role: {current.role ?? '—'} · project id{' '}
        <code>{current.projectId}</code>
      </p>
      <nav class="tabs" aria-label="Project sections">
        {TABS.map((entry) => (
          <Link
            key={entry.id}
            href={projectPath(projectId, entry.id)}
            aria-current={entry.id === tab ? 'page' : undefined}
          >
            {entry.label}
          </Link>
        ))}
      </nav>
      <section aria-label={label} class="tab-panel">
        {tab === '' ? <LocalesTab project={current} /> : null}
        {tab === 'translations' ? <TranslationsTab project={current} /> : null}
        {tab === 'history' ? <HistoryTab project={current} /> : null}
        {tab === 'glossary' ? <GlossaryTab project={current} /> : null}
        {tab === 'settings' ? <SettingsTab project={current} onSaved={project.reload} /> : null}
        {tab === 'members' ? <MembersTab project={current} /> : null}
        {tab === 'tokens' ? <TokensTab project={current} /> : null}
      </section>
    </Page>
  );
}

/** The current source file, or null before the first push. */
type SourceState = SourceFile | null;

function SourceSummary(props: { source: Resource<SourceState> }) {
  return (
    <Loaded resource={props.source} what="the source">
      {(file) =>
        file === null ? (
          <p class="note">
            No source file yet. Upload one with the CLI: <code>tolk push</code>.
          </p>
        ) : (
          <p>
            Source <strong>version {file.version}</strong> · {file.keyCount} keys · updated{' '}
            {formatTime(file.updatedAt)}
            {file.pendingDiff.added.length +
              file.pendingDiff.modified.length +
              file.pendingDiff.deleted.length >
            0
              ? ` · waiting for translation: ${file.pendingDiff.added.length} added, ${file.pendingDiff.modified.length} modified, ${file.pendingDiff.deleted.length} deleted`
              : ' · nothing waiting for translation'}
          </p>
        )
      }
    </Loaded>
  );
}

function LocalesTab(props: { project: Project }) {
  const base = `/v1/projects/${encodeURIComponent(props.project.projectId)}`;
  const locales = useResource(() => api<{ locales: Locale[] }>('GET', `${base}/locales`), [base]);
  // Loaded once for the summary; its values also label the keys a locale lacks.
  const source = useResource(async (): Promise<SourceState> => {
    try {
      return await api<SourceFile>('GET', `${base}/source`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return null;
      throw err;
    }
  }, [base]);
  const sourceValues = useMemo(() => parseContent(source.data ?? null), [source.data]);
  const [confirming, setConfirming] = useState<string | null>(null);
  const removal = useAction();
  const remove = (locale: string) =>
    void removal.run(async () => {
      await api('DELETE', `${base}/locales/${encodeURIComponent(locale)}`);
      setConfirming(null);
      locales.reload();
    });
  const refresh = () => {
    locales.reload();
    source.reload();
  };

  return (
    <>
      <h2>Locales</h2>
      <SourceSummary source={source} />
      <AddLocale base={base} onAdded={locales.reload} />
      <ErrorNote error={removal.error} />
      <Loaded resource={locales} what="locales">
        {({ locales: list }) =>
          list.length === 0 ? (
            <p>No target locales yet. Add the languages you translate into above.</p>
          ) : (
            <div class="table-wrap">
              <table>
                <caption class="visually-hidden">Target locales and their translation status</caption>
                <thead>
                  <tr>
                    <th scope="col">Locale</th>
                    <th scope="col">Status</th>
                    <th scope="col">Progress</th>
                    <th scope="col">Missing</th>
                    <th scope="col">Outdated</th>
                    <th scope="col">Errors</th>
                    <th scope="col">Warnings</th>
                    <th scope="col">Synced / source</th>
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((locale) => (
                    <LocaleRows
                      key={locale.locale}
                      base={base}
                      locale={locale}
                      sourceValues={sourceValues}
                      i18nextPlurals={props.project.settings.i18nextPlurals}
                      removeActions={
                        confirming === locale.locale ? (
                          <>
                            <button
                              type="button"
                              class="danger"
                              disabled={removal.busy}
                              onClick={() => remove(locale.locale)}
                            >
                              Remove {locale.locale} and its translations
                            </button>
                            <button type="button" class="secondary" onClick={() => setConfirming(null)}>
                              Cancel
                            </button>
                          </>
                        ) : (
                          <button
                            type="button"
                            class="secondary"
                            aria-label={`Remove ${locale.locale}`}
                            onClick={() => setConfirming(locale.locale)}
                          >
                            Remove
                          </button>
                        )
                      }
                    />
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
      <p>
        <button type="button" class="secondary" onClick={refresh}>
          Refresh
        </button>
      </p>
    </>
  );
}

const COLUMNS = 9;

/** A locale's row and, below it, the row that opens to its missing and outdated keys. */
function LocaleRows(props: {
  base: string;
  locale: Locale;
  sourceValues: Map<string, string>;
  i18nextPlurals: boolean;
  removeActions: ComponentChildren;
}) {
  const { locale } = props;
  const [open, setOpen] = useState(false);
  const percent = locale.keyCount === 0 ? 100 : Math.floor((locale.translatedCount / locale.keyCount) * 100);
  const panelId = `locale-${locale.locale}-keys`;
  return (
    <>
      <tr data-locale={locale.locale}>
        <th scope="row">{locale.locale}</th>
        <td>
          <span class={`badge ${locale.status === 'behind' ? 'bad' : 'good'}`}>
            {locale.status === 'behind' ? 'behind' : 'up to date'}
          </span>
        </td>
        <td class="progress-cell">
          <progress
            max={100}
            value={percent}
            aria-label={`${locale.locale}: ${locale.translatedCount} of ${locale.keyCount} keys translated`}
          />{' '}
          {locale.translatedCount}/{locale.keyCount}
        </td>
        <td>{locale.missingCount}</td>
        <td>{locale.outdatedCount}</td>
        <td>{locale.errorCount}</td>
        <td>{locale.warningCount}</td>
        <td>
          v{locale.syncedVersion} / v{locale.sourceVersion}
        </td>
        <td>
          <span class="row-actions">
            <button
              type="button"
              class="secondary"
              aria-expanded={open}
              aria-controls={panelId}
              onClick={() => setOpen(!open)}
            >
              {open ? 'Hide keys' : 'Show keys'}
              <span class="visually-hidden"> of {locale.locale}</span>
            </button>
            {props.removeActions}
          </span>
        </td>
      </tr>
      <tr id={panelId} class="locale-keys" hidden={!open}>
        <td colSpan={COLUMNS}>
          {open ? (
            <LocaleKeys
              base={props.base}
              locale={locale}
              sourceValues={props.sourceValues}
              i18nextPlurals={props.i18nextPlurals}
            />
          ) : null}
        </td>
      </tr>
    </>
  );
}

/** How many keys of each list are shown: a locale far behind can lack thousands. */
const KEYS_SHOWN = 200;

/** The keys a locale lacks or has outdated: its own keys, so a plural group shows the locale's forms. */
function LocaleKeys(props: {
  base: string;
  locale: Locale;
  sourceValues: Map<string, string>;
  i18nextPlurals: boolean;
}) {
  const { base, locale } = props;
  // A new Locale object (the table reloaded) asks again.
  const detail = useResource(
    () => api<LocaleDetail>('GET', `${base}/locales/${encodeURIComponent(locale.locale)}`),
    [base, locale],
  );
  return (
    <div class="key-lists">
      <Loaded resource={detail} what={`the keys of ${locale.locale}`}>
        {({ missing, outdated }) =>
          missing.length + outdated.length === 0 ? (
            <p>Every key of {locale.locale} is translated and up to date.</p>
          ) : (
            <>
              <KeyList
                kind="missing"
                title={`Missing in ${locale.locale}`}
                keys={missing}
                locale={locale.locale}
                sourceValues={props.sourceValues}
                i18nextPlurals={props.i18nextPlurals}
              />
              <KeyList
                kind="outdated"
                title={`Outdated in ${locale.locale} (the source changed since)`}
                keys={outdated}
                locale={locale.locale}
                sourceValues={props.sourceValues}
                i18nextPlurals={props.i18nextPlurals}
              />
            </>
          )
        }
      </Loaded>
    </div>
  );
}

/**
 * A list of keys, each with the source text it is translated from. A plural form (`item_few`)
 * also shows its category and a number that selects it, and the source form it comes from when
 * the source lacks that category (English has no `few`: its `other`).
 */
function KeyList(props: {
  kind: 'missing' | 'outdated';
  title: string;
  keys: string[];
  locale: string;
  sourceValues: Map<string, string>;
  i18nextPlurals: boolean;
}) {
  const { keys, locale, sourceValues, i18nextPlurals } = props;
  const shown = useMemo(
    () => labelKeys(keys.slice(0, KEYS_SHOWN), sourceValues, locale, { i18nextPlurals }),
    [keys, sourceValues, locale, i18nextPlurals],
  );
  if (keys.length === 0) return null;
  const hidden = keys.length - KEYS_SHOWN;
  return (
    <section class={`key-list ${props.kind}`}>
      <h3>
        {props.title}: {keys.length}
      </h3>
      <ul>
        {shown.map(({ key, sourceValue, plural }) => (
          <li key={key}>
            <code>{key}</code>
            {plural ? (
              <span class="plural-form">
                <span class="visually-hidden">plural form </span>
                {plural.category}
                {plural.example === undefined ? null : `, e.g. ${plural.example}`}
              </span>
            ) : null}
            {sourceValue === undefined ? null : <span class="value">{sourceValue}</span>}
            {plural && plural.sourceCategory !== plural.category && sourceValue !== undefined ? (
              <span class="source-form">(the source's {plural.sourceCategory} form)</span>
            ) : null}
          </li>
        ))}
      </ul>
      {hidden > 0 ? (
        <p class="muted">
          …and {hidden} more, not shown. <code>tolk translate</code> translates them all.
        </p>
      ) : null}
    </section>
  );
}

function AddLocale(props: { base: string; onAdded: () => void }) {
  const [locale, setLocale] = useState('');
  const action = useAction();
  const submit = () =>
    void action.run(async () => {
      await api('POST', `${props.base}/locales`, { locale });
      setLocale('');
      props.onAdded();
    });
  return (
    <form class="inline" onSubmit={onSubmit(submit)}>
      <label>
        Add a target locale
        <input
          type="text"
          required
          size={14}
          placeholder="de, pt-BR, zh-Hant"
          title="A BCP 47 locale code such as de, pt-BR, zh-Hant, es-419 or sr-Latn"
          autocapitalize="off"
          spellcheck={false}
          value={locale}
          onInput={(e) => setLocale(e.currentTarget.value)}
        />
      </label>
      <button type="submit" disabled={action.busy}>
        Add locale
      </button>
      <ErrorNote error={action.error} />
    </form>
  );
}
