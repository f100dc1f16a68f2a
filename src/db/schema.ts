// The one place that defines the database: every table of the data model, as drizzle tables.
// Times are integer milliseconds since the epoch (the injected clock's unit); version and
// source are '' when absent, never NULL, because SQLite treats NULLs as distinct in UNIQUE.
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/** Local sync states: the answer to "what happens to this asset next". */
export const syncStates = [
  'pending',
  'submitted',
  'complete',
  'scored',
  'unsupported',
  'failed',
  'rejected',
  'forbidden',
  'stalled',
] as const;
export type SyncState = (typeof syncStates)[number];

/** States that are still the run's business: submitted and waiting, or complete and waiting for scores. */
export const inFlightStates = ['submitted', 'complete', 'stalled'] as const satisfies readonly SyncState[];

export const organizations = sqliteTable('organizations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  fetchedAt: integer('fetched_at').notNull(),
});

export const workspaces = sqliteTable('workspaces', {
  id: integer('id').primaryKey(),
  organizationId: text('organization_id').references(() => organizations.id),
  name: text('name').notNull(),
  fetchedAt: integer('fetched_at').notNull(),
});

export const manifestFiles = sqliteTable(
  'manifest_files',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    path: text('path').notNull(),
    sha256: text('sha256').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    /** `read` when parsed (possibly with rejected rows), `unreadable` when nothing could be parsed. */
    status: text('status', { enum: ['read', 'unreadable'] }).notNull(),
    rowsRead: integer('rows_read').notNull().default(0),
    rowsAccepted: integer('rows_accepted').notNull().default(0),
    rowsRejected: integer('rows_rejected').notNull().default(0),
    firstSeenAt: integer('first_seen_at').notNull(),
    lastReadAt: integer('last_read_at').notNull(),
  },
  (t) => [uniqueIndex('manifest_files_path_unique').on(t.path)],
);

export const manifestErrors = sqliteTable(
  'manifest_errors',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    manifestFileId: integer('manifest_file_id')
      .notNull()
      .references(() => manifestFiles.id, { onDelete: 'cascade' }),
    /** 1-based line of a CSV file, or 1-based item number in a JSON file; null for the whole file. */
    line: integer('line'),
    field: text('field'),
    value: text('value'),
    message: text('message').notNull(),
    /** `error`: the row was rejected; `warning`: the row went in, but something needs a look. */
    severity: text('severity', { enum: ['error', 'warning'] })
      .notNull()
      .default('error'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('manifest_errors_file_idx').on(t.manifestFileId)],
);

export const assets = sqliteTable(
  'assets',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    clientId: text('client_id').notNull(),
    version: text('version').notNull().default(''),
    source: text('source').notNull().default(''),
    url: text('url').notNull(),
    name: text('name'),
    description: text('description'),
    workspaceId: integer('workspace_id'),
    manifestFileId: integer('manifest_file_id').references(() => manifestFiles.id, { onDelete: 'set null' }),
    manifestLine: integer('manifest_line'),
    /** The service's uniqueId, known once a submission succeeded. */
    uniqueId: text('unique_id'),
    /** The service's media status as last seen (PROCESSING, ERROR, COMPLETE, UNSUPPORTED, FAILED, or anything new). */
    remoteStatus: text('remote_status'),
    mediaType: text('media_type'),
    /** Whether the asset is to be tagged (the manifest's `tag` column, or the default). */
    tagWanted: integer('tag_wanted', { mode: 'boolean' }).notNull().default(true),
    /** Extra `tag:<name>` columns of the manifest, sent as clientTags with the tagging job. */
    clientTags: text('client_tags', { mode: 'json' }).$type<Record<string, string>>(),
    /** The asset this version was created from by `rescore`, if any. */
    rescoreOf: integer('rescore_of'),
    syncState: text('sync_state', { enum: syncStates }).notNull().default('pending'),
    submitAttempts: integer('submit_attempts').notNull().default(0),
    pollCount: integer('poll_count').notNull().default(0),
    /** Consecutive polls that answered ERROR; drives the backoff. */
    errorPolls: integer('error_polls').notNull().default(0),
    nextPollAt: integer('next_poll_at'),
    lastPolledAt: integer('last_polled_at'),
    lastError: text('last_error'),
    lastErrorKind: text('last_error_kind'),
    lastTraceId: text('last_trace_id'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    submittedAt: integer('submitted_at'),
    completedAt: integer('completed_at'),
    scoredAt: integer('scored_at'),
    /** Why the url is likely to fail silently at the service (url-preflight.ts); null when fine or not checked. */
    urlFlag: text('url_flag'),
    /** When the url was checked; null: not yet (or checks are off). */
    urlCheckedAt: integer('url_checked_at'),
  },
  (t) => [
    uniqueIndex('assets_key_unique').on(t.clientId, t.version, t.source),
    index('assets_due_idx').on(t.syncState, t.nextPollAt),
    index('assets_unique_id_idx').on(t.uniqueId),
  ],
);

