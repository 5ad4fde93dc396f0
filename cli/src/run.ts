import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { AI_PROVIDERS } from '@tolk/contracts';
import { CHECK_FORMATS, type CheckFormat } from './check/report.js';
import { check } from './commands/check.js';
import { glossaryExport, glossaryImport } from './commands/glossary.js';
import { init } from './commands/init.js';
import { login, logout, whoami } from './commands/login.js';
import { checkDriverArguments, mergeDriver, registerMergeDriver } from './commands/merge-driver.js';
import { DRIVER_COMMAND } from './merge-driver/install.js';
import { pull } from './commands/pull.js';
import { push } from './commands/push.js';
import { status } from './commands/status.js';
import { translate } from './commands/translate.js';
import { FIX_LEVELS, type FixLevel } from './translate/fix.js';
import { CliError, ExitCode, InterruptedError, usageError } from './errors.js';
import type { Io } from './io.js';
import { createOutput } from './output.js';
import { CLI_VERSION } from './version.js';

/** Exit status after Ctrl-C, as shells report SIGINT. */
const INTERRUPTED = 130;

const collect = (value: string, previous: string[]) => [...previous, value];

function wholeNumber(min: number, max: number) {
  return (value: string) => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < min || number > max) {
      throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}`);
    }
    return number;
  };
}

/** `--fix`'s level: none (errors) or `warnings`; `errors` may be given too. */
function fixLevel(value: string): FixLevel {
  if ((FIX_LEVELS as readonly string[]).includes(value)) return value as FixLevel;
  throw new InvalidArgumentError(
    'give --fix alone to fix the translations with errors, or --fix=warnings to fix those with errors or warnings',
  );
}

function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}

/**
 * Runs one `tolk` command line in-process and resolves to its exit code. Everything it touches
 * comes from `io`, so tests run it with their own environment, directory and output.
 */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  let exitCode: number = ExitCode.ok;
  const program = tolkProgram(io);
  for (const addCommand of COMMANDS) addCommand(program, io, (code) => (exitCode = code));
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    return reportError(error, io, wantsJson(argv));
  }
}

/** Where a command's action hands its exit code. */
type Done = (exitCode: number) => void;
/** Adds a command to the program. */
type AddCommand = (program: Command, io: Io, done: Done) => void;

/** `tolk` itself: its description, version, help and where commander writes. */
function tolkProgram(io: Io): Command {
  return new Command('tolk')
    .description(
      'Keep every locale file of your app in step with its source, translated with your own AI key.',
    )
    .version(CLI_VERSION, '-v, --version')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showHelpAfterError('(add --help for usage)')
    .addHelpText(
      'after',
      examples(
        'tolk login',
        'tolk init --name "My app" --source en --targets de,fr --files "locales/{locale}.json"',
        'tolk push',
        'tolk translate',
        'tolk status --check',
        'tolk check --format github',
        'TOLK_TOKEN=tolk_... tolk pull',
      ) +
        '\nEnvironment: TOLK_TOKEN, TOLK_API_URL, OPENAI_API_KEY, ANTHROPIC_API_KEY, ... (see the README).' +
        '\nExit codes: 0 ok, 1 behind (status --check) or an error found (check), 2 usage or validation, 3 auth, 4 network or server.\n',
    );
}

/** `tolk login`: the device login. */
function addLogin(program: Command, io: Io, done: Done): void {
  program
    .command('login')
    .description(
      'Sign in with the device login: approve a code in the browser; the session is kept in your config directory',
    )
    .option(
      '--api <url>',
      'the Tolk server (default: TOLK_API_URL, tolk.json, the last login, http://localhost:8080)',
    )
    .option('--no-browser', 'do not open a browser, only print the URL and the code')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', examples('tolk login', 'tolk login --api https://tolk.example.com --no-browser'))
    .action(async (options: { api?: string; browser: boolean; json?: boolean }) => {
      done(await login(io, { api: options.api, browser: options.browser, json: options.json ?? false }));
    });
}

/** `tolk logout`. */
function addLogout(program: Command, io: Io, done: Done): void {
  program
    .command('logout')
    .description('Sign out: revokes the stored session and forgets it')
    .option('--api <url>', 'the Tolk server to sign out of')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', examples('tolk logout'))
    .action(async (options: { api?: string; json?: boolean }) => {
      done(await logout(io, { api: options.api, json: options.json ?? false }));
    });
}

/** `tolk whoami`. */
function addWhoami(program: Command, io: Io, done: Done): void {
  program
    .command('whoami')
    .description('Show who the CLI acts as: the signed-in user, or the token in TOLK_TOKEN')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', examples('tolk whoami', 'tolk whoami --json'))
    .action(async (options: { json?: boolean }) => {
      done(await whoami(io, { json: options.json ?? false }));
    });
}

/** `tolk init`: create or link a project, write tolk.json. */
function addInit(program: Command, io: Io, done: Done): void {
  program
    .command('init')
    .description('Create a project (or link one) with its target locales, and write tolk.json')
    .option('--name <name>', 'create a project with this name')
    .option('--project <id>', 'link the existing project with this id instead')
    .option('--source <locale>', 'the source locale (default: the one of the files found, else en)')
    .option(
      '--targets <locales>',
      'target locales, comma-separated, e.g. de,fr,pt-BR (default: those of the files found)',
    )
    .option(
      '--files <pattern>',
      'where the locale files are, with {locale} (default: the files found here, else locales/{locale}.json)',
    )
    .option('--api <url>', 'the Tolk server (written into tolk.json)')
    .option(
      '--git',
      'also register tolk merge-driver in this git repository: locale files merged key by key (see merge-driver --help)',
    )
    .option(
      '-y, --yes',
      'ask nothing: take the defaults and the locale files found, overwrite an existing tolk.json',
    )
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      examples(
        'tolk init',
        'tolk init --name "My app" --source en --targets de,fr --files "locales/{locale}.json" --yes',
        'tolk init --project 0f9c... --targets de,fr',
      ) +
        "\nWithout --files it looks for the app's locale files (i18next folders, Rails config/locales," +
        '\nFlutter l10n.yaml and ARB, Java messages*.properties, one JSON or YAML file per locale) and' +
        '\nproposes them. Without flags it asks, when run in a terminal; otherwise it never asks.\n',
    )
    .action(
      async (options: {
        name?: string;
        project?: string;
        source?: string;
        targets?: string;
        files?: string;
        api?: string;
        yes?: boolean;
        json?: boolean;
        git?: boolean;
      }) => {
        done(await init(io, { ...options, yes: options.yes ?? false, json: options.json ?? false }));
      },
    );
}

/** `tolk push`: upload the source file. */
function addPush(program: Command, io: Io, done: Done): void {
  program
    .command('push')
    .description(
      'Upload the source locale file and show what changed; your edits of target files go up as human translations',
    )
    .option('--dry-run', 'show the diff the upload would make, store nothing')
    .option(
      '--import',
      "upload every translated value of the target files as a person's (the first push always does)",
    )
    .option('--json', 'print the server answer as JSON')
    .addHelpText('after', examples('tolk push', 'tolk push --import', 'tolk push --dry-run --json'))
    .action(async (options: { dryRun?: boolean; import?: boolean; json?: boolean }) => {
      done(
        await push(io, {
          dryRun: options.dryRun ?? false,
          import: options.import ?? false,
          json: options.json ?? false,
        }),
      );
    });
}

/** `tolk status`: every target locale's state. */
function addStatus(program: Command, io: Io, done: Done): void {
  program
    .command('status')
    .description('Show every target locale: status, missing and outdated keys, synced vs source version')
    .option('--check', 'exit 0 when every locale is up to date, 1 when any is behind (2-4 on errors)')
    .option('--json', 'print the locales as JSON')
    .addHelpText(
      'after',
      examples('tolk status', 'tolk status --check   # in CI: fails while translations are behind'),
    )
    .action(async (options: { check?: boolean; json?: boolean }) => {
      done(await status(io, { check: options.check ?? false, json: options.json ?? false }));
    });
}

type CheckFlags = {
  locale: string[];
  format: CheckFormat;
  json?: boolean;
  strict?: boolean;
  requireTranslations?: boolean;
};

/** `tolk check`: the local target files checked without a model. */
function addCheck(program: Command, io: Io, done: Done): void {
  program
    .command('check')
    .description(
      'Check the local target files against the source and the server, without a model: missing, outdated, placeholders, ICU, plurals, markup, glossary, maxLength, copies of the source',
    )
    .option('-l, --locale <locale>', 'only this locale (repeatable)', collect, [])
    .addOption(
      new Option(
        '--format <format>',
        'human, json, github (workflow annotations) or gitlab (Code Quality report)',
      )
        .choices(CHECK_FORMATS)
        .default('human'),
    )
    .option('--json', 'print the findings as JSON (the same as --format json)')
    .option('--strict', 'exit 1 on warnings too (copies of the source, glossary, maxLength, outdated, ...)')
    .option(
      '--require-translations',
      "keys new or changed against the server's main source need their translations too (else they are pending: a notice)",
    )
    .addHelpText(
      'after',
      examples(
        'tolk check',
        'tolk check --strict                      # warnings fail it too',
        'tolk check --require-translations        # a pull request translated in itself: pending keys fail too',
        'tolk check --locale de --json',
        'tolk check --format github               # in a GitHub Actions step: annotations on the files',
        'tolk check --format gitlab > gl-code-quality-report.json   # GitLab: artifacts:reports:codequality',
      ) +
        "\nA key the local source adds or changes against the server's main source is pending: a notice, not a" +
        '\nfailure (it is translated once pushed there), unless --require-translations.' +
        '\nExit codes: 0 nothing found or only warnings and notices (printed), 1 an error found (with --strict also' +
        '\na warning), 2 usage or configuration, 3 auth, 4 network or server, 6 a file could not be read.\n',
    )
    .action(async (options: CheckFlags) => {
      if (options.json && options.format !== 'human' && options.format !== 'json')
        throw usageError(`--json and --format ${options.format} ask for two outputs; give one`);
      done(
        await check(io, {
          locale: options.locale,
          format: options.json ? 'json' : options.format,
          strict: options.strict ?? false,
          requireTranslations: options.requireTranslations ?? false,
        }),
      );
    });
}

/** `tolk translate`: the behind locales translated by a model. */
function addTranslate(program: Command, io: Io, done: Done): void {
  program
    .command('translate')
    .description(
      'Translate the missing and outdated keys of every behind locale with an AI model, write and upload them',
    )
    .option('-l, --locale <locale>', 'only this locale (repeatable)', collect, [])
    .addOption(
      new Option('--provider <name>', 'the AI provider (default: the project setting, else openai)').choices(
        AI_PROVIDERS,
      ),
    )
    .option('--model <model>', "the model (default: the project setting, else the provider's default)")
    .option(
      '--base-url <url>',
      'an OpenAI-compatible endpoint (Ollama, vLLM, a proxy...) or the provider URL to use',
    )
    .option(
      '--force',
      "translate again every key a model wrote, also those up to date (a person's translations are kept)",
    )
    .option(
      '--overwrite-human',
      "with --force, translate again a person's translations too (implies --force)",
    )
    .addOption(
      new Option(
        '--fix [level]',
        "send the keys whose translation has errors (--fix=warnings: or warnings) to the model, a person's text as the reference to keep",
      )
        .argParser(fixLevel)
        .preset('errors'),
    )
    .option(
      '--no-memory',
      'ask the model for every key: no translations of identical texts from translation memory, no examples',
    )
    .option('--concurrency <n>', 'batches sent to the model at once', wholeNumber(1, 32), 4)
    .option('--json', 'print the summary as JSON')
    .addHelpText(
      'after',
      examples(
        'OPENAI_API_KEY=sk-... tolk translate',
        'tolk translate --locale de --provider anthropic --model claude-haiku-4-5',
        'tolk translate --base-url http://localhost:11434/v1 --model llama3.1   # a local model',
      ) +
        "\nThe key comes from the provider's variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY," +
        '\nMISTRAL_API_KEY, DEEPSEEK_API_KEY, OPENROUTER_API_KEY), else from the key you stored in the dashboard.\n' +
        "\nA person's translations (edited in a target file and uploaded by `tolk push` or `translate`, or through" +
        '\nthe API) are never sent to the model again unless their source text changed; then the model gets the' +
        "\nperson's text as the reference to keep. --overwrite-human re-translates them like any other key." +
        '\n--fix sends the keys whose translation has errors (--fix=warnings: errors or warnings, as `tolk check`' +
        '\nsays them) with the text they have as the reference, and stores an answer only if it passes every rule.\n',
    )
    .action(
      async (options: {
        locale: string[];
        provider?: (typeof AI_PROVIDERS)[number];
        model?: string;
        baseUrl?: string;
        force?: boolean;
        memory: boolean;
        overwriteHuman?: boolean;
        fix?: FixLevel;
        concurrency: number;
        json?: boolean;
      }) => {
        done(
          await translate(io, {
            ...options,
            force: (options.force ?? false) || (options.overwriteHuman ?? false),
            overwriteHuman: options.overwriteHuman ?? false,
            json: options.json ?? false,
          }),
        );
      },
    );
}

/** `tolk pull`: the server's translations written into the files. */
function addPull(program: Command, io: Io, done: Done): void {
  program
    .command('pull')
    .description("Write the server's translations into the local locale files")
    .option('-l, --locale <locale>', 'only this locale (repeatable)', collect, [])
    .option('--json', 'print what was written as JSON')
    .option(
      '--force',
      "write the server's values also over local values that were never uploaded (else kept, exit 5)",
    )
    .addHelpText('after', examples('tolk pull', 'tolk pull --locale de --locale fr'))
    .action(async (options: { locale: string[]; json?: boolean; force?: boolean }) => {
      done(
        await pull(io, {
          locale: options.locale,
          json: options.json ?? false,
          force: options.force ?? false,
        }),
      );
    });
}

/** `tolk glossary export` and `tolk glossary import`. */
function addGlossary(program: Command, io: Io, done: Done): void {
  const glossary = program
    .command('glossary')
    .description("Export or import the project's glossary (terms and how to translate them) as CSV");
  glossary
    .command('export')
    .description('Write the glossary as CSV: term,case_sensitive,keep_as_is,note, then one column per locale')
    .option('--out <file>', 'write to this file (default: stdout)')
    .option('--json', 'print the entries (or, with --out, what was written) as JSON')
    .addHelpText(
      'after',
      examples('tolk glossary export --out glossary.csv', 'tolk glossary export > glossary.csv'),
    )
    .action(async (options: { out?: string; json?: boolean }) => {
      done(await glossaryExport(io, { out: options.out, json: options.json ?? false }));
    });
  glossary
    .command('import <file>')
    .description('Import a glossary CSV, all or nothing: entries of its terms are replaced, the others stay')
    .option('--replace', 'make the glossary exactly the file: entries whose terms it lacks are deleted')
    .option('--json', 'print the counts as JSON')
    .addHelpText(
      'after',
      examples('tolk glossary import glossary.csv', 'tolk glossary import glossary.csv --replace') +
        '\nThe CSV is UTF-8 with the header term,case_sensitive,keep_as_is,note,<locale>... (see the README).\n',
    )
    .action(async (file: string, options: { replace?: boolean; json?: boolean }) => {
      done(
        await glossaryImport(io, {
          file,
          replace: options.replace ?? false,
          json: options.json ?? false,
        }),
      );
    });
}

/** `tolk merge-driver`: git's merge driver for locale files, and its registration. */
function addMergeDriver(program: Command, io: Io, done: Done): void {
  program
    .command('merge-driver')
    .description(
      "Merge two branches' edits of a locale file key by key, in its own format (git runs it; register it with --install)",
    )
    .argument(
      '[files...]',
      'the ancestor, ours and theirs files and the path, as git gives them (%O %A %B %P)',
    )
    .option(
      '--install',
      "register it in this repository: .gitattributes lines for tolk.json's file sets, and git config",
    )
    .option('--uninstall', 'take it out of this repository again')
    .option('--command <command>', 'with --install: how git runs tolk', DRIVER_COMMAND)
    .option('--marker-size <n>', "the conflict markers' length (git's %L)", wholeNumber(1, 1000), 7)
    .option('--json', 'with --install or --uninstall: print the result as JSON')
    .addHelpText(
      'after',
      examples('tolk merge-driver --install', 'tolk merge-driver --install --command "npx tolk"') +
        '\nGit then merges the source and target files of tolk.json key by key: keys both sides added merge' +
        "\ncleanly; a key both sides changed differently is a conflict, marked around that key's entry.\n",
    )
    .action(
      async (
        files: string[],
        options: {
          install?: boolean;
          uninstall?: boolean;
          command: string;
          markerSize: number;
          json?: boolean;
        },
      ) => {
        if (options.install && options.uninstall) throw usageError('give --install or --uninstall, not both');
        if (options.install || options.uninstall) {
          if (files.length > 0) throw usageError('--install and --uninstall take no files');
          done(
            await registerMergeDriver(io, {
              uninstall: options.uninstall ?? false,
              command: options.command,
              json: options.json ?? false,
            }),
          );
          return;
        }
        checkDriverArguments(files);
        const [ancestor, ours, theirs, path] = files as [string, string, string, string | undefined];
        done(await mergeDriver(io, { ancestor, ours, theirs, path, markerSize: options.markerSize }));
      },
    );
}

/** The commands, in the order `tolk --help` lists them. */
const COMMANDS: readonly AddCommand[] = [
  addLogin,
  addLogout,
  addWhoami,
  addInit,
  addPush,
  addStatus,
  addCheck,
  addTranslate,
  addPull,
  addGlossary,
  addMergeDriver,
];

/** `--json`, or `tolk check --format json`: a failure is then also a JSON document on stdout. */
function wantsJson(argv: readonly string[]): boolean {
  const format = argv.indexOf('--format');
  return (
    argv.includes('--json') ||
    argv.includes('--format=json') ||
    (format !== -1 && argv[format + 1] === 'json')
  );
}

function reportError(error: unknown, io: Io, json: boolean): number {
  if (error instanceof CommanderError) {
    // Commander has printed the help, the version or what was wrong.
    const fine = ['commander.helpDisplayed', 'commander.version'].includes(error.code);
    return fine ? ExitCode.ok : ExitCode.usage;
  }
  const out = createOutput(io, json);
  if (error instanceof InterruptedError || io.signal.aborted) {
    io.stderr.write('Interrupted.\n');
    return INTERRUPTED;
  }
  if (error instanceof CliError) {
    out.error(error);
    return error.exitCode;
  }
  // A bug: say so plainly; the stack only on request.
  const message = error instanceof Error ? error.message : String(error);
  out.error(new CliError('UNEXPECTED', message, ExitCode.failure));
  if (io.env['TOLK_DEBUG'] && error instanceof Error && error.stack) io.stderr.write(error.stack + '\n');
  return ExitCode.failure;
}
