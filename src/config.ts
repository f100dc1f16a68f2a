// Every setting in one zod schema, with its environment name, description and default.
// Sources, strongest first: command-line flags, the environment, a `.env` file in the working folder.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { z } from 'zod';

const machineTimeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

const wholeNumber = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** The settings, as a user sees them. `.describe()` text is what `--help` and the README say. */
export const settingsSchema = z.object({
  apiUrl: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe('Base URL of the Creative Scoring Service. Unset: demo mode on the built-in simulator.'),
  apiKey: z
    .string()
    .min(1)
    .optional()
    .describe('API key of the organization (environment or .env only, never a flag). Required with the URL.'),
  manifestDir: z.string().min(1).default('./manifests').describe('Folder where people drop asset manifests.'),
  keepManifests: z
    .stringbool()
    .default(false)
    .describe(
      'Leave manifest files where they are once read (for a folder another system overwrites), instead of moving them to processed/ or failed/.',
    ),
  manifestSettleSeconds: wholeNumber(0, 600)
    .default(5)
    .describe('A manifest is read only once its size and time have not changed for this many seconds.'),
  databasePath: z.string().min(1).default('./data/creative-sync.db').describe('SQLite database file.'),
  reportDir: z.string().min(1).default('./reports').describe('Folder for the Excel reports.'),
  pollIntervalSeconds: wholeNumber(1, 86_400)
    .default(600)
    .describe('Seconds between two status polls of one asset (the service asks for 10–15 minutes).'),
  maxRunMinutes: wholeNumber(1, 24 * 60)
    .default(120)
    .describe('How long one run keeps polling before it leaves the rest to the next run.'),
  stalledAfterHours: wholeNumber(1, 24 * 365)
    .default(48)
    .describe(
      'An asset still in flight this long after submission is flagged stalled (and polled less often).',
    ),
  schedule: z.string().min(1).default('0 2 * * *').describe('Cron expression for `schedule`.'),
  timezone: z.string().min(1).default(machineTimeZone).describe('Time zone for the schedule.'),
  logLevel: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('How much to log.'),
  requestsPerSecond: wholeNumber(1, 100).default(5).describe('Most API requests started per second.'),
  concurrency: wholeNumber(1, 32).default(4).describe('Most API requests in flight at once.'),
  tagging: z
    .stringbool()
    .default(true)
    .describe('Whether new assets are sent for tagging (Aperture jobs) and their tag reports fetched.'),
  tagBatchSize: wholeNumber(1, 200)
    .default(200)
    .describe('Most creatives in one tagging job (the service allows 200).'),
  urlPreflight: z
    .stringbool()
    .default(true)
    .describe(
      'Check each new asset url before submitting it (a HEAD request): redirects, log-in walls and web pages are flagged, since the service fails them without an error.',
    ),
  holdFlaggedUrls: z
    .stringbool()
    .default(false)
    .describe('Hold back assets whose url the check flagged, instead of submitting them anyway.'),
  reportAllVersions: z
    .stringbool()
    .default(false)
    .describe('Whether the report rollups count every version of an asset, not only the newest.'),
});

export type Settings = z.infer<typeof settingsSchema>;
export type SettingKey = keyof Settings;

/** Environment variable of each setting. */
export const environmentNames = {
  apiUrl: 'SCORING_API_URL',
  apiKey: 'SCORING_API_KEY',
  manifestDir: 'MANIFEST_DIR',
  keepManifests: 'KEEP_MANIFESTS',
  manifestSettleSeconds: 'MANIFEST_SETTLE_SECONDS',
  databasePath: 'DATABASE_PATH',
  reportDir: 'REPORT_DIR',
  pollIntervalSeconds: 'POLL_INTERVAL_SECONDS',
  maxRunMinutes: 'MAX_RUN_MINUTES',
  stalledAfterHours: 'STALLED_AFTER_HOURS',
  schedule: 'SYNC_SCHEDULE',
  timezone: 'SYNC_TIMEZONE',
  logLevel: 'LOG_LEVEL',
  requestsPerSecond: 'API_REQUESTS_PER_SECOND',
  concurrency: 'API_CONCURRENCY',
  tagging: 'TAGGING',
  tagBatchSize: 'TAG_BATCH_SIZE',
  urlPreflight: 'URL_PREFLIGHT',
  holdFlaggedUrls: 'HOLD_FLAGGED_URLS',
  reportAllVersions: 'REPORT_ALL_VERSIONS',
} as const satisfies Record<SettingKey, string>;

