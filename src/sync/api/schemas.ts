// What the service sends, as zod schemas: tolerant of every documented variant (spec and
// live), normalised on the way in so the rest of the code sees one shape.
import { z } from 'zod';
import { canonicalChannel } from '../channels';

export const envelopeSchema = z.object({
  status: z.string().optional(),
  result: z.unknown(),
  pagination: z
    .object({
      offset: z.coerce.number().int().nonnegative().optional(),
      perPage: z.coerce.number().int().nonnegative().optional(),
      nextOffset: z.coerce.number().int().nonnegative().nullish(),
      totalSize: z.coerce.number().int().nonnegative().optional(),
    })
    .optional(),
});
export type Pagination = NonNullable<z.infer<typeof envelopeSchema>['pagination']>;

/** The spec shows `orgId`, the live service `id`; either becomes `id`. */
export const organizationSchema = z
  .object({
    id: z.union([z.string(), z.number()]).optional(),
    orgId: z.union([z.string(), z.number()]).optional(),
    name: z.string().default(''),
  })
  .refine((o) => o.id !== undefined || o.orgId !== undefined, 'organization has neither id nor orgId')
  .transform((o) => ({ id: String(o.id ?? o.orgId), name: o.name }));
export type Organization = z.infer<typeof organizationSchema>;

export const workspaceSchema = z.object({
  id: z.coerce.number().int(),
  name: z.string().default(''),
});
export type Workspace = z.infer<typeof workspaceSchema>;

export const submitResultSchema = z.object({ uniqueId: z.string().min(1) });

export const mediaStatusSchema = z.object({
  uniqueId: z.string().optional(),
  id: z.string().optional(),
  version: z.string().nullish(),
  source: z.string().nullish(),
  status: z
    .string()
    .min(1)
    .transform((s) => s.toUpperCase()),
});
export type MediaStatus = z.infer<typeof mediaStatusSchema>;

/** Scores are 0.0–1.0 on the scores endpoint but 0–100 elsewhere: never assume, normalise. */
const fraction = z
  .number()
  .nullish()
  .transform((v) => (v === null || v === undefined ? null : v > 1 ? v / 100 : v));
const count = z.coerce.number().int().nonnegative();

const channelSummarySchema = z.object({
  score: fraction,
  adherencePercent: fraction,
  passCount: count,
  failCount: count,
  applicableCount: count,
  notApplicableCount: count.default(0),
  notAvailableCount: count.default(0),
});
export type ChannelSummary = z.infer<typeof channelSummarySchema>;

/** Live detail items say `channelIdentifier`, the spec `channel`; legacy keys (FACEBOOK) are mapped. */
const detailItemSchema = z
  .object({
    name: z.string(),
    rule: z.string().nullish(),
    channel: z.string().optional(),
    channelIdentifier: z.string().optional(),
    result: z.string().min(1),
    weight: z.coerce.number().nullish(),
  })
  .refine((d) => d.channel ?? d.channelIdentifier, 'detail item has neither channel nor channelIdentifier')
  .transform((d) => ({
    name: d.name,
    rule: d.rule ?? null,
    channel: canonicalChannel(d.channel ?? d.channelIdentifier ?? ''),
    result: d.result.toUpperCase(),
    weight: d.weight ?? null,
  }));
export type DetailItem = z.infer<typeof detailItemSchema>;

export const scoreResultSchema = z
  .object({
    media: z
      .object({
        id: z.string().optional(),
        uniqueId: z.string().optional(),
        version: z.string().nullish(),
        name: z.string().nullish(),
        type: z.string().nullish(),
      })
      .default({}),
    summary: z.record(z.string(), channelSummarySchema).default({}),
    detail: z.array(detailItemSchema).default([]),
  })
  .transform((r) => ({
    media: r.media,
    // Legacy keys (FACEBOOK, TWITTER) become canonical; should both spellings appear, the first wins.
    summary: Object.entries(r.summary).reduce<Record<string, ChannelSummary>>((acc, [key, value]) => {
      const channel = canonicalChannel(key);
      acc[channel] ??= value;
      return acc;
    }, {}),
    detail: r.detail,
  }));
export type ScoreResult = z.infer<typeof scoreResultSchema>;

