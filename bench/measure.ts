// What every benchmark scenario shares: timing a step in wall and CPU seconds, reading peak
// memory, and the shape of the report the runner prints and stores.

export interface ScenarioReport {
  title: string;
  rows: Record<string, string | number>[];
  notes?: string[];
}

export interface Measurement {
  seconds: number;
  cpuSeconds: number;
  /** Peak resident memory of this process so far, in MB. */
  peakRssMb: number;
}

/** Runs `step` once and measures it. Peak RSS is the process's own high-water mark. */
export async function measure<T>(step: () => Promise<T> | T): Promise<Measurement & { result: T }> {
  const cpuBefore = process.cpuUsage();
  const start = process.hrtime.bigint();
  const result = await step();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    result,
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

/** Scenario scripts end by printing their report as the last line of stdout. */
export function emit(report: ScenarioReport): void {
  process.stdout.write(`\n${JSON.stringify(report)}\n`);
}

export const isFull = process.argv.includes('--full');
