import { ApiError, CliError, ExitCode } from '../errors.js';
import type { TolkApi } from './tolk-api.js';

/**
 * What `translate` and `check` start from: the project (its settings), its glossary and the
 * server's source. A project with no source yet is exit 2, saying that `what` needs a push first.
 */
export async function projectAndSource(api: TolkApi, projectId: string, what: string) {
  const [project, glossary, source] = await Promise.all([
    api.getProject(projectId),
    api.getGlossary(projectId),
    api.getSource(projectId).catch((error: unknown) => {
      if (error instanceof ApiError && error.code === 'NOT_FOUND') {
        throw new CliError('NO_SOURCE', `${what}: upload the source with \`tolk push\``, ExitCode.usage);
      }
      throw error;
    }),
  ]);
  return { project, glossary, source };
}
