// Aperture tagging jobs: POST /v1/media/aperture and GET /v1/media/aperture/{jobId}. Jobs move
// QUEUED → PROCESSING → COMPLETED (or FAILED) on the simulated clock; a finished job's report is
// served by the storage server from short-lived signed links.
import { createHmac } from 'node:crypto';
import type { Clock } from '../clock';
import { tagRowsFor } from './aperture-report';
import type { SimulatorCore } from './core';
import type { Dialect } from './dialect';
import { badRequest, notFound } from './errors';
import { drawInt, sha256Hex, uuidFrom } from './hash';
import type { SimReply } from './http';
import { jsonBody } from './http';
import type { RouteContext } from './routes';
import type { RunningStorage, StorageRequest } from './storage';

/** The live service's limit, and its message. */
export const MAX_CREATIVES = 200;

export type TagJobStatus = 'QUEUED' | 'PROCESSING' | 'COMPLETED' | 'FAILED';

export interface SimulatedTagJob {
  orgId: string;
  jobId: string;
  creatives: { id: string; url: string }[];
  clientTags: Record<string, string>;
  createdAt: number;
  queuedMs: number;
  processingMs: number;
  /** Creative id → reason, for the creatives the job could not tag. */
  errors: Record<string, string>;
}

export interface ApertureFaults {
  /** The next n job submissions create the job, then reset the connection instead of answering. */
  resetAfterCreate: number;
  /** The next n report links handed out have already expired. */
  expiredLinks: number;
}

export interface ApertureOptions {
  clock: Clock;
  dialect: Dialect;
  /** How long a report link stays valid, in simulated minutes. @default 5 */
  linkMinutes?: number;
}

/** Deterministic per creative: a few cannot be tagged, always for the same reason. */
function failureOf(creative: { id: string; url: string }): string | undefined {
  if (/corrupt|untaggable/i.test(creative.url)) return 'Media could not be downloaded from the url';
  const seed = sha256Hex('aperture-fail', creative.id, creative.url);
  const roll = drawInt(seed, 'fail', 0, 99);
  if (roll < 4) return 'Media format is not supported for tagging';
  return undefined;
}

export class ApertureService {
  readonly clock: Clock;
  readonly dialect: Dialect;
  readonly linkMs: number;
  readonly faults: ApertureFaults = { resetAfterCreate: 0, expiredLinks: 0 };
  /** Set once the storage server listens. */
  storageUrl = '';
  readonly #jobs = new Map<string, SimulatedTagJob>();
  readonly #secret = sha256Hex('storage-secret', String(Math.random()));
  #counter = 0;

  constructor(options: ApertureOptions) {
    this.clock = options.clock;
    this.dialect = options.dialect;
    this.linkMs = (options.linkMinutes ?? 5) * 60_000;
  }

