// The media registry: every asset the simulator has accepted, looked up per organization, and
// optionally kept in a JSON file so a restarted simulator (e.g. between demo runs) remembers it.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';

const mediaSchema = z.object({
  orgId: z.string(),
  uniqueId: z.string(),
  id: z.string(),
  version: z.string(),
  source: z.string(),
  url: z.string(),
  workspaceId: z.number().int().optional(),
  channels: z.array(z.string()),
  brands: z.array(z.string()),
  markets: z.array(z.string()),
  name: z.string().optional(),
  description: z.string().optional(),
  /** Clock ms of the first submission. */
  submittedAt: z.number(),
});

/** One accepted asset; channels are canonical ids as submitted, empty when none were named. */
export type SimulatedMedia = z.infer<typeof mediaSchema>;

const stateSchema = z.object({
  formatVersion: z.literal(1),
  lastClockTime: z.number().optional(),
  duplicateSubmits: z.number().int().nonnegative(),
  media: z.array(mediaSchema),
});
type StateFile = z.infer<typeof stateSchema>;

/** Clock-only progress is saved at most once per this much simulated time; media changes save at once. */
const CLOCK_SAVE_STEP_MS = 60_000;

const clientKey = (orgId: string, id: string, version: string, source: string): string =>
  JSON.stringify([orgId, id, version, source]);

export class MediaRegistry {
  readonly #statePath: string | undefined;
  readonly #media: SimulatedMedia[] = [];
  readonly #byUniqueId = new Map<string, SimulatedMedia>();
  readonly #byClientKey = new Map<string, SimulatedMedia>();
  #duplicateSubmits = 0;
  #lastClockTime: number | undefined;
  #savedClockTime: number | undefined;

  constructor(statePath?: string) {
    this.#statePath = statePath;
    if (statePath) this.#load(statePath);
  }

  get duplicateSubmits(): number {
    return this.#duplicateSubmits;
  }

  get lastClockTime(): number | undefined {
    return this.#lastClockTime;
  }

  all(): readonly SimulatedMedia[] {
    return this.#media;
  }

  /** Lookups are per organization: another organization's asset does not exist for this key. */
  byUniqueId(orgId: string, uniqueId: string): SimulatedMedia | undefined {
    const media = this.#byUniqueId.get(uniqueId);
    return media?.orgId === orgId ? media : undefined;
  }

  /** Any organization's asset: for the test-facing handle, which is not scoped by a key. */
  findUniqueId(uniqueId: string): SimulatedMedia | undefined {
    return this.#byUniqueId.get(uniqueId);
  }

  byClientKey(orgId: string, id: string, version: string, source: string): SimulatedMedia | undefined {
    return this.#byClientKey.get(clientKey(orgId, id, version, source));
  }

  add(media: SimulatedMedia): void {
    this.#insert(media);
    this.#save();
  }

  noteDuplicate(): void {
    this.#duplicateSubmits++;
    this.#save();
  }

  /** Remembers the latest clock time seen; persisted so a demo can restart its clock after it. */
  noteClock(now: number): void {
    if (this.#lastClockTime !== undefined && now <= this.#lastClockTime) return;
    this.#lastClockTime = now;
    if (this.#savedClockTime === undefined || now - this.#savedClockTime >= CLOCK_SAVE_STEP_MS) this.#save();
  }

  /** Writes whatever is not yet on disk (the throttled clock time). */
  flush(): void {
    if (this.#lastClockTime !== this.#savedClockTime) this.#save();
  }

  #insert(media: SimulatedMedia): void {
    this.#media.push(media);
    this.#byUniqueId.set(media.uniqueId, media);
    this.#byClientKey.set(clientKey(media.orgId, media.id, media.version, media.source), media);
  }

  #load(path: string): void {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    let state: StateFile;
    try {
      state = stateSchema.parse(JSON.parse(text));
    } catch (error) {
      throw new Error(`Simulator state file ${path} is not valid; delete it to start afresh`, {
        cause: error,
      });
    }
    for (const media of state.media) this.#insert(media);
    this.#duplicateSubmits = state.duplicateSubmits;
    this.#lastClockTime = state.lastClockTime;
    this.#savedClockTime = state.lastClockTime;
  }

  #save(): void {
    const path = this.#statePath;
    if (!path) return;
    const state: StateFile = {
      formatVersion: 1,
      lastClockTime: this.#lastClockTime,
      duplicateSubmits: this.#duplicateSubmits,
      media: this.#media,
    };
    mkdirSync(dirname(path), { recursive: true });
    // Write-then-rename: a reader (or a crash) never sees half a file.
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(state)}\n`);
    renameSync(temp, path);
    this.#savedClockTime = this.#lastClockTime;
  }
}
