/** The exit codes, documented in the README. */
export const ExitCode = {
  ok: 0,
  /** `tolk status --check`: some target locale is behind. */
  behind: 1,
  /** `tolk check`: something is wrong in the target files (the findings say what). */
  problems: 1,
  /** Wrong usage, a bad file or a request the server refused as invalid. */
  usage: 2,
  /** Not logged in, an expired session, a token without the right. */
  auth: 3,
  /** The network, the server or the AI provider failed. */
  failure: 4,
  /**
   * `tolk pull`: a local target value differs from the server's and was never uploaded; it was
   * kept and named, everything else written (`--force` writes the server's value over it).
   */
  localChanges: 5,
  /**
   * Partly failed: a locale file could not be read (it does not parse, is too large, is not
   * text); it was left as it is and named at its line and column, everything else was done.
   */
  partial: 6,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** A failure the CLI reports as `code: message` and exits with `exitCode`; never a stack trace. */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export function usageError(message: string): CliError {
  return new CliError('USAGE', message, ExitCode.usage);
}

/**
 * The exit of a command that did its work except for files it could not read: `partial`, unless
 * the work itself ended worse (usage, auth, a failure).
 */
export function withUnreadFiles(code: ExitCode, unreadFiles: number): ExitCode {
  if (unreadFiles === 0) return code;
  return code === ExitCode.ok || code === ExitCode.problems || code === ExitCode.localChanges
    ? ExitCode.partial
    : code;
}

/** The server answered with its error envelope (or something else that is not a success). */
export class ApiError extends CliError {
  constructor(
    readonly status: number,
    code: string,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(code, message, exitCodeOfStatus(status));
  }
}

/** The request never got an answer: connection refused, DNS, timeout. */
export class NetworkError extends CliError {
  constructor(message: string) {
    super('NETWORK_ERROR', message, ExitCode.failure);
  }
}

export function exitCodeOfStatus(status: number): ExitCode {
  if (status === 401 || status === 403) return ExitCode.auth;
  if (status === 429 || status >= 500) return ExitCode.failure;
  return ExitCode.usage;
}

/** Ctrl-C: stops quietly with the conventional 130. */
export class InterruptedError extends Error {
  constructor() {
    super('Interrupted');
    this.name = 'InterruptedError';
  }
}