const assetValueTable = <N extends string>(table: N, column: string) =>
  sqliteTable(
    table,
    {
      assetId: integer('asset_id')
        .notNull()
        .references(() => assets.id, { onDelete: 'cascade' }),
      value: text(column).notNull(),
    },
    // No index on the value: every query reaches these rows by asset, and one cost intake a third of its writes.
    (t) => [primaryKey({ columns: [t.assetId, t.value] })],
  );

export const assetBrands = assetValueTable('asset_brands', 'brand');
export const assetMarkets = assetValueTable('asset_markets', 'market');
/** Channels the manifest asked for (canonical identifiers). */
export const assetChannels = assetValueTable('asset_channels', 'channel');

export const channelScores = sqliteTable(
  'channel_scores',
  {
    assetId: integer('asset_id')
      .notNull()
      .references(() => assets.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    /** Weighted score, normalised to 0.0–1.0. */
    score: real('score'),
    /** Unweighted pass rate, normalised to 0.0–1.0. */
    adherence: real('adherence'),
    passCount: integer('pass_count').notNull(),
    failCount: integer('fail_count').notNull(),
    applicableCount: integer('applicable_count').notNull(),
    notApplicableCount: integer('not_applicable_count').notNull(),
    notAvailableCount: integer('not_available_count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.assetId, t.channel] }), index('channel_scores_channel_idx').on(t.channel)],
);

export const guidelineResults = sqliteTable(
  'guideline_results',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    assetId: integer('asset_id')
      .notNull()
      .references(() => assets.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    name: text('name').notNull(),
    rule: text('rule'),
    /** PASS, FAIL, NOT_APPLICABLE, NO_DATA or any NO_DATA_* code, stored as it came. */
    result: text('result').notNull(),
    weight: real('weight'),
    /** The discovered guideline this result belongs to, when it could be matched. */
    guidelineId: text('guideline_id'),
  },
  (t) => [index('guideline_results_asset_idx').on(t.assetId, t.channel)],
);

export const runOutcomes = ['running', 'completed', 'failed', 'interrupted'] as const;
export type RunOutcome = (typeof runOutcomes)[number];

export const runs = sqliteTable('runs', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  startedAt: integer('started_at').notNull(),
  finishedAt: integer('finished_at'),
  outcome: text('outcome', { enum: runOutcomes }).notNull().default('running'),
  /** `demo` on the built-in simulator, `live` against a configured API. */
  mode: text('mode', { enum: ['demo', 'live'] }).notNull(),
  filesRead: integer('files_read').notNull().default(0),
  rowsAccepted: integer('rows_accepted').notNull().default(0),
  rowsRejected: integer('rows_rejected').notNull().default(0),
  submitted: integer('submitted').notNull().default(0),
  polled: integer('polled').notNull().default(0),
  scored: integer('scored').notNull().default(0),
  finalFailures: integer('final_failures').notNull().default(0),
  stillInFlight: integer('still_in_flight').notNull().default(0),
  apiCalls: integer('api_calls').notNull().default(0),
  /** API calls by endpoint, as a JSON object. */
  apiCallsByEndpoint: text('api_calls_by_endpoint', { mode: 'json' }).$type<Record<string, number>>(),
  /** Counts of the stages beyond the columns above (tagging, retries, …), as a JSON object. */
  details: text('details', { mode: 'json' }).$type<Record<string, number | string>>(),
  /** Why the run stopped early, or what failed. */
  note: text('note'),
  reportPath: text('report_path'),
});

/** Criteria metadata from discovery: every guideline of the organization and its workspaces. */
export const guidelines = sqliteTable(
  'guidelines',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    rule: text('rule'),
    category: text('category'),
    channel: text('channel').notNull(),
    /** MANDATORY or OPTIONAL. */
    consideration: text('consideration'),
    bestPractice: text('best_practice'),
    creativeTypes: text('creative_types', { mode: 'json' }).$type<string[]>(),
    criteriaGroups: text('criteria_groups', { mode: 'json' }).$type<
      { id: string | number; name: string }[]
    >(),
    /** Null for an organization-wide guideline. */
    workspaceId: integer('workspace_id'),
    organizationLevel: integer('organization_level', { mode: 'boolean' }).notNull().default(false),
    dateCreated: text('date_created'),
    fetchedAt: integer('fetched_at').notNull(),
  },
  (t) => [index('guidelines_channel_name_idx').on(t.channel, t.name)],
);

/** Something found wrong with an asset's results (e.g. summary counts that disagree with the detail). */
export const assetIssues = sqliteTable(
  'asset_issues',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    assetId: integer('asset_id')
      .notNull()
      .references(() => assets.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    channel: text('channel'),
    message: text('message').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('asset_issues_asset_idx').on(t.assetId)],
);

export const tagJobStates = ['intent', 'submitted', 'completed', 'failed', 'ambiguous', 'abandoned'] as const;
export type TagJobState = (typeof tagJobStates)[number];

/** One Aperture tagging job; the row is written (as `intent`) before the POST, since a POST is not idempotent. */
export const tagJobs = sqliteTable(
  'tag_jobs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The service's jobId, known once the submission answered. */
    jobId: text('job_id'),
    state: text('state', { enum: tagJobStates }).notNull().default('intent'),
    /** The service's job status as last seen (QUEUED, PROCESSING, COMPLETED, FAILED, or anything new). */
    remoteStatus: text('remote_status'),
    /** The service's progress message, e.g. "Processed 4 out of 12 media." */
    message: text('message'),
    clientTags: text('client_tags', { mode: 'json' }).$type<Record<string, string>>(),
    creativeCount: integer('creative_count').notNull(),
    submitAttempts: integer('submit_attempts').notNull().default(0),
    pollCount: integer('poll_count').notNull().default(0),
    nextPollAt: integer('next_poll_at'),
    reportRows: integer('report_rows'),
    lastError: text('last_error'),
    lastErrorKind: text('last_error_kind'),
    lastTraceId: text('last_trace_id'),
    runId: integer('run_id'),
    createdAt: integer('created_at').notNull(),
    submittedAt: integer('submitted_at'),
    completedAt: integer('completed_at'),
    downloadedAt: integer('downloaded_at'),
  },
  (t) => [index('tag_jobs_state_idx').on(t.state, t.nextPollAt), index('tag_jobs_job_id_idx').on(t.jobId)],
);

