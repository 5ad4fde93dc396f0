/**
 * A project's settings (name, source locale, the CLI's provider/model/instructions, whether keys
 * are read as i18next plural forms, the key rules, deleting it) and its members.
 */
import { pluralCategories } from '@tolk/locale-file/plural-categories';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, currentUser } from '../api.js';
import { navigate } from '../router.js';
import { AI_PROVIDERS, PROVIDER_NAMES, type Member, type Project } from '../types.js';
import { KeyRulesFields, keyRulesOf, keyRulesText } from './key-rules-fields.js';
import { ErrorNote, Loaded, StatusNote, onSubmit, setFlash, useAction, useResource } from '../ui.js';

export function SettingsTab(props: { project: Project; onSaved: () => void }) {
  const { project } = props;
  const [name, setName] = useState(project.name);
  const [sourceLocale, setSourceLocale] = useState(project.sourceLocale);
  const [provider, setProvider] = useState(project.settings.provider ?? '');
  const [model, setModel] = useState(project.settings.model ?? '');
  const [instructions, setInstructions] = useState(project.settings.instructions ?? '');
  const [i18nextPlurals, setI18nextPlurals] = useState(project.settings.i18nextPlurals);
  const [keyRules, setKeyRules] = useState(keyRulesText(project.settings.keyRules));
  const [outdateOnContextChange, setOutdateOnContextChange] = useState(
    project.settings.outdateOnContextChange,
  );
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const isOwner = project.role === 'owner';

  const submit = () =>
    void action.run(async () => {
      setSaved(false);
      await api<Project>('PATCH', `/v1/projects/${encodeURIComponent(project.projectId)}`, {
        name,
        sourceLocale,
        settings: {
          provider: provider || null,
          model: model || null,
          instructions: instructions || null,
          i18nextPlurals,
          keyRules: keyRulesOf(keyRules),
          outdateOnContextChange,
        },
      });
      setSaved(true);
      props.onSaved();
    });

  return (
    <>
      <h2>Settings</h2>
      {isOwner ? null : <p class="note">Only the project's owners can change its settings.</p>}
      <form class="stack" onSubmit={onSubmit(submit)} onInput={() => setSaved(false)}>
        <fieldset disabled={!isOwner || action.busy}>
          <legend>Project</legend>
          <label>
            Name
            <input type="text" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <label>
            Source locale
            <input
              type="text"
              required
              autocapitalize="off"
              spellcheck={false}
              value={sourceLocale}
              onInput={(e) => setSourceLocale(e.currentTarget.value)}
            />
          </label>
        </fieldset>
        <fieldset disabled={!isOwner || action.busy}>
          <legend>Translation (used by the CLI's translate command)</legend>
          <label>
            AI provider
            <select value={provider} onChange={(e) => setProvider(e.currentTarget.value)}>
              <option value="">Not set (the CLI asks)</option>
              {AI_PROVIDERS.map((id) => (
                <option key={id} value={id}>
                  {PROVIDER_NAMES[id]}
                </option>
              ))}
            </select>
          </label>
          <label>
            Model
            <input
              type="text"
              placeholder="the provider's default"
              autocapitalize="off"
              spellcheck={false}
              value={model}
              onInput={(e) => setModel(e.currentTarget.value)}
            />
          </label>
          <label>
            Instructions for the translator
            <textarea
              rows={5}
              placeholder="Tone, terminology, things never to translate…"
              value={instructions}
              onInput={(e) => setInstructions(e.currentTarget.value)}
            />
          </label>
        </fieldset>
        <fieldset disabled={!isOwner || action.busy}>
          <legend>Keys</legend>
          <label class="check">
            <input
              type="checkbox"
              checked={i18nextPlurals}
              aria-describedby="i18next-plurals-help"
              onChange={(e) => setI18nextPlurals(e.currentTarget.checked)}
            />
            Read keys like item_one, item_other as i18next plural forms
          </label>
          <p id="i18next-plurals-help" class="muted help">
            Each target language then gets its own forms: Polish {pluralCategories('pl').join(', ')}; Japanese{' '}
            {pluralCategories('ja').join(', ')}.
          </p>
          <label class="check">
            <input
              type="checkbox"
              checked={outdateOnContextChange}
              aria-describedby="context-change-help"
              onChange={(e) => setOutdateOnContextChange(e.currentTarget.checked)}
            />
            A changed key description outdates its translations
          </label>
          <p id="context-change-help" class="muted help">
            A new{' '}
            <code>
              "@key": {'{'}"description"{'}'}
            </code>{' '}
            or <code>maxLength</code> in the source then marks that key outdated in every target locale, so it
            is translated again with the new context.
          </p>
        </fieldset>
        <KeyRulesFields value={keyRules} onChange={setKeyRules} disabled={!isOwner || action.busy} />
        <ErrorNote error={action.error} />
        {saved ? <StatusNote>Settings saved.</StatusNote> : null}
        {isOwner ? (
          <button type="submit" disabled={action.busy}>
            {action.busy ? 'Saving…' : 'Save settings'}
          </button>
        ) : null}
      </form>
      {isOwner ? <DangerZone project={project} /> : null}
    </>
  );
}

/** Deleting the project, confirmed GitHub-style: the owner types its name first. */
function DangerZone(props: { project: Project }) {
  const { project } = props;
  const [confirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState('');
  const action = useAction();
  const input = useRef<HTMLInputElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const matches = typed.trim() === project.name;

  useEffect(() => {
    if (confirming) input.current?.focus();
  }, [confirming]);

  const cancel = () => {
    setConfirming(false);
    setTyped('');
    action.clearError();
    // The opener is back only after this render.
    window.setTimeout(() => opener.current?.focus());
  };
  const submit = () => {
    if (!matches) return;
    void action.run(async () => {
      await api('DELETE', `/v1/projects/${encodeURIComponent(project.projectId)}`);
      setFlash(`Project “${project.name}” deleted.`);
      navigate('/', { replace: true });
    });
  };

  return (
    <section aria-labelledby="danger-zone" class="card danger-zone">
      <h3 id="danger-zone">Danger zone</h3>
      <p id="delete-warning">
        Deleting the project removes its source versions, locales, translations, members and API tokens for
        good. The CLI and CI using it stop working.
      </p>
      {confirming ? (
        <form class="stack" onSubmit={onSubmit(submit)}>
          <label>
            <span>
              To confirm, type the project's name, <strong class="mono">{project.name}</strong>
            </span>
            <input
              ref={input}
              type="text"
              required
              autocomplete="off"
              aria-describedby="delete-warning"
              autocapitalize="off"
              spellcheck={false}
              value={typed}
              onInput={(e) => setTyped(e.currentTarget.value)}
            />
          </label>
          <ErrorNote error={action.error} />
          <span class="row-actions">
            <button type="submit" class="danger" disabled={!matches || action.busy}>
              {action.busy ? 'Deleting…' : 'Delete this project for good'}
            </button>
            <button type="button" class="secondary" onClick={cancel}>
              Cancel
            </button>
          </span>
        </form>
      ) : (
        <button ref={opener} type="button" class="danger" onClick={() => setConfirming(true)}>
          Delete this project…
        </button>
      )}
    </section>
  );
}

export function MembersTab(props: { project: Project }) {
  const base = `/v1/projects/${encodeURIComponent(props.project.projectId)}/members`;
  const members = useResource(() => api<{ members: Member[] }>('GET', base), [base]);
  const isOwner = props.project.role === 'owner';
  const me = currentUser()?.userId;
  const removal = useAction();
  const remove = (userId: string) =>
    void removal.run(async () => {
      await api('DELETE', `${base}/${encodeURIComponent(userId)}`);
      members.reload();
    });

  return (
    <>
      <h2>Members</h2>
      {isOwner ? <AddMember base={base} onAdded={members.reload} /> : null}
      <ErrorNote error={removal.error} />
      <Loaded resource={members} what="members">
        {({ members: list }) => (
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">Project members</caption>
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  {isOwner ? (
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {list.map((member) => (
                  <tr key={member.userId}>
                    <th scope="row">
                      {member.email ?? '(deleted account)'}
                      {member.userId === me ? <span class="muted"> (you)</span> : null}
                    </th>
                    <td>{member.role}</td>
                    {isOwner ? (
                      <td>
                        <button
                          type="button"
                          class="secondary"
                          disabled={removal.busy}
                          onClick={() => remove(member.userId)}
                        >
                          Remove<span class="visually-hidden"> {member.email ?? member.userId}</span>
                        </button>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Loaded>
    </>
  );
}

function AddMember(props: { base: string; onAdded: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'member' | 'owner'>('member');
  const action = useAction();
  const submit = () =>
    void action.run(async () => {
      await api('POST', props.base, { email, role });
      setEmail('');
      props.onAdded();
    });
  return (
    <form class="inline" onSubmit={onSubmit(submit)}>
      <label>
        Member's email
        <input type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
      </label>
      <label>
        Role
        <select value={role} onChange={(e) => setRole(e.currentTarget.value as 'member' | 'owner')}>
          <option value="member">member</option>
          <option value="owner">owner</option>
        </select>
      </label>
      <button type="submit" disabled={action.busy}>
        Add member
      </button>
      <ErrorNote error={action.error} />
    </form>
  );
}
