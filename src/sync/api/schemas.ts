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
