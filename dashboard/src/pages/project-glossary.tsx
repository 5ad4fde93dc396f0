/**
 * The project's glossary: list (a page at a time, "Show more" for the next), add, edit and delete
 * entries; the server's messages shown as they are.
 */
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import type { GlossaryEntry, GlossaryPage, Locale, Project } from '../types.js';
import { ErrorNote, Loaded, StatusNote, onSubmit, useAction, useResource } from '../ui.js';

type Draft = {
  term: string;
  caseSensitive: boolean;
  keepAsIs: boolean;
  note: string;
  translations: Record<string, string>;
};

const EMPTY: Draft = { term: '', caseSensitive: false, keepAsIs: false, note: '', translations: {} };

/** Entries a page brings; after a change, the list is read again as far as it was shown (at most a page of 1,000). */
const PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1000;

function draftOf(entry: GlossaryEntry): Draft {
  const { term, caseSensitive, keepAsIs, note, translations } = entry;
  return { term, caseSensitive, keepAsIs, note: note ?? '', translations: { ...translations } };
}

export function GlossaryTab(props: { project: Project }) {
  const projectPath = `/v1/projects/${encodeURIComponent(props.project.projectId)}`;
  const base = `${projectPath}/glossary`;
  const [firstPageSize, setFirstPageSize] = useState(PAGE_SIZE);
  const glossary = useResource(
    () => api<GlossaryPage>('GET', `${base}?limit=${firstPageSize}`),
    [base, firstPageSize],
  );
  // Pages read after the first with "Show more"; read again from the first after a change.
  const [more, setMore] = useState<GlossaryPage[]>([]);
  const moreAction = useAction();
  const lastPage = more.at(-1) ?? glossary.data;
  const entries = [...(glossary.data?.entries ?? []), ...more.flatMap((page) => page.entries)];
  const locales = useResource(
    () => api<{ locales: Locale[] }>('GET', `${projectPath}/locales`),
    [projectPath],
  );
  const [editing, setEditing] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const removal = useAction();
  // The project's target locales, then any other locale a shown entry has a rendering for.
  const columns = [
    ...new Set([
      ...(locales.data?.locales.map((locale) => locale.locale) ?? []),
      ...entries.flatMap((entry) => Object.keys(entry.translations)),
    ]),
  ];
  const saved = (message: string) => {
    setEditing(null);
    setDone(message);
    setMore([]);
    setFirstPageSize(Math.min(MAX_PAGE_SIZE, Math.max(PAGE_SIZE, entries.length)));
    glossary.reload();
  };
  const showMore = (cursor: string) =>
    void moreAction.run(async () => {
      const page = await api<GlossaryPage>(
        'GET',
        `${base}?limit=${PAGE_SIZE}&cursor=${encodeURIComponent(cursor)}`,
      );
      setMore((pages) => [...pages, page]);
    });
  const remove = (entry: GlossaryEntry) =>
    void removal.run(async () => {
      await api('DELETE', `${base}/${encodeURIComponent(entry.entryId)}`);
      saved(`“${entry.term}” deleted.`);
    });

  return (
    <>
      <h2>Glossary</h2>
      <p class="muted">
        Terms and how to write them in each locale, or kept as is (brand names). <code>tolk translate</code>{' '}
        tells the model the terms a batch uses and asks again when a translation misses one. Import and export
        a CSV with <code>tolk glossary import</code> and <code>tolk glossary export</code>.
      </p>
      {editing === '' ? (
        <EntryForm
          title="New entry"
          locales={columns}
          initial={EMPTY}
          onSave={(draft) => api('POST', base, draft).then(() => saved(`“${draft.term.trim()}” added.`))}
          onCancel={() => setEditing(null)}
        />
      ) : (
        <p>
          <button type="button" onClick={() => (setEditing(''), setDone(null))}>
            Add an entry
          </button>
        </p>
      )}
      {done ? <StatusNote>{done}</StatusNote> : null}
      <ErrorNote error={removal.error} />
      <Loaded resource={glossary} what="the glossary">
        {() =>
          entries.length === 0 ? (
            <p>No glossary entries yet.</p>
          ) : (
            <div class="table-wrap">
              <table>
                <caption class="visually-hidden">Glossary entries of this project</caption>
                <thead>
                  <tr>
                    <th scope="col">Term</th>
                    {columns.map((locale) => (
                      <th scope="col" key={locale}>
                        {locale}
                      </th>
                    ))}
                    <th scope="col">Note</th>
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {entries.map((entry) =>
                    editing === entry.entryId ? (
                      <tr key={entry.entryId}>
                        <td colSpan={columns.length + 3}>
                          <EntryForm
                            title={`Edit “${entry.term}”`}
                            locales={columns}
                            initial={draftOf(entry)}
                            onSave={(draft) =>
                              api('PATCH', `${base}/${encodeURIComponent(entry.entryId)}`, draft).then(() =>
                                saved(`“${draft.term.trim()}” saved.`),
                              )
                            }
                            onCancel={() => setEditing(null)}
                          />
                        </td>
                      </tr>
                    ) : (
                      <tr key={entry.entryId}>
                        <th scope="row">
                          {entry.term}
                          {entry.caseSensitive ? <span class="muted small"> (case sensitive)</span> : null}
                        </th>
                        {columns.map((locale) => (
                          <td key={locale}>
                            {entry.keepAsIs ? (
                              <span class="muted">as is</span>
                            ) : (
                              (entry.translations[locale] ?? '')
                            )}
                          </td>
                        ))}
                        <td>{entry.note ?? ''}</td>
                        <td>
                          <span class="row-actions">
                            <button
                              type="button"
                              class="secondary"
                              onClick={() => (setEditing(entry.entryId), setDone(null))}
                            >
                              Edit<span class="visually-hidden"> {entry.term}</span>
                            </button>
                            <button
                              type="button"
                              class="danger"
                              disabled={removal.busy}
                              onClick={() => remove(entry)}
                            >
                              Delete<span class="visually-hidden"> {entry.term}</span>
                            </button>
                          </span>
                        </td>
                      </tr>
                    ),
                  )}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
      <ErrorNote error={moreAction.error} />
      {lastPage?.nextCursor ? (
        <p class="inline">
          <span class="muted">
            Showing {entries.length.toLocaleString('en')} of {lastPage.total.toLocaleString('en')} entries.
          </span>
          <button
            type="button"
            class="secondary"
            disabled={moreAction.busy}
            onClick={() => showMore(lastPage.nextCursor!)}
          >
            Show more entries
          </button>
        </p>
      ) : null}
    </>
  );
}

/** Adding or editing one entry; a refusal shows the server's message next to the form. */
function EntryForm(props: {
  title: string;
  locales: string[];
  initial: Draft;
  onSave: (draft: Draft) => Promise<void>;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(props.initial);
  const action = useAction();
  const set = (change: Partial<Draft>) => setDraft((previous) => ({ ...previous, ...change }));
  const submit = () =>
    void action.run(() => props.onSave({ ...draft, translations: draft.keepAsIs ? {} : draft.translations }));
  return (
    <form class="card" onSubmit={onSubmit(submit)} aria-label={props.title}>
      <h3>{props.title}</h3>
      <label>
        Term
        <input type="text" value={draft.term} onInput={(e) => set({ term: e.currentTarget.value })} />
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={draft.caseSensitive}
          onChange={(e) => set({ caseSensitive: e.currentTarget.checked })}
        />
        Case sensitive (matches only as spelled)
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={draft.keepAsIs}
          onChange={(e) => set({ keepAsIs: e.currentTarget.checked })}
        />
        Keep as is: never translated
      </label>
      {draft.keepAsIs
        ? null
        : props.locales.map((locale) => (
            <label key={locale}>
              In {locale}
              <input
                type="text"
                value={draft.translations[locale] ?? ''}
                onInput={(e) =>
                  set({ translations: { ...draft.translations, [locale]: e.currentTarget.value } })
                }
              />
            </label>
          ))}
      <label>
        Note for translators
        <textarea rows={2} value={draft.note} onInput={(e) => set({ note: e.currentTarget.value })} />
      </label>
      <ErrorNote error={action.error} />
      <div class="inline">
        <button type="submit" disabled={action.busy}>
          Save entry
        </button>
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
