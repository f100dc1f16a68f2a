// The commands and their flags (commander). Each command lives in its own file; this one
// only wires flags to settings.
import { Command, Option } from 'commander';
import type { LoadConfigOptions } from '../config';
import { doctorCommand } from './doctor';
import { reportCommand } from './report';
import { rescoreCommand } from './rescore';
import { runCommand } from './run';
import { scheduleCommand } from './schedule';
import { simulatorCommand } from './simulator';
import { statusCommand } from './status';

export type Flags = NonNullable<LoadConfigOptions['flags']>;

/** Flags shared by the commands that work on the database; each overrides its environment variable. */
function withSettings(command: Command): Command {
  return command
    .option('--manifest-dir <dir>', 'manifest drop folder (MANIFEST_DIR)')
    .option('--database <file>', 'SQLite database file (DATABASE_PATH)')
    .option('--report-dir <dir>', 'report folder (REPORT_DIR)')
    .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (LOG_LEVEL)');
}

export function flagsOf(options: Record<string, string | undefined>): Flags {
  return {
    manifestDir: options.manifestDir,
    databasePath: options.database,
    reportDir: options.reportDir,
    logLevel: options.logLevel,
    pollIntervalSeconds: options.pollInterval,
    maxRunMinutes: options.maxRunMinutes,
    schedule: options.schedule,
    timezone: options.timezone,
  };
}

export function buildProgram(): Command {
  const program = new Command('creative-sync')
    .description(
      'Submits creative assets from manifest files to the Creative Scoring Service, keeps their state in SQLite and writes Excel rollups.\nWithout SCORING_API_URL it runs in demo mode against a built-in simulator.',
    )
    .showHelpAfterError();

  withSettings(program.command('run'))
    .description('one full run: read manifests, submit what is new, poll, fetch scores, write the report')
    .option('--poll-interval <seconds>', 'seconds between status polls of one asset (POLL_INTERVAL_SECONDS)')
    .option('--max-run-minutes <minutes>', 'how long this run keeps polling (MAX_RUN_MINUTES)')
    .option('--wait', 'if another run is in progress, wait for it to finish instead of exiting at once')
    .option(
      '--dry-run',
      'read the manifests and say what would be submitted, held back and rejected; change nothing',
    )
    .action((options) =>
      runCommand(flagsOf(options), { wait: Boolean(options.wait), dryRun: Boolean(options.dryRun) }),
    );

  withSettings(program.command('schedule'))
    .description('stay in the foreground and run on the cron schedule, never two runs at once')
    .option('--schedule <cron>', 'cron expression (SYNC_SCHEDULE)')
    .option('--timezone <zone>', 'time zone of the schedule (SYNC_TIMEZONE)')
    .action((options) => scheduleCommand(flagsOf(options)));

  withSettings(program.command('report'))
    .description('rewrite the Excel report from the database alone, no API calls')
    .action((options) => reportCommand(flagsOf(options)));

  withSettings(program.command('status'))
    .description('what is where: counts by state, what is due next, the last runs')
    .option('--json', 'print JSON for scripts')
    .action((options) => statusCommand(flagsOf(options), { json: Boolean(options.json) }));

  withSettings(program.command('doctor'))
    .description('check settings, folders, the database, the schedule and (when configured) the API key')
    .option('--json', 'print JSON for scripts')
    .action((options) => doctorCommand(flagsOf(options), { json: Boolean(options.json) }));

  withSettings(program.command('rescore'))
    .description('create new versions of chosen assets so the next run has them scored again')
    .option('--id <ids...>', 'client ids of the assets')
    .option('--brand <brands...>', 'every asset of these brands')
    .option('--rescore-later', 'every asset whose results carry a "rescore later" NO_DATA code')
    .option('--dry-run', 'list what would be re-scored, change nothing')
    .action((options) => rescoreCommand(flagsOf(options), options));

  program
    .command('simulator')
    .description('serve the built-in stand-in of the service on a port (for trying things out and for tests)')
    .option('--port <port>', 'port on 127.0.0.1', '4010')
    .option('--speed <factor>', 'simulated time runs this many times faster than real time', '60')
    .addOption(
      new Option('--dialect <dialect>', 'answer as the spec or as the live service')
        .choices(['spec', 'live'])
        .default('spec'),
    )
    .option('--state <file>', 'keep the media it has seen in this JSON file')
    .action((options) => simulatorCommand(options));

  return program;
}
