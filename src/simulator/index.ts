// The simulator's public surface: start a loopback stand-in of the Creative Scoring Service on
// an injected clock, and inspect what it was asked and what it decided.
import type { AddressInfo } from 'node:net';
import type { Clock } from '../clock';
import { type ApertureHandle, ApertureService, apertureHandle, attachAperture } from './aperture';
import { SimulatorCore } from './core';
import type { Dialect } from './dialect';
import { checkFaultOptions, type FaultOptions, faultLayer, type InjectedFault } from './faults';
import { defaultFixture, type SimulatorFixture } from './fixture';
import type { CanonicalScoreResult } from './scores';
import type { RecordedRequest } from './server';
import { createSimulatorServer } from './server';
import { MediaRegistry, type SimulatedMedia } from './state';
import { startStorage } from './storage';

export type { ApertureFaults, ApertureHandle, SimulatedTagJob, TagJobStatus } from './aperture';
export type { Dialect } from './dialect';
export type { FaultKind, FaultOptions, InjectedFault } from './faults';
export { faultKinds } from './faults';
export type {
  Consideration,
  CreativeType,
  FixtureGuideline,
  FixtureOrganization,
  FixtureWorkspace,
  SimulatorFixture,
} from './fixture';
export { DEMO_API_KEY, defaultFixture, GLOBEX_API_KEY } from './fixture';
export type { ChannelSummary, MediaStatus, MediaType } from './outcome';
export type { CanonicalDetailItem, CanonicalScoreResult } from './scores';
export type { RecordedRequest } from './server';
export type { SimulatedMedia } from './state';

export interface SimulatorOptions {
  clock: Clock;
  /** Answer style: 'spec' (service-interface.md) or 'live' (live-service-notes.md). @default 'spec' */
  dialect?: Dialect;
  /** @default defaultFixture() */
  fixture?: SimulatorFixture;
  /** Range of simulated scoring durations, in minutes. @default [8, 45] */
  processingMinutes?: [number, number];
  /** When set: the media registry (and last clock time) is loaded from and saved to this JSON file. */
  statePath?: string;
  /** Client ids whose score summaries deliberately disagree with their detail (one PASS too many), for testing the client's checks. */
  inconsistentScores?: readonly string[];
  /** Seeded faults (429, 5xx, resets, slow or garbled answers) on a share of requests. @default none */
  faults?: FaultOptions;
  /** How long a tag report's signed link stays valid, in simulated minutes. @default 5 */
  tagReportLinkMinutes?: number;
  /** Loopback address of the storage server that serves tag reports (another host than the API's). @default '127.0.0.2' */
  storageHost?: string;
  /** @default 0 (ephemeral) */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
}

export interface RunningSimulator {
  /** Base URL, e.g. 'http://127.0.0.1:41234'; paths start with /v1. */
  url: string;
  close(): Promise<void>;
  /** `mediaCreated` and `duplicateSubmits` include a loaded state; request counts are this process's. */
  stats(): {
    mediaCreated: number;
    duplicateSubmits: number;
    requests: number;
    requestsByEndpoint: Record<string, number>;
  };
  requests(): ReadonlyArray<RecordedRequest>;
  /** Every fault injected, in arrival order. */
  faults(): ReadonlyArray<InjectedFault>;
  /** Everything created, in creation order. */
  media(): ReadonlyArray<SimulatedMedia>;
  /** The score result exactly as scored (canonical channel ids, `channel` in detail), or undefined if not COMPLETE at clock.now(). */
  scoreResult(uniqueId: string): CanonicalScoreResult | undefined;
  /** Status at clock.now(). */
  status(uniqueId: string): string | undefined;
  /** Latest clock time the persisted state has seen (so a demo process can restart its clock after it). */
  lastClockTime(): number | undefined;
  /** Tagging (Aperture) jobs, their reports' storage server, and its test-only faults. */
  aperture: ApertureHandle;
}

function checkProcessingMinutes(range: [number, number]): [number, number] {
  const [min, max] = range;
  if (!Number.isFinite(min) || !Number.isFinite(max) || min < 0 || max < min) {
    throw new RangeError(
      `Expected processingMinutes to be [min, max] with 0 <= min <= max, got [${min}, ${max}]`,
    );
  }
  return [min, max];
}

export async function startSimulator(options: SimulatorOptions): Promise<RunningSimulator> {
  const registry = new MediaRegistry(options.statePath);
  const core = new SimulatorCore({
    clock: options.clock,
    dialect: options.dialect ?? 'spec',
    fixture: options.fixture ?? defaultFixture(),
    processingMinutes: checkProcessingMinutes(options.processingMinutes ?? [8, 45]),
    inconsistentScores: new Set(options.inconsistentScores ?? []),
    registry,
  });
  const tagging = new ApertureService({
    clock: options.clock,
    dialect: core.dialect,
    linkMinutes: options.tagReportLinkMinutes,
  });
  attachAperture(core, tagging);
  const storage = await startStorage(tagging, options.storageHost);
  tagging.storageUrl = storage.url;
  const injected: InjectedFault[] = [];
  const layers = options.faults ? [faultLayer(checkFaultOptions(options.faults), core.clock, injected)] : [];
  const { server, log } = createSimulatorServer(core, layers);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closed: Promise<void> | undefined;

  return {
    url: `http://${urlHost}:${port}`,
    close() {
      // Once only: a second server.close() rejects with ERR_SERVER_NOT_RUNNING.
      closed ??= Promise.all([
        new Promise<void>((resolve, reject) => {
          registry.flush();
          server.close((error) => (error ? reject(error) : resolve()));
          // Keep-alive sockets of clients would otherwise hold close() open.
          server.closeAllConnections();
        }),
        storage.close(),
      ]).then(() => undefined);
      return closed;
    },
    stats: () => ({
      mediaCreated: registry.all().length,
      duplicateSubmits: registry.duplicateSubmits,
      requests: log.total,
      requestsByEndpoint: { ...log.byEndpoint },
    }),
    requests: () => log.requests,
    faults: () => injected,
    media: () => registry.all().map((m) => structuredClone(m)),
    scoreResult(uniqueId) {
      const media = registry.findUniqueId(uniqueId);
      return media ? core.scoreResult(media, core.clock.now()) : undefined;
    },
    status(uniqueId) {
      const media = registry.findUniqueId(uniqueId);
      return media ? core.statusOf(media, core.clock.now()) : undefined;
    },
    lastClockTime: () => registry.lastClockTime,
    aperture: apertureHandle(tagging, storage),
  };
}
