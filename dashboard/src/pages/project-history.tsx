/** Source versions, newest first; each one opens to its key-level diff with old → new values. */
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import type { Diff, Project, SourceFile, SourceVersion } from '../types.js';
import { Loaded, formatTime, useResource } from '../ui.js';

/**
 * The source's keys as the service counts them: nested objects and arrays flattened to dotted
 * paths, `@` annotations left out (they describe keys, they are not keys).
 */
function flattenLocale(value: unknown, prefix = '', into = new Map<string, string>()): Map<string, string> {
  if (typeof value === 'string') {
    into.set(prefix, value);
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => flattenLocale(item, prefix ? `${prefix}.${index}` : String(index), into));
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (key.startsWith('@')) continue;
      flattenLocale(item, prefix ? `${prefix}.${key}` : key, into);
    }
  }
  return into;
}

/** A source file's values by key; nothing for no file, or content that does not parse. */
export function parseContent(file: SourceFile | null): Map<string, string> {
  if (!file) return new Map();
  try {
    return flattenLocale(JSON.parse(file.content));
  } catch {
    return new Map();
  }
}

export function HistoryTab(props: { project: Project }) {
  const base = `/v1/projects/${encodeURIComponent(props.project.projectId)}`;
  const versions = useResource(
    () => api<{ versions: SourceVersion[] }>('GET', `${base}/source/versions`),
    [base],
  );
  return (
    <>
      <h2>Source history</h2>
      <Loaded resource={versions} what="source versions">
        {({ versions: list }) =>
          list.length === 0 ? (
            <p>
              No source versions yet. Every <code>tolk push</code> that changes the source creates one.
            </p>
          ) : (
            <ol class="versions">
              {list.map((version) => (
                <VersionItem key={version.version} base={base} version={version} />
              ))}
            </ol>
          )
        }
      </Loaded>
    </>
  );
}

function VersionItem(props: { base: string; version: SourceVersion }) {
  const { version } = props;
  const [open, setOpen] = useState(false);
  const panelId = `version-${version.version}-changes`;
  return (
    <li class="card">
      <div class="version-head">
        <h3>Version {version.version}</h3>
        <span class="muted">{formatTime(version.createdAt)}</span>
        <span>
          <span class="count added">+{version.added} added</span>{' '}
          <span class="count modified">~{version.modified} modified</span>{' '}
          <span class="count deleted">−{version.deleted} deleted</span> · {version.keyCount} keys
        </span>
        <button
          type="button"
          class="secondary"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Hide changes' : 'Show changes'}
          <span class="visually-hidden"> of version {version.version}</span>
        </button>
      </div>
      <CarriedKeys version={version} />
      <div id={panelId} hidden={!open}>
        {open ? <VersionChanges base={props.base} version={version.version} /> : null}
      </div>
    </li>
  );
}

/**
 * The renames and restores of a version (DESIGN §13): keys whose translations were carried over
 * rather than translated again.
 */
function CarriedKeys(props: { version: SourceVersion }) {
  const { renamed, restored, renames, restores } = props.version;
  if (renamed === 0 && restored === 0) return null;
  const more = (shown: number, total: number) =>
    total > shown ? <li class="muted">and {total - shown} more</li> : null;
  return (
    <div class="carried">
      {renamed > 0 ? (
        <>
          <h4>{renamed} renamed (translations kept)</h4>
          <ul class="renames">
            {renames.map((rename) => (
              <li key={rename.to}>
                <code>{rename.from}</code> <span aria-hidden="true">→</span>
                <span class="visually-hidden"> renamed to </span> <code>{rename.to}</code>
              </li>
            ))}
            {more(renames.length, renamed)}
          </ul>
        </>
      ) : null}
      {restored > 0 ? (
        <>
          <h4>{restored} restored (last translations back)</h4>
          <ul class="restores">
            {restores.map((restore) => (
              <li key={restore.key}>
                <code>{restore.key}</code> <span class="muted">as of version {restore.version}</span>
              </li>
            ))}
            {more(restores.length, restored)}
          </ul>
        </>
      ) : null}
    </div>
  );
}

type Change = { key: string; kind: 'added' | 'modified' | 'deleted'; before?: string; after?: string };

function VersionChanges(props: { base: string; version: number }) {
  const { base, version } = props;
  const changes = useResource(async (): Promise<Change[]> => {
    const [diff, after, before] = await Promise.all([
      api<Diff>('GET', `${base}/source/diff?from=${version - 1}&to=${version}`),
      api<SourceFile>('GET', `${base}/source/versions/${version}`),
      version > 1 ? api<SourceFile>('GET', `${base}/source/versions/${version - 1}`) : Promise.resolve(null),
    ]);
    const newValues = parseContent(after);
    const oldValues = parseContent(before);
    return [
      ...diff.added.map((key): Change => ({ key, kind: 'added', after: newValues.get(key) })),
      ...diff.modified.map((key): Change => ({
        key,
        kind: 'modified',
        before: oldValues.get(key),
        after: newValues.get(key),
      })),
      ...diff.deleted.map((key): Change => ({ key, kind: 'deleted', before: oldValues.get(key) })),
    ];
  }, [base, version]);
  return (
    <Loaded resource={changes} what="the changes">
      {(list) =>
        list.length === 0 ? (
          <p>No key changed in this version.</p>
        ) : (
          <div class="table-wrap">
            <table class="diff">
              <caption class="visually-hidden">Keys changed in version {version}</caption>
              <thead>
                <tr>
                  <th scope="col">Change</th>
                  <th scope="col">Key</th>
                  <th scope="col">Old value</th>
                  <th scope="col">New value</th>
                </tr>
              </thead>
              <tbody>
                {list.map((change) => (
                  <tr key={`${change.kind}:${change.key}`} class={change.kind}>
                    <td>
                      <span class={`badge ${change.kind}`}>{change.kind}</span>
                    </td>
                    <th scope="row">
                      <code>{change.key}</code>
                    </th>
                    <td class="value old">{change.before ?? '—'}</td>
                    <td class="value new">
                      {change.kind === 'modified' ? <span aria-hidden="true">→ </span> : null}
                      {change.after ?? '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      }
    </Loaded>
  );
}
