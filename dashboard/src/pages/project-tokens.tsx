/** Project API tokens for CI: create (the value shown once), list, revoke. */
import { useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import type { ApiToken, CreatedToken, ListedToken, Member, Project } from '../types.js';
import { ErrorNote, Loaded, StatusNote, formatTime, onSubmit, useAction, useResource } from '../ui.js';

const PERMISSION_LABELS: Record<ApiToken['permissions'], string> = {
  read: 'read',
  read_write: 'read and write',
};

export function TokensTab(props: { project: Project }) {
  const base = `/v1/projects/${encodeURIComponent(props.project.projectId)}/tokens`;
  const tokens = useResource(() => api<{ tokens: ListedToken[] }>('GET', base), [base]);
  // Creators by email where the member list says it; their id until it has loaded (or if it fails).
  const membersPath = `/v1/projects/${encodeURIComponent(props.project.projectId)}/members`;
  const members = useResource(() => api<{ members: Member[] }>('GET', membersPath), [membersPath]);
  const creatorOf = (token: ListedToken) =>
    members.data?.members.find((member) => member.userId === token.createdBy.userId)?.email ??
    token.createdBy.userId;
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [revoked, setRevoked] = useState<string | null>(null);
  const revocation = useAction();
  const revoke = (token: ApiToken) =>
    void revocation.run(async () => {
      await api('DELETE', `${base}/${encodeURIComponent(token.tokenId)}`);
      setConfirming(null);
      setRevoked(token.label);
      tokens.reload();
    });

  return (
    <>
      <h2>API tokens</h2>
      <p class="muted">
        For CI pipelines: <code>TOLK_TOKEN=…</code> lets <code>tolk push</code> and <code>tolk pull</code> run
        without a login. A token reaches this project only, and belongs to the member who created it: removing
        that member from the project revokes it.
      </p>
      {created ? (
        <NewTokenValue token={created} onDone={() => setCreated(null)} />
      ) : (
        <CreateToken
          base={base}
          onCreated={(token) => {
            setCreated(token);
            setRevoked(null);
            tokens.reload();
          }}
        />
      )}
      <h3>Tokens of this project</h3>
      <ErrorNote error={revocation.error} />
      {revoked ? <StatusNote>Token “{revoked}” revoked. It stops working within a second.</StatusNote> : null}
      <Loaded resource={tokens} what="tokens">
        {({ tokens: list }) =>
          list.length === 0 ? (
            <p>No tokens yet.</p>
          ) : (
            <div class="table-wrap">
              <table>
                <caption class="visually-hidden">API tokens of this project</caption>
                <thead>
                  <tr>
                    <th scope="col">Label</th>
                    <th scope="col">Prefix</th>
                    <th scope="col">Permission</th>
                    <th scope="col">Created</th>
                    <th scope="col">Created by</th>
                    <th scope="col">Last used</th>
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((token) => (
                    <tr key={token.tokenId}>
                      <th scope="row">{token.label}</th>
                      <td>
                        <code>{token.tokenPrefix}…</code>
                      </td>
                      <td>{PERMISSION_LABELS[token.permissions]}</td>
                      <td>{formatTime(token.createdAt)}</td>
                      <td>{creatorOf(token)}</td>
                      <td>{token.lastUsedAt === null ? 'never' : formatTime(token.lastUsedAt)}</td>
                      <td>
                        {confirming === token.tokenId ? (
                          <span class="row-actions">
                            <button
                              type="button"
                              class="danger"
                              disabled={revocation.busy}
                              onClick={() => revoke(token)}
                            >
                              Revoke “{token.label}” now
                            </button>
                            <button type="button" class="secondary" onClick={() => setConfirming(null)}>
                              Cancel
                            </button>
                          </span>
                        ) : (
                          <button
                            type="button"
                            class="secondary"
                            onClick={() => setConfirming(token.tokenId)}
                          >
                            Revoke<span class="visually-hidden"> {token.label}</span>
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
    </>
  );
}

function CreateToken(props: { base: string; onCreated: (token: CreatedToken) => void }) {
  const [label, setLabel] = useState('');
  const [permissions, setPermissions] = useState<ApiToken['permissions']>('read');
  const action = useAction();
  const submit = () =>
    void action.run(async () => {
      props.onCreated(await api<CreatedToken>('POST', props.base, { label, permissions }));
    });
  return (
    <form class="inline card" onSubmit={onSubmit(submit)}>
      <label>
        Token label
        <input
          type="text"
          required
          placeholder="e.g. GitHub Actions"
          value={label}
          onInput={(e) => setLabel(e.currentTarget.value)}
        />
      </label>
      <label>
        Permission
        <select
          value={permissions}
          onChange={(e) => setPermissions(e.currentTarget.value as ApiToken['permissions'])}
        >
          <option value="read">read (pull, status)</option>
          <option value="read_write">read and write (also push)</option>
        </select>
      </label>
      <button type="submit" disabled={action.busy}>
        Create token
      </button>
      <ErrorNote error={action.error} />
    </form>
  );
}

/** The one time the full token is on screen: copy it, then it is gone for good. */
function NewTokenValue(props: { token: CreatedToken; onDone: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.token.token);
      setCopied('Copied to the clipboard.');
    } catch {
      input.current?.select();
      setCopied('Could not reach the clipboard: the token is selected, press Ctrl+C (⌘C) to copy it.');
    }
  };
  return (
    <section class="card highlight" aria-labelledby="new-token-heading">
      <h3 id="new-token-heading">Token “{props.token.label}” created</h3>
      <p>
        <strong>Copy it now: it is shown only this once</strong> and cannot be retrieved again.
      </p>
      <div class="inline">
        <label class="grow">
          New API token
          <input
            ref={input}
            type="text"
            readOnly
            class="mono"
            value={props.token.token}
            onFocus={(e) => e.currentTarget.select()}
          />
        </label>
        <button type="button" onClick={() => void copy()}>
          Copy token
        </button>
        <button type="button" class="secondary" onClick={props.onDone}>
          Done
        </button>
      </div>
      <p role="status" class="small">
        {copied ?? ''}
      </p>
    </section>
  );
}
