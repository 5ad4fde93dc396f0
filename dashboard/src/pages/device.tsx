/**
 * Device login (`tolk login`): the CLI prints this page's address with its code
 * (`/device?code=BCDF-GHJK`); the user checks the code against the terminal and approves or denies.
 */
import { useState } from 'preact/hooks';
import { api, currentUser } from '../api.js';
import { navigate } from '../router.js';
import { ErrorNote, Page, StatusNote, onSubmit, useAction } from '../ui.js';

/** As shown in the terminal: upper case, XXXX-XXXX. */
function displayCode(code: string): string {
  const plain = code.toUpperCase().replace(/[\s-]/g, '');
  return plain.length === 8 ? `${plain.slice(0, 4)}-${plain.slice(4)}` : plain;
}

export function DevicePage(props: { code: string | null }) {
  const code = props.code ? displayCode(props.code) : null;
  return <Page title="Approve a CLI login">{code ? <Decide code={code} /> : <EnterCode />}</Page>;
}

function EnterCode() {
  const [typed, setTyped] = useState('');
  return (
    <form
      class="inline"
      onSubmit={onSubmit(() => navigate(`/device?code=${encodeURIComponent(displayCode(typed))}`))}
    >
      <label>
        Code shown in your terminal
        <input
          type="text"
          required
          class="mono"
          autocomplete="off"
          autocapitalize="characters"
          spellcheck={false}
          placeholder="XXXX-XXXX"
          value={typed}
          onInput={(e) => setTyped(e.currentTarget.value)}
        />
      </label>
      <button type="submit">Continue</button>
    </form>
  );
}

function Decide(props: { code: string }) {
  const [outcome, setOutcome] = useState<'approved' | 'denied' | null>(null);
  const action = useAction();
  const decide = (decision: 'approve' | 'deny') =>
    void action.run(async () => {
      await api('POST', `/v1/auth/device/${decision}`, { userCode: props.code });
      setOutcome(decision === 'approve' ? 'approved' : 'denied');
    });

  if (outcome === 'approved') {
    return (
      <StatusNote>
        Approved. The CLI is now signed in as {currentUser()?.email}: you can close this page and return to
        your terminal.
      </StatusNote>
    );
  }
  if (outcome === 'denied') {
    return <StatusNote>Denied. The CLI login with code {props.code} will not go through.</StatusNote>;
  }
  return (
    <div class="card">
      <p>A command-line login is asking to act as you ({currentUser()?.email}). Its code:</p>
      <p class="device-code mono" aria-label={`Code ${props.code.split('').join(' ')}`}>
        {props.code}
      </p>
      <p>
        <strong>Approve only if it matches the code in your terminal</strong> and you started the login
        yourself.
      </p>
      <div class="inline">
        <button type="button" disabled={action.busy} onClick={() => decide('approve')}>
          Approve
        </button>
        <button type="button" class="danger" disabled={action.busy} onClick={() => decide('deny')}>
          Deny
        </button>
      </div>
      <ErrorNote error={action.error} />
    </div>
  );
}
