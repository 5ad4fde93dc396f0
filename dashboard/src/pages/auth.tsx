/** Sign in and sign up; both return to the page the user came from (`?next=`). */
import { useState } from 'preact/hooks';
import { signIn, signUp } from '../api.js';
import { Link, navigate, safeNext } from '../router.js';
import { ErrorNote, Page, onSubmit, useAction } from '../ui.js';

function withNext(path: string, next: string): string {
  return next === '/' ? path : `${path}?next=${encodeURIComponent(next)}`;
}

export function SignInPage(props: { next: string | null }) {
  const next = safeNext(props.next);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  const submit = () =>
    void action.run(async () => {
      await signIn(email, password);
      navigate(next, { replace: true });
    });
  return (
    <div class="narrow">
      <Page title="Sign in">
        {next !== '/' ? <p class="muted">Sign in to continue.</p> : null}
        <form class="stack" onSubmit={onSubmit(submit)}>
          <label>
            Email
            <input
              type="email"
              name="email"
              autocomplete="username"
              required
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          </label>
          <label>
            Password
            <input
              type="password"
              name="password"
              autocomplete="current-password"
              required
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          </label>
          <ErrorNote error={action.error} />
          <button type="submit" disabled={action.busy}>
            {action.busy ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
        <p>
          No account yet? <Link href={withNext('/signup', next)}>Create one</Link>
        </p>
      </Page>
    </div>
  );
}

export function SignUpPage(props: { next: string | null }) {
  const next = safeNext(props.next);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  const submit = () =>
    void action.run(async () => {
      await signUp(email, password, name);
      navigate(next, { replace: true });
    });
  return (
    <div class="narrow">
      <Page title="Create your account">
        <form class="stack" onSubmit={onSubmit(submit)}>
          <label>
            Name <span class="muted">(optional)</span>
            <input
              type="text"
              name="name"
              autocomplete="name"
              value={name}
              onInput={(e) => setName(e.currentTarget.value)}
            />
          </label>
          <label>
            Email
            <input
              type="email"
              name="email"
              autocomplete="username"
              required
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          </label>
          <label>
            Password
            <input
              type="password"
              name="password"
              autocomplete="new-password"
              required
              minLength={8}
              aria-describedby="password-hint"
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          </label>
          <p id="password-hint" class="muted small">
            At least 8 characters.
          </p>
          <ErrorNote error={action.error} />
          <button type="submit" disabled={action.busy}>
            {action.busy ? 'Creating account…' : 'Create account'}
          </button>
        </form>
        <p>
          Already have an account? <Link href={withNext('/signin', next)}>Sign in</Link>
        </p>
      </Page>
    </div>
  );
}
