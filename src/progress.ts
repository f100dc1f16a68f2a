// Progress of a run's stages (intake, submit, polling, scores, report): live bars on a
// terminal (cli-progress), a plain line every few seconds when not (cron, a log file). Never both.
import { Writable } from 'node:stream';
import cliProgress from 'cli-progress';

export const stageNames = ['intake', 'submit', 'polling', 'scores', 'report'] as const;
export type StageName = (typeof stageNames)[number];

export interface StageProgress {
  name: StageName;
  done: number;
  total: number;
  /** Real milliseconds when the stage was first entered: rates are per real second, even in demo mode. */
  startedAt: number;
}

/** What a run tells about its progress. The stage in hand receives `found` and `handled`. */
export interface RunProgress {
  stage(name: StageName): void;
  /** More work found in the stage in hand. */
  found(count: number): void;
  /** One piece (or `count`) of it done. */
  handled(count?: number): void;
  /** Says something between the counts, e.g. while waiting for the next poll. */
  note(text: string): void;
  stop(): void;
}

/** Pieces per real second so far, and the seconds left at that pace (null when unknown). */
export function rateAndEta(stage: StageProgress, now: number): { rate: number; etaSeconds: number | null } {
  const seconds = (now - stage.startedAt) / 1000;
  const rate = seconds > 0 ? stage.done / seconds : 0;
  const left = Math.max(0, stage.total - stage.done);
  return { rate, etaSeconds: left === 0 ? 0 : rate > 0 ? Math.ceil(left / rate) : null };
}

/** The plain progress line: "progress: submit 120/500 (24.0/s, about 16s left) · polling 0/0". */
export function progressLine(stages: StageProgress[], current: StageName | null, now: number): string {
  const parts = stages.map((stage) => {
    const counts = `${stage.name} ${stage.done}/${stage.total}`;
    if (stage.name !== current || stage.done >= stage.total) return counts;
    const { rate, etaSeconds } = rateAndEta(stage, now);
    const eta = etaSeconds === null ? 'time left unknown' : `about ${formatSeconds(etaSeconds)} left`;
    return `${counts} (${rate.toFixed(1)}/s, ${eta})`;
  });
  return `progress: ${parts.join(' · ')}`;
}

export function formatSeconds(seconds: number): string {
  if (seconds < 90) return `${seconds}s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)}min`;
  return `${(seconds / 3600).toFixed(1)}h`;
}

/** Counts shared by both displays. */
class Tally {
  readonly stages = new Map<StageName, StageProgress>();
  current: StageName | null = null;

  constructor(readonly now: () => number) {}

  enter(name: StageName): StageProgress {
    this.current = name;
    let stage = this.stages.get(name);
    if (!stage) {
      stage = { name, done: 0, total: 0, startedAt: this.now() };
      this.stages.set(name, stage);
    }
    return stage;
  }

  inHand(): StageProgress | undefined {
    return this.current ? this.stages.get(this.current) : undefined;
  }

  list(): StageProgress[] {
    return stageNames.flatMap((name) => this.stages.get(name) ?? []);
  }
}

/**
 * The terminal's text stream for log lines. While bars are drawn, a line goes above them
 * (cli-progress redraws), so logs and bars never overwrite each other.
 */
export class TerminalOutput extends Writable {
  #bars: cliProgress.MultiBar | null = null;

  constructor(readonly target: NodeJS.WriteStream = process.stderr) {
    super();
  }

  attach(bars: cliProgress.MultiBar | null): void {
    this.#bars = bars;
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: (error?: Error) => void) {
    const text = chunk.toString();
    if (this.#bars) this.#bars.log(text.endsWith('\n') ? text : `${text}\n`);
    else this.target.write(text);
    callback();
  }
}

/** Live bars, one per stage, with counts, rate and ETA. */
function barsProgress(terminal: TerminalOutput, now: () => number): RunProgress {
  const tally = new Tally(now);
  const multi = new cliProgress.MultiBar(
    {
      stream: terminal.target,
      format: '{stage} |{bar}| {value}/{total} · {rate}/s · ETA {eta_formatted} {note}',
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      autopadding: true,
      etaBuffer: 50,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  terminal.attach(multi);
  const bars = new Map<StageName, cliProgress.SingleBar>();
  const redraw = (stage: StageProgress, note = '') => {
    const bar = bars.get(stage.name);
    if (!bar) return;
    bar.setTotal(stage.total);
    bar.update(stage.done, {
      stage: stage.name.padEnd(7),
      rate: rateAndEta(stage, now()).rate.toFixed(1),
      note,
    });
  };
  return {
    stage(name) {
      const stage = tally.enter(name);
      if (!bars.has(name)) {
        bars.set(name, multi.create(0, 0, { stage: name.padEnd(7), rate: '0.0', note: '' }));
      }
      redraw(stage);
    },
    found(count) {
      const stage = tally.inHand();
      if (!stage) return;
      stage.total += count;
      redraw(stage);
    },
    handled(count = 1) {
      const stage = tally.inHand();
      if (!stage) return;
      stage.done += count;
      redraw(stage);
    },
    note(text) {
      const stage = tally.inHand();
      if (stage) redraw(stage, text);
    },
    stop() {
      multi.stop();
      terminal.attach(null);
    },
  };
}

/** A plain line every `everyMs` while something moved since the last one. */
function linesProgress(write: (line: string) => void, everyMs: number, now: () => number): RunProgress {
  const tally = new Tally(now);
  let last = '';
  let lastNote = '';
  const tick = () => {
    const line = progressLine(tally.list(), tally.current, now());
    const counts = tally
      .list()
      .map((s) => `${s.done}/${s.total}`)
      .join();
    if (counts === last && lastNote === '') return;
    last = counts;
    write(lastNote ? `${line} — ${lastNote}` : line);
    lastNote = '';
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return {
    stage(name) {
      tally.enter(name);
      lastNote = '';
    },
    found(count) {
      const stage = tally.inHand();
      if (stage) stage.total += count;
    },
    handled(count = 1) {
      const stage = tally.inHand();
      if (stage) stage.done += count;
    },
    note(text) {
      lastNote = text;
    },
    stop() {
      clearInterval(timer);
      tick();
    },
  };
}

export interface ProgressOptions {
  /** Bars when true; plain lines otherwise. */
  tty: boolean;
  terminal: TerminalOutput;
  /** Where plain lines go (the logger). */
  write: (line: string) => void;
  everyMs?: number;
  now?: () => number;
}

export function createProgress(options: ProgressOptions): RunProgress {
  const now = options.now ?? Date.now;
  return options.tty
    ? barsProgress(options.terminal, now)
    : linesProgress(options.write, options.everyMs ?? 5000, now);
}
