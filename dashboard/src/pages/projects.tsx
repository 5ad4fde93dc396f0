/** The user's projects, each with its health (how many target locales are behind), and a new project. */
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { Link, navigate } from '../router.js';
import type { Locale, Project } from '../types.js';
import { ErrorNote, Loaded, Page, StatusNote, onSubmit, useAction, useFlash, useResource } from '../ui.js';
import { projectPath } from './project.js';

type Health = { locales: Locale[] } | { error: string };

function HealthBadge(props: { health: Health | undefined }) {
  const { health } = props;
  if (!health) return <span class="muted">Checking…</span>;
  if ('error' in health) return <span class="badge warn">{health.error}</span>;
  const total = health.locales.length;
  if (total === 0) return <span class="badge">No target locales</span>;
  const behind = health.locales.filter((locale) => locale.status === 'behind').length;
  if (behind === 0) return <span class="badge good">All {total} up to date</span>;
  return (
    <span class="badge bad">
      {behind} of {total} behind
    </span>
  );
}

export function ProjectsPage() {
  const flash = useFlash();
  const projects = useResource(() => api<{ projects: Project[] }>('GET', '/v1/projects'), []);
  const health = useResource(async () => {
    const list = projects.data?.projects ?? [];
    const answers = await Promise.all(
      list.map(async (project): Promise<[string, Health]> => {
        try {
          const { locales } = await api<{ locales: Locale[] }>(
            'GET',
            `/v1/projects/${encodeURIComponent(project.projectId)}/locales`,
          );
          return [project.projectId, { locales }];
        } catch (err) {
          return [project.projectId, { error: (err as Error).message }];
        }
      }),
    );
    return new Map(answers);
  }, [projects.data]);

  return (
    <Page title="Projects">
      {flash ? <StatusNote>{flash}</StatusNote> : null}
      <NewProject />
      <Loaded resource={projects} what="projects">
        {({ projects: list }) =>
          list.length === 0 ? (
            <p>
              No projects yet. Create one above, or with the CLI: <code>tolk init</code>.
            </p>
          ) : (
            <div class="table-wrap">
              <table>
                <caption class="visually-hidden">Your projects and how many locales are behind</caption>
                <thead>
                  <tr>
                    <th scope="col">Project</th>
                    <th scope="col">Source</th>
                    <th scope="col">Health</th>
                    <th scope="col">Your role</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((project) => (
                    <tr key={project.projectId}>
                      <th scope="row">
                        <Link href={projectPath(project.projectId)}>{project.name}</Link>
                      </th>
                      <td>{project.sourceLocale}</td>
                      <td>
                        <HealthBadge health={health.data?.get(project.projectId)} />
                      </td>
                      <td>{project.role ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
    </Page>
  );
}

function NewProject() {
  const [name, setName] = useState('');
  const [sourceLocale, setSourceLocale] = useState('en');
  const action = useAction();
  const submit = () =>
    void action.run(async () => {
      const project = await api<Project>('POST', '/v1/projects', { name, sourceLocale });
      navigate(projectPath(project.projectId));
    });
  return (
    <section aria-labelledby="new-project" class="card">
      <h2 id="new-project">New project</h2>
      <form class="inline" onSubmit={onSubmit(submit)}>
        <label>
          Project name
          <input type="text" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          Source locale
          <input
            type="text"
            required
            size={8}
            autocapitalize="off"
            spellcheck={false}
            aria-describedby="source-locale-hint"
            value={sourceLocale}
            onInput={(e) => setSourceLocale(e.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={action.busy}>
          Create project
        </button>
      </form>
      <p id="source-locale-hint" class="muted small">
        The language your source file is written in, e.g. en, de or pt-BR.
      </p>
      <ErrorNote error={action.error} />
    </section>
  );
}