/** Application errors carry `error.type`/`traceId`; gateway errors (401) are flat. */
export const errorBodySchema = z.union([
  z.object({
    status: z.string().optional(),
    traceId: z.string().optional(),
    error: z.object({
      identifier: z.string().optional(),
      type: z.string().optional(),
      system: z.string().optional(),
      message: z.union([z.string(), z.array(z.string())]).optional(),
    }),
    result: z.unknown().optional(),
  }),
  z.object({
    statusCode: z.number().optional(),
    message: z.union([z.string(), z.array(z.string())]).optional(),
    error: z.string().optional(),
    traceId: z.string().optional(),
  }),
]);

/**
 * One guideline from POST /v1/scoring/criteria/metadata. `person` (the author) is personal
 * data and is deliberately not part of the parsed shape, so it can never reach a table or report.
 */
export const criterionSchema = z
  .object({
    id: z.union([z.string(), z.number()]).transform(String),
    name: z.string(),
    rule: z.string().nullish(),
    bestPractice: z.union([z.string(), z.boolean()]).nullish(),
    category: z.string().nullish(),
    channel: z.string().transform(canonicalChannel),
    consideration: z
      .string()
      .nullish()
      .transform((v) => v?.toUpperCase() ?? null),
    criteriaGroups: z
      .array(z.object({ id: z.union([z.string(), z.number()]), name: z.string().default('') }))
      .nullish(),
    creativeTypes: z.array(z.string()).nullish(),
    dateCreated: z.string().nullish(),
    organizationCriteria: z.boolean().nullish(),
    workspace: z.object({ id: z.coerce.number().int(), name: z.string().nullish() }).nullish(),
  })
  .transform((c) => ({
    id: c.id,
    name: c.name,
    rule: c.rule ?? null,
    bestPractice: c.bestPractice === undefined || c.bestPractice === null ? null : String(c.bestPractice),
    category: c.category ?? null,
    channel: c.channel,
    consideration: c.consideration,
    criteriaGroups: c.criteriaGroups ?? null,
    creativeTypes: c.creativeTypes ?? null,
    dateCreated: c.dateCreated ?? null,
    workspaceId: c.workspace?.id ?? null,
    organizationLevel: c.organizationCriteria ?? !c.workspace,
  }));
export type Criterion = z.infer<typeof criterionSchema>;

/** POST /v1/media/aperture answers with the job: `jobId` in the interface, `job_id` live. */
const tagJobIdFields = z.object({
  jobId: z.string().min(1).optional(),
  job_id: z.string().min(1).optional(),
});

/** A per-creative reason in a job's `errors`: usually text, sometimes an object; kept readable either way. */
const tagErrorReason = z.unknown().transform((v) => (typeof v === 'string' ? v : JSON.stringify(v)));

/**
 * A tagging job as polled (either spelling: `jobId`/`downloadUrlCsv` or `job_id`/`download_url_csv`).
 * Status is upper-cased and kept whatever it is: an unknown one means "still running".
 */
export const tagJobSchema = tagJobIdFields
  .extend({
    status: z
      .string()
      .min(1)
      .transform((s) => s.toUpperCase()),
    message: z.string().nullish(),
    downloadUrlCsv: z.string().min(1).nullish(),
    download_url_csv: z.string().min(1).nullish(),
    errors: z.record(z.string(), tagErrorReason).nullish(),
  })
  .transform((j) => ({
    jobId: j.jobId ?? j.job_id ?? null,
    status: j.status,
    message: j.message ?? null,
    downloadUrlCsv: j.downloadUrlCsv ?? j.download_url_csv ?? null,
    errors: j.errors ?? {},
  }));
export type TagJobRecord = z.infer<typeof tagJobSchema>;

/** The submission's answer must at least name the job; its status defaults to QUEUED. */
export const tagJobSubmitResultSchema = tagJobIdFields
  .extend({ status: z.string().optional() })
  .refine((j) => j.jobId ?? j.job_id, 'tagging job answer has neither jobId nor job_id')
  .transform((j) => ({
    jobId: (j.jobId ?? j.job_id) as string,
    status: (j.status ?? 'QUEUED').toUpperCase(),
  }));
