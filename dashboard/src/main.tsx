/** The app: the header, the session, and which page a path shows. */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { currentUser, onSessionChange, refreshSession, signOut } from './api.js';
import { DevicePage } from './pages/device.js';
import { KeysPage } from './pages/keys.js';
import { SignInPage, SignUpPage } from './pages/auth.js';
import { ProjectPage, TABS, type TabId } from './pages/project.js';
import { ProjectsPage } from './pages/projects.js';
import { Link, navigate, safeNext, useLocation, type Location } from './router.js';
import { ErrorNote, Page } from './ui.js';
import './styles.css';

const PROJECT_PATH = /^\/projects\/([^/]+)(?:\/([a-z]+))?\/?$/;

function SignedInPage(props: { location: Location }) {
  const { path, query } = props.location;
  if (path === '/' || path === '/projects') return <ProjectsPage />;
  if (path === '/keys') return <KeysPage provider={query.get('provider')} />;
  if (path === '/device') return <DevicePage code={query.get('code')} />;
  const project = PROJECT_PATH.exec(path);
  const tab = (project?.[2] ?? '') as TabId;
  if (project && TABS.some((entry) => entry.id === tab)) {
    return <ProjectPage key={project[1]} projectId={decodeURIComponent(project[1]!)} tab={tab} />;
  }
  return (
    <Page title="Page not found">
      <p>
        There is no page at <code>{path}</code>. <Link href="/">Go to your projects</Link>.
      </p>
    </Page>
  );
}

function Header(props: { signedIn: boolean; path: string }) {
  const user = currentUser();
  const current = (href: string) =>
    (href === '/' ? props.path === '/' || props.path.startsWith('/projects') : props.path === href)
      ? 'page'
      : undefined;
  return (
    <header class="top">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <Link href="/" class="brand">
        Tolk
      </Link>
      {props.signedIn ? (
        <>
          <nav aria-label="Main">
            <Link href="/" aria-current={current('/')}>
              Projects
            </Link>
            <Link href="/keys" aria-current={current('/keys')}>
              Provider keys
            </Link>
            <Link href="/device" aria-current={current('/device')}>
              CLI login
            </Link>
          </nav>
          <span class="who">
            <span class="muted">{user?.email}</span>
            <button
              type="button"
              class="secondary"
              onClick={() => void signOut().then(() => navigate('/signin', { replace: true }))}
            >
              Sign out
            </button>
          </span>
        </>
      ) : null}
    </header>
  );
}

function App() {
  const location = useLocation();
  // undefined: the stored session is still being restored.
  const [signedIn, setSignedIn] = useState<boolean | undefined>(undefined);
  const [restoreError, setRestoreError] = useState<unknown>(undefined);

  useEffect(() => {
    const unsubscribe = onSessionChange(() => setSignedIn(currentUser() !== null));
    refreshSession().then(
      (ok) => setSignedIn(ok),
      (err: unknown) => {
        setRestoreError(err);
        setSignedIn(false);
      },
    );
    return unsubscribe;
  }, []);

  const { path } = location;
  const publicPage = path === '/signin' || path === '/signup';
  const here = `${path}${window.location.search}`;

  useEffect(() => {
    if (signedIn === false && !publicPage) {
      navigate(here === '/' ? '/signin' : `/signin?next=${encodeURIComponent(here)}`, { replace: true });
    } else if (signedIn === true && publicPage) {
      navigate(safeNext(location.query.get('next')), { replace: true });
    }
  }, [signedIn, publicPage, here]);

  let content;
  if (signedIn === undefined) content = <p role="status">Loading…</p>;
  else if (path === '/signin') content = <SignInPage next={location.query.get('next')} />;
  else if (path === '/signup') content = <SignUpPage next={location.query.get('next')} />;
  else if (signedIn) content = <SignedInPage location={location} />;
  else content = <p role="status">Redirecting to sign in…</p>;

  return (
    <>
      <Header signedIn={signedIn === true} path={path} />
      <main id="main" tabIndex={-1}>
        <ErrorNote error={publicPage ? restoreError : undefined} />
        {content}
      </main>
    </>
  );
}

const root = document.getElementById('app')!;
// The "Loading Tolk…" line of index.html, shown until this script runs.
root.textContent = '';
render(<App />, root);
