/** Building blocks every page uses: the page frame, loading and error states, form actions. */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.js';

function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return `Something went wrong: ${error.message}`;
  return 'Something went wrong.';
}

/** The page's heading, which takes the focus when the page opens (so screen readers announce it). */
export function Page(props: { title: string; focusHeading?: boolean; children: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const { title, focusHeading = true } = props;
  useEffect(() => {
    document.title = `${title} — Tolk`;
  }, [title]);
  useEffect(() => {
    if (focusHeading) heading.current?.focus({ preventScroll: false });
  }, []);
  return (
    <>
      <h1 ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {props.children}
    </>
  );
}

/** An error as the server worded it; announced at once. */
export function ErrorNote(props: { error: unknown }) {
  if (!props.error) return null;
  return (
    <p class="note error" role="alert">
      {messageOf(props.error)}
    </p>
  );
}

export function Loading(props: { what?: string }) {
  return (
    <p class="muted" role="status">
      Loading{props.what ? ` ${props.what}` : ''}…
    </p>
  );
}

export type Resource<T> = {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
};

/** Loads `load()` now and again whenever `deps` change or `reload()` is called; the newest answer wins. */
export function useResource<T>(load: () => Promise<T>, deps: unknown[]): Resource<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => current && setState({ data, error: undefined, loading: false }),
      (error: unknown) => current && setState((previous) => ({ data: previous.data, error, loading: false })),
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  return { ...state, reload };
}

/** Shows the resource's error, or a loading line until its first answer, or its content. */
export function Loaded<T>(props: {
  resource: Resource<T>;
  what: string;
  children: (data: T) => ComponentChildren;
}) {
  const { resource } = props;
  if (resource.data === undefined) {
    return resource.error ? <ErrorNote error={resource.error} /> : <Loading what={props.what} />;
  }
  return (
    <>
      {resource.error ? <ErrorNote error={resource.error} /> : null}
      {props.children(resource.data)}
    </>
  );
}

/** A form action: busy while it runs, its error kept to be shown next to the form. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const run = useCallback(async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clearError: () => setError(undefined) };
}

/** A confirmation that succeeded, announced politely. */
export function StatusNote(props: { children: ComponentChildren }) {
  return (
    <p class="note ok" role="status">
      {props.children}
    </p>
  );
}

export function formatTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Lets the submit handler of a `<form>` stay a one-liner. */
export function onSubmit(handler: () => void) {
  return (event: Event) => {
    event.preventDefault();
    handler();
  };
}

let flash: string | null = null;

/** A confirmation for the next page to show, when the page that did the work goes away (a deleted project). */
export function setFlash(message: string): void {
  flash = message;
}

/** The confirmation left by the previous page, once: the first render takes it. */
export function useFlash(): string | null {
  const [message] = useState(() => {
    const taken = flash;
    flash = null;
    return taken;
  });
  return message;
}