/** Which assets each tagging job carried, and how each fared. */
export const tagJobCreatives = sqliteTable(
  'tag_job_creatives',
  {
    tagJobId: integer('tag_job_id')
      .notNull()
      .references(() => tagJobs.id, { onDelete: 'cascade' }),
    assetId: integer('asset_id')
      .notNull()
      .references(() => assets.id, { onDelete: 'cascade' }),
    /** The creative id sent to the service. */
    creativeId: text('creative_id').notNull(),
    state: text('state', { enum: ['pending', 'tagged', 'failed'] })
      .notNull()
      .default('pending'),
    error: text('error'),
  },
  (t) => [
    primaryKey({ columns: [t.tagJobId, t.assetId] }),
    index('tag_job_creatives_asset_idx').on(t.assetId),
  ],
);

/** The rows of the tag reports. The columns are not documented: the known ones are kept, and every row whole. */
export const creativeTags = sqliteTable(
  'creative_tags',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tagJobId: integer('tag_job_id')
      .notNull()
      .references(() => tagJobs.id, { onDelete: 'cascade' }),
    assetId: integer('asset_id').references(() => assets.id, { onDelete: 'set null' }),
    creativeId: text('creative_id'),
    tagType: text('tag_type'),
    tagName: text('tag_name'),
    tagValue: text('tag_value'),
    confidence: real('confidence'),
    startTime: real('start_time'),
    endTime: real('end_time'),
    raw: text('raw', { mode: 'json' }).$type<Record<string, string>>().notNull(),
  },
  (t) => [index('creative_tags_job_idx').on(t.tagJobId), index('creative_tags_asset_idx').on(t.assetId)],
);

export type Asset = typeof assets.$inferSelect;
export type NewAsset = typeof assets.$inferInsert;
export type ChannelScore = typeof channelScores.$inferSelect;
export type GuidelineResult = typeof guidelineResults.$inferSelect;
export type Run = typeof runs.$inferSelect;
export type ManifestFile = typeof manifestFiles.$inferSelect;
export type ManifestError = typeof manifestErrors.$inferSelect;
export type Guideline = typeof guidelines.$inferSelect;
export type AssetIssue = typeof assetIssues.$inferSelect;
export type TagJob = typeof tagJobs.$inferSelect;
export type TagJobCreative = typeof tagJobCreatives.$inferSelect;
export type CreativeTag = typeof creativeTags.$inferSelect;

/** Used in SQL as the set of assets a rollup counts: the newest version of each (client id, source). */
export const newestVersionFilter = sql`${assets.id} IN (SELECT MAX(id) FROM assets GROUP BY client_id, source)`;