/** The settings a run works with, after demo mode has been decided. */
export interface Config extends Settings {
  mode: 'demo' | 'live';
  /** Where the demo simulator keeps the media it has seen, so a second demo run meets the same service. */
  simulatorStatePath: string;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`The configuration is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** The project's own sample manifests, used by demo mode. */
export const examplesDir = resolve(dirname(fileURLToPath(import.meta.url)), '../examples');

export interface LoadConfigOptions {
  env?: NodeJS.ProcessEnv;
  /** Values from command-line flags; `undefined` means "not given". */
  flags?: Partial<Record<Exclude<SettingKey, 'apiKey'>, string | number | undefined>>;
  /** Folder holding the `.env` file; default: the working folder. */
  cwd?: string;
}

export function loadConfig(options: LoadConfigOptions = {}): Config {
  const cwd = options.cwd ?? process.cwd();
  const env = { ...readDotEnv(cwd), ...(options.env ?? process.env) };
  const raw: Record<string, unknown> = {};
  for (const [key, name] of Object.entries(environmentNames)) {
    const value = env[name];
    if (value !== undefined && value.trim() !== '') raw[key] = value.trim();
  }
  for (const [key, value] of Object.entries(options.flags ?? {})) {
    if (value !== undefined) raw[key] = value;
  }

  // A key pasted into the wrong setting (the URL, say) must not be echoed either.
  const apiKey = typeof raw.apiKey === 'string' ? raw.apiKey : '';
  const hideKey = (text: string) => (apiKey === '' ? text : text.split(apiKey).join('(hidden)'));
  const parsed = settingsSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const key = issue.path[0] as SettingKey;
        const shown = key === 'apiKey' ? '(hidden)' : hideKey(JSON.stringify(raw[key]));
        return `${environmentNames[key] ?? key}: ${issue.message} (got ${shown}).`;
      }),
    );
  }
  const settings = parsed.data;
  validateTimeZone(settings.timezone, hideKey);

  if (settings.apiUrl) {
    if (!settings.apiKey) {
      throw new ConfigError([
        'SCORING_API_KEY is not set. Put the key in the environment or in a .env file beside where you run creative-sync.',
      ]);
    }
    return {
      ...settings,
      mode: 'live',
      simulatorStatePath: join(dirname(settings.databasePath), 'demo-simulator.json'),
    };
  }

  // Demo mode: its own database and report folder, so simulated data never mixes with real data.
  const dataDir = dirname(settings.databasePath);
  return {
    ...settings,
    mode: 'demo',
    manifestDir: raw.manifestDir === undefined ? examplesDir : settings.manifestDir,
    // The sample manifests belong to the project: read, never moved; their urls are made up.
    keepManifests: raw.manifestDir === undefined ? true : settings.keepManifests,
    urlPreflight: raw.manifestDir === undefined ? false : settings.urlPreflight,
    databasePath: join(dataDir, 'demo.db'),
    reportDir: join(settings.reportDir, 'demo'),
    simulatorStatePath: join(dataDir, 'demo-simulator.json'),
  };
}

function readDotEnv(cwd: string): Record<string, string> {
  const path = join(cwd, '.env');
  if (!existsSync(path)) return {};
  return parseEnv(readFileSync(path, 'utf8')) as Record<string, string>;
}

function validateTimeZone(timeZone: string, hideKey: (text: string) => string): void {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
  } catch {
    throw new ConfigError([
      hideKey(`SYNC_TIMEZONE: '${timeZone}' is not a time zone name such as Europe/Berlin.`),
    ]);
  }
}
