// The simulator's shared state and the questions asked of it by both the HTTP routes and the
// test-facing handle: which organization owns what, and what an asset's status and scores are now.
import type { Clock } from '../clock';
import type { Dialect } from './dialect';
import type { FixtureOrganization, FixtureWorkspace, SimulatorFixture } from './fixture';
import { type MediaStatus, type ProcessingPlan, planProcessing, statusAt } from './outcome';
import { buildScoreResult, type CanonicalScoreResult, type ScoreFilter, scoreMedia } from './scores';
import type { MediaRegistry, SimulatedMedia } from './state';

export interface CoreOptions {
  clock: Clock;
  dialect: Dialect;
  fixture: SimulatorFixture;
  processingMinutes: [number, number];
  /** Client ids whose score summaries are made to disagree with their detail. */
  inconsistentScores?: ReadonlySet<string>;
  registry: MediaRegistry;
}

export class SimulatorCore {
  readonly clock: Clock;
  readonly dialect: Dialect;
  readonly fixture: SimulatorFixture;
  readonly processingMinutes: [number, number];
  readonly inconsistentScores: ReadonlySet<string>;
  readonly registry: MediaRegistry;

  constructor(options: CoreOptions) {
    this.clock = options.clock;
    this.dialect = options.dialect;
    this.fixture = options.fixture;
    this.processingMinutes = options.processingMinutes;
    this.inconsistentScores = options.inconsistentScores ?? new Set();
    this.registry = options.registry;
  }

  orgByKey(apiKey: string): FixtureOrganization | undefined {
    return this.fixture.organizations.find((o) => o.apiKey === apiKey);
  }

  orgById(orgId: string): FixtureOrganization | undefined {
    return this.fixture.organizations.find((o) => o.id === orgId);
  }

  /** The workspace and the organization that owns it, whichever organization that is. */
  findWorkspace(workspaceId: number): { org: FixtureOrganization; workspace: FixtureWorkspace } | undefined {
    for (const org of this.fixture.organizations) {
      const workspace = org.workspaces.find((w) => w.id === workspaceId);
      if (workspace) return { org, workspace };
    }
    return undefined;
  }

  plan(media: SimulatedMedia): ProcessingPlan {
    return planProcessing(media, this.processingMinutes);
  }

  statusOf(media: SimulatedMedia, now: number): MediaStatus {
    return statusAt(this.plan(media), media.submittedAt, now);
  }

  /** The score result at `now`, or undefined while the asset is not COMPLETE. */
  scoreResult(media: SimulatedMedia, now: number, filter?: ScoreFilter): CanonicalScoreResult | undefined {
    const org = this.orgById(media.orgId);
    if (!org || this.statusOf(media, now) !== 'COMPLETE') return undefined;
    const { mediaType } = this.plan(media);
    return buildScoreResult(media, mediaType, scoreMedia(media, org, mediaType), filter);
  }
}
