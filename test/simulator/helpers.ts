// Shared set-up for the simulator tests: a real simulator on port 0 driven by a SimulatedClock,
// and a small JSON-over-fetch caller.
import { SimulatedClock } from '../../src/clock';
import {
  DEMO_API_KEY,
  defaultFixture,
  type RunningSimulator,
  type SimulatorOptions,
  startSimulator,
} from '../../src/simulator/index';
import { type AssetIdentity, type ProcessingPlan, planProcessing } from '../../src/simulator/outcome';

export const START = Date.UTC(2025, 2, 3, 2, 0, 0);
export const MINUTE = 60_000;
export const NORTHWIND_ORG_ID = defaultFixture().organizations[0]?.id as string;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies freely and assert on them.
  body: any;
  headers: Headers;
}

export interface Harness {
  sim: RunningSimulator;
  clock: SimulatedClock;
  call(
    method: string,
    path: string,
    options?: { body?: unknown; key?: string | null; rawBody?: string },
  ): Promise<Answer>;
}

export async function startHarness(options: Partial<SimulatorOptions> = {}): Promise<Harness> {
  const clock = (options.clock as SimulatedClock | undefined) ?? new SimulatedClock(START);
  const sim = await startSimulator({ ...options, clock });
  const call: Harness['call'] = async (method, path, { body, key = DEMO_API_KEY, rawBody } = {}) => {
    const headers: Record<string, string> = {};
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let payload: string | undefined = rawBody;
    if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${sim.url}${path}`, { method, headers, body: payload });
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text), headers: res.headers };
  };
  return { sim, clock, call };
}

/** The first asset (ids `${prefix}-0`, `${prefix}-1`, …) whose processing plan satisfies `accept`. */
export function findAsset(
  accept: (plan: ProcessingPlan) => boolean,
  {
    prefix = 'asset',
    url = (id: string) => `https://cdn.example.com/${id}.mp4`,
    minutes = [8, 45] as [number, number],
    version = '',
    source = '',
  } = {},
): { id: string; url: string; plan: ProcessingPlan } {
  for (let i = 0; i < 10_000; i++) {
    const id = `${prefix}-${i}`;
    const identity: AssetIdentity = { orgId: NORTHWIND_ORG_ID, id, version, source, url: url(id) };
    const plan = planProcessing(identity, minutes);
    if (accept(plan)) return { id, url: identity.url, plan };
  }
  throw new Error('no asset found with the wanted plan');
}