  jobs(): readonly SimulatedTagJob[] {
    return [...this.#jobs.values()];
  }

  job(jobId: string): SimulatedTagJob | undefined {
    return this.#jobs.get(jobId);
  }

  create(
    orgId: string,
    creatives: { id: string; url: string }[],
    clientTags: Record<string, string>,
    at: number,
  ): SimulatedTagJob {
    this.#counter++;
    const jobId = uuidFrom('aperture', orgId, String(this.#counter), String(at));
    const errors: Record<string, string> = {};
    for (const c of creatives) {
      const reason = failureOf(c);
      if (reason) errors[c.id] = reason;
    }
    const job: SimulatedTagJob = {
      orgId,
      jobId,
      creatives,
      clientTags,
      createdAt: at,
      queuedMs: drawInt(jobId, 'queued', 1, 4) * 60_000,
      // About 17 minutes for a short video, a little longer for a big batch.
      processingMs: (drawInt(jobId, 'processing', 10, 22) + Math.ceil(creatives.length / 25)) * 60_000,
      errors,
    };
    this.#jobs.set(jobId, job);
    return job;
  }

  statusAt(job: SimulatedTagJob, now: number): TagJobStatus {
    const elapsed = now - job.createdAt;
    if (elapsed < job.queuedMs) return 'QUEUED';
    if (elapsed < job.queuedMs + job.processingMs) return 'PROCESSING';
    return Object.keys(job.errors).length === job.creatives.length ? 'FAILED' : 'COMPLETED';
  }

  /** The creatives that made it into the report. */
  tagged(job: SimulatedTagJob): { id: string; url: string }[] {
    return job.creatives.filter((c) => job.errors[c.id] === undefined);
  }

  /** How many rows the job's report holds: what a client must end up with. */
  reportRowCount(job: SimulatedTagJob): number {
    return this.tagged(job).reduce((n, c) => n + tagRowsFor(c).length, 0);
  }

  signature(jobId: string, expires: number): string {
    return createHmac('sha256', this.#secret).update(`${jobId}\n${expires}`).digest('hex');
  }

  /** A fresh signed link, valid for `linkMs` from `now` (or already expired, when a fault asks). */
  link(job: SimulatedTagJob, now: number): string {
    let expires = now + this.linkMs;
    if (this.faults.expiredLinks > 0) {
      this.faults.expiredLinks--;
      expires = now - 1;
    }
    return `${this.storageUrl}/reports/${job.jobId}.csv?expires=${expires}&signature=${this.signature(job.jobId, expires)}`;
  }

  record(job: SimulatedTagJob, now: number): Record<string, unknown> {
    const status = this.statusAt(job, now);
    const total = job.creatives.length;
    let message: string | null = null;
    if (status === 'PROCESSING') {
      const done = Math.floor((total * (now - job.createdAt - job.queuedMs)) / job.processingMs);
      message = `Processed ${Math.min(done, total)} out of ${total} media.`;
    } else if (status === 'COMPLETED') {
      message = `Processed ${total} out of ${total} media.`;
    } else if (status === 'FAILED') {
      message = `Tagging failed for all ${total} media.`;
    }
    const finished = status === 'COMPLETED' || status === 'FAILED';
    const errors = finished && Object.keys(job.errors).length > 0 ? { ...job.errors } : undefined;
    const url = status === 'COMPLETED' ? this.link(job, now) : undefined;
    if (this.dialect === 'spec') {
      return {
        jobId: job.jobId,
        status,
        ...(message ? { message } : {}),
        ...(url ? { downloadUrlCsv: url } : {}),
        ...(errors ? { errors } : {}),
      };
    }
    const updatedAt = Math.min(
      now,
      status === 'QUEUED'
        ? job.createdAt
        : status === 'PROCESSING'
          ? job.createdAt + job.queuedMs
          : job.createdAt + job.queuedMs + job.processingMs,
    );
    return {
      job_id: job.jobId,
      status,
      message,
      date_created: new Date(job.createdAt).toISOString(),
      date_updated: new Date(updatedAt).toISOString(),
      download_url_csv: url ?? null,
      // The live record sometimes names a JSON report too; nothing serves it.
      download_url_json: null,
      creativeIdentifiers: job.creatives.map((c) => c.id),
      clientTags: { ...job.clientTags },
      ...(errors ? { errors } : {}),
    };
  }
}

const services = new WeakMap<SimulatorCore, ApertureService>();

/** Ties the tagging service to a simulator's core, so its routes find it. */
export function attachAperture(core: SimulatorCore, service: ApertureService): void {
  services.set(core, service);
}

function serviceOf(core: SimulatorCore): ApertureService {
  const service = services.get(core);
  if (!service) throw notFound('Tagging is not available on this simulator');
  return service;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The service's own validation messages, all problems at once. */
function parseTagRequest(body: unknown): {
  creatives: { id: string; url: string }[];
  clientTags: Record<string, string>;
} {
  const problems: string[] = [];
  if (!isObject(body)) throw badRequest(['creatives must be an array']);
  for (const key of Object.keys(body)) {
    if (key !== 'creatives' && key !== 'clientTags') problems.push(`property ${key} should not exist`);
  }
  const creatives: { id: string; url: string }[] = [];
  const list = body.creatives;
  if (!Array.isArray(list)) problems.push('creatives must be an array');
  else if (list.length === 0) problems.push('creatives must contain at least 1 elements');
  else if (list.length > MAX_CREATIVES)
    problems.push(`creatives must contain no more than ${MAX_CREATIVES} elements`);
  else {
    list.forEach((c, i) => {
      if (!isObject(c) || typeof c.id !== 'string' || c.id === '')
        problems.push(`creatives.${i}.id must be a non-empty string`);
      else if (typeof c.url !== 'string' || !/^https?:\/\//.test(c.url))
        problems.push(`creatives.${i}.url must be a URL address`);
      else creatives.push({ id: c.id, url: c.url });
    });
  }
  const clientTags: Record<string, string> = {};
  if (body.clientTags !== undefined && body.clientTags !== null) {
    if (!isObject(body.clientTags)) problems.push('clientTags must be an object');
    else {
      for (const [k, v] of Object.entries(body.clientTags)) {
        if (typeof v === 'string') clientTags[k] = v;
        else problems.push(`clientTags.${k} must be a string`);
      }
    }
  }
  if (problems.length > 0) throw badRequest(problems);
  return { creatives, clientTags };
}

export function postAperture(ctx: RouteContext): SimReply {
  const service = serviceOf(ctx.core);
  const request = parseTagRequest(jsonBody(ctx.req));
  const job = service.create(ctx.org.id, request.creatives, request.clientTags, ctx.req.at);
  if (service.faults.resetAfterCreate > 0) {
    service.faults.resetAfterCreate--;
    // The job exists, but its answer is lost: the client cannot tell whether it was made.
    ctx.req.raw.req.socket.destroy();
    return { status: 201 };
  }
  const record = service.record(job, ctx.req.at);
  return {
    status: 201,
    body: {
      status: 'OK',
      result: service.dialect === 'spec' ? { jobId: job.jobId, status: record.status } : record,
    },
  };
}

export function getAperture(ctx: RouteContext): SimReply {
  const service = serviceOf(ctx.core);
  const jobId = decodeURIComponent(ctx.params.jobId ?? '');
  const job = service.job(jobId);
  // Another organization's job does not exist for this key.
  if (!job || job.orgId !== ctx.org.id) throw notFound(`No tagging job with id '${jobId}'`);
  return { status: 200, body: { status: 'OK', result: service.record(job, ctx.req.at) } };
}

/** What a test (or the demo) can see of tagging: the jobs, their reports' size, storage's request log, and fault hooks. */
export interface ApertureHandle {
  /** Base URL of the storage server the report links point at. */
  storageUrl: string;
  /** Every job made, in creation order (a lost answer's job included). */
  jobs(): ReadonlyArray<SimulatedTagJob>;
  /** Job status at clock.now(). */
  status(jobId: string): TagJobStatus | undefined;
  /** How many rows the job's report holds (0 until known; counts only creatives that were tagged). */
  reportRowCount(jobId: string): number;
  /** Every request storage received, with its headers. */
  storageRequests(): ReadonlyArray<StorageRequest>;
  /** Test-only faults; set a count and that many of the next submissions or links misbehave. */
  faults: ApertureFaults;
}

export function apertureHandle(service: ApertureService, storage: RunningStorage): ApertureHandle {
  return {
    storageUrl: storage.url,
    jobs: () => service.jobs().map((j) => structuredClone(j)),
    status(jobId) {
      const job = service.job(jobId);
      return job ? service.statusAt(job, service.clock.now()) : undefined;
    },
    reportRowCount(jobId) {
      const job = service.job(jobId);
      return job ? service.reportRowCount(job) : 0;
    },
    storageRequests: () => storage.requests(),
    faults: service.faults,
  };
}
