/**
 * The user's AI-provider keys (BYOK). The CLI sends users here (`/keys?provider=openai`) when it
 * finds no key, and polls until one is stored. Only each key's hint (its last 4 characters) is
 * ever shown; the key itself is never read back.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import { AI_PROVIDERS, PROVIDER_NAMES, type AiProvider, type KeyStatus } from '../types.js';
import { ErrorNote, Loaded, Page, StatusNote, formatTime, onSubmit, useAction, useResource } from '../ui.js';

function isProvider(value: string | null): value is AiProvider {
  return (AI_PROVIDERS as readonly string[]).includes(value ?? '');
}

export function KeysPage(props: { provider: string | null }) {
  const wanted = isProvider(props.provider) ? props.provider : null;
  const keys = useResource(() => api<{ keys: KeyStatus[] }>('GET', '/v1/user/byok'), []);
  return (
    <Page title="Provider keys" focusHeading={wanted === null}>
      <p>
        The CLI translates with your own key for each AI provider. Keys are encrypted at rest and only your
        own login can read them; this page shows only their last 4 characters.
      </p>
      {props.provider !== null && wanted === null ? (
        <p class="note error" role="alert">
          “{props.provider}” is not a provider Tolk knows. The providers are {AI_PROVIDERS.join(', ')}.
        </p>
      ) : null}
      <Loaded resource={keys} what="your keys">
        {({ keys: list }) => (
          <ul class="keys">
            {AI_PROVIDERS.map((provider) => (
              <ProviderKey
                key={provider}
                provider={provider}
                status={list.find((entry) => entry.provider === provider)}
                wanted={provider === wanted}
                onChange={keys.reload}
              />
            ))}
          </ul>
        )}
      </Loaded>
    </Page>
  );
}

function ProviderKey(props: {
  provider: AiProvider;
  status: KeyStatus | undefined;
  wanted: boolean;
  onChange: () => void;
}) {
  const { provider, status, wanted } = props;
  const name = PROVIDER_NAMES[provider];
  const [apiKey, setApiKey] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const item = useRef<HTMLLIElement>(null);
  const save = useAction();
  const removal = useAction();
  const hasKey = status?.hasKey === true;
  const inputId = `key-${provider}`;
  const statusId = `key-${provider}-status`;

  useEffect(() => {
    if (!wanted) return;
    item.current?.scrollIntoView({ block: 'center' });
    input.current?.focus();
  }, [wanted]);

  const submit = () =>
    void save.run(async () => {
      setDone(null);
      await api('PUT', `/v1/user/byok/${provider}`, { apiKey });
      setApiKey('');
      setDone(
        wanted
          ? `${name} key saved. The CLI picks it up within a few seconds: go back to your terminal.`
          : `${name} key saved.`,
      );
      props.onChange();
    });
  const remove = () =>
    void removal.run(async () => {
      setDone(null);
      await api('DELETE', `/v1/user/byok/${provider}`);
      setDone(`${name} key removed.`);
      props.onChange();
    });

  return (
    <li
      ref={item}
      class={`card key${wanted ? ' highlight' : ''}`}
      data-provider={provider}
      aria-labelledby={`${inputId}-name`}
    >
      <h2 id={`${inputId}-name`}>{name}</h2>
      {wanted ? <p class="small">The CLI is waiting for this key.</p> : null}
      <p id={statusId}>
        {hasKey ? (
          <>
            Key stored, ending in <code class="hint">…{status?.hint}</code>
            <span class="muted"> · saved {formatTime(status?.updatedAt)}</span>
          </>
        ) : (
          <span class="muted">No key stored.</span>
        )}
      </p>
      <form class="inline" onSubmit={onSubmit(submit)}>
        <label class="grow" for={inputId}>
          {hasKey ? `New ${name} API key` : `${name} API key`}
        </label>
        <input
          ref={input}
          id={inputId}
          type="password"
          required
          autocomplete="off"
          spellcheck={false}
          aria-describedby={statusId}
          value={apiKey}
          onInput={(e) => setApiKey(e.currentTarget.value)}
        />
        <button type="submit" disabled={save.busy}>
          {hasKey ? 'Replace key' : 'Save key'}
          <span class="visually-hidden"> for {name}</span>
        </button>
        {hasKey ? (
          <button type="button" class="secondary" disabled={removal.busy} onClick={remove}>
            Remove<span class="visually-hidden"> the {name} key</span>
          </button>
        ) : null}
      </form>
      <ErrorNote error={save.error ?? removal.error} />
      {done ? <StatusNote>{done}</StatusNote> : null}
    </li>
  );
}
