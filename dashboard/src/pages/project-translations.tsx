/**
 * The translation browser (read-only): every key with its source text and each target locale's
 * value, state, provenance and findings (DESIGN §15), filtered by locale, state, author, findings and
 * text, a page at a time (the server pages, so a project of 50,000 keys loads one page, not all of them).
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import type { Project } from '../types.js';
import { Loaded, useResource } from '../ui.js';

type KeyState = 'missing' | 'outdated' | 'translated';
type Author = 'ai' | 'human' | 'memory' | 'unknown';
/** `unknown`: stored before Tolk kept who wrote each translation. */
type Provenance = { by: Author; model?: string; at?: number };
type Severity = 'error' | 'warning';
type Finding = { kind: string; severity: Severity; message: string };

type KeyPage = {
  sourceVersion: number;
  locales: string[];
  total: number;
  offset: number;
  limit: number;
  keys: {
    key: string;
    source: string | null;
    description: string | null;
    locales: Record<
      string,
      { value: string | null; status: KeyState; provenance: Provenance | null; findings: Finding[] }
    >;
  }[];
};

const PAGE_SIZE = 50;
/** How long typing may pause before the search is sent. */
const SEARCH_DELAY_MS = 300;

const AUTHOR_LABELS: Record<Author, string> = {
  ai: 'AI',
  human: 'person',
  memory: 'memory',
  unknown: 'writer not known',
};

/** Who wrote a value, as a cell says it: `AI (openai:gpt-4o-mini)`, `person`, `memory`. */
function authorOf(provenance: Provenance): string {
  const label = AUTHOR_LABELS[provenance.by];
  return provenance.model ? `${label} (${provenance.model})` : label;
}

const STATE_LABELS: Record<KeyState, string> = {
  missing: 'missing',
  outdated: 'outdated',
  translated: 'translated',
};

export function TranslationsTab(props: { project: Project }) {
  const base = `/v1/projects/${encodeURIComponent(props.project.projectId)}`;
  const [locale, setLocale] = useState('');
  const [status, setStatus] = useState<'' | KeyState>('');
  const [by, setBy] = useState<'' | Author>('');
  const [findings, setFindings] = useState<'' | Severity | 'any'>('');
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [offset, setOffset] = useState(0);

  // Only a changed search goes back to the first page: a page turned while the search box holds
  // what was already searched (on the tab's first render, say) stays where it was turned to.
  useEffect(() => {
    const next = typed.trim();
    if (next === q) return;
    const timer = setTimeout(() => {
      setQ(next);
      setOffset(0);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, q]);

  const query = new URLSearchParams();
  if (locale) query.set('locale', locale);
  if (status) query.set('status', status);
  if (by) query.set('by', by);
  if (findings) query.set('findings', findings);
  if (q) query.set('q', q);
  query.set('offset', String(offset));
  query.set('limit', String(PAGE_SIZE));
  const path = `${base}/keys?${query.toString()}`;
  const page = useResource(() => api<KeyPage>('GET', path), [path]);
  // The locales of the project, for the filter: those of the unfiltered page once it is known.
  const [allLocales, setAllLocales] = useState<string[]>([]);
  useEffect(() => {
    if (!locale && page.data) setAllLocales(page.data.locales);
  }, [locale, page.data]);

  return (
    <>
      <h2>Translations</h2>
      <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <label>
          Locale{' '}
          <select
            value={locale}
            onChange={(event) => {
              setLocale((event.target as HTMLSelectElement).value);
              setOffset(0);
            }}
          >
            <option value="">all</option>
            {allLocales.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
        </label>{' '}
        <label>
          State{' '}
          <select
            value={status}
            onChange={(event) => {
              setStatus((event.target as HTMLSelectElement).value as '' | KeyState);
              setOffset(0);
            }}
          >
            <option value="">any</option>
            <option value="missing">missing</option>
            <option value="outdated">outdated</option>
            <option value="translated">translated</option>
          </select>
        </label>{' '}
        <label>
          Written by{' '}
          <select
            value={by}
            onChange={(event) => {
              setBy((event.target as HTMLSelectElement).value as '' | Author);
              setOffset(0);
            }}
          >
            <option value="">anyone</option>
            <option value="human">a person</option>
            <option value="ai">AI</option>
            <option value="memory">memory</option>
            <option value="unknown">not known (stored before Tolk kept it)</option>
          </select>
        </label>{' '}
        <label>
          Findings{' '}
          <select
            value={findings}
            onChange={(event) => {
              setFindings((event.target as HTMLSelectElement).value as '' | Severity | 'any');
              setOffset(0);
            }}
          >
            <option value="">any or none</option>
            <option value="error">errors</option>
            <option value="warning">warnings</option>
            <option value="any">errors or warnings</option>
          </select>
        </label>{' '}
        <label>
          Search{' '}
          <input
            type="search"
            value={typed}
            placeholder="key, source or translation"
            onInput={(event) => setTyped((event.target as HTMLInputElement).value)}
          />
        </label>
      </form>
      <Loaded resource={page} what="the keys">
        {(data) => <KeyTable page={data} onPage={setOffset} />}
      </Loaded>
    </>
  );
}

function KeyTable(props: { page: KeyPage; onPage: (offset: number) => void }) {
  const { page, onPage } = props;
  if (page.sourceVersion === 0) {
    return (
      <p>
        No source yet. Upload one with <code>tolk push</code>.
      </p>
    );
  }
  const first = page.total === 0 ? 0 : page.offset + 1;
  const last = page.offset + page.keys.length;
  return (
    <>
      <p class="muted" aria-live="polite">
        {page.total === 0
          ? 'No key matches.'
          : `Keys ${first.toLocaleString('en')}–${last.toLocaleString('en')} of ${page.total.toLocaleString('en')}`}{' '}
        · source version {page.sourceVersion}
      </p>
      {page.keys.length > 0 ? (
        <div class="table-wrap">
          <table class="translations">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Source</th>
                {page.locales.map((code) => (
                  <th scope="col" key={code}>
                    {code}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {page.keys.map((row) => (
                <tr key={row.key}>
                  <th scope="row">
                    <code>{row.key}</code>
                    {row.description ? <div class="muted">{row.description}</div> : null}
                  </th>
                  <td>{row.source ?? <span class="muted">—</span>}</td>
                  {page.locales.map((code) => {
                    const cell = row.locales[code];
                    if (!cell) return <td key={code} class="muted" aria-label="not a key of this locale" />;
                    return (
                      <td key={code}>
                        {cell.value !== null ? <div>{cell.value}</div> : null}
                        <span class={`state ${cell.status}`}>{STATE_LABELS[cell.status]}</span>
                        {cell.provenance ? (
                          <span class="muted author"> · {authorOf(cell.provenance)}</span>
                        ) : null}
                        {cell.findings.length > 0 ? (
                          <ul class="findings">
                            {cell.findings.map((finding, at) => (
                              <li key={at} class={`finding ${finding.severity}`}>
                                <strong>{finding.severity}</strong> ({finding.kind}): {finding.message}
                              </li>
                            ))}
                          </ul>
                        ) : null}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <nav class="pager" aria-label="Pages">
        <button
          type="button"
          class="secondary"
          disabled={page.offset === 0}
          onClick={() => onPage(Math.max(0, page.offset - page.limit))}
        >
          Previous
        </button>{' '}
        <button
          type="button"
          class="secondary"
          disabled={last >= page.total}
          onClick={() => onPage(page.offset + page.limit)}
        >
          Next
        </button>
      </nav>
    </>
  );
}
