// Connects a run to the service it talks to: the configured API on the real clock, or, in
// demo mode, the built-in simulator on loopback sharing a simulated clock that runs fast.
import { type Clock, SimulatedClock, systemClock } from './clock';
import type { Config } from './config';
import { DEMO_API_KEY, startSimulator } from './simulator';
import { ApiClient } from './sync/api/client';

export interface Connection {
  api: ApiClient;
  clock: Clock;
  /** Where the API lives, for messages; never carries the key. */
  apiUrl: string;
  close(): Promise<void>;
}

export async function connect(config: Config): Promise<Connection> {
  if (config.mode === 'live') {
    const apiUrl = config.apiUrl as string;
    const api = new ApiClient({
      baseUrl: apiUrl,
      apiKey: config.apiKey as string,
      concurrency: config.concurrency,
      requestsPerSecond: config.requestsPerSecond,
    });
    return { api, clock: systemClock, apiUrl, close: async () => {} };
  }

  const clock = new SimulatedClock();
  const simulator = await startSimulator({ clock, statePath: config.simulatorStatePath });
  // A second demo run continues the simulated timeline where the first one left it.
  clock.advance(Math.max(0, (simulator.lastClockTime() ?? 0) - clock.now()));
  // The simulator is ours and on loopback: no need to be as gentle as with the real service.
  const api = new ApiClient({
    baseUrl: simulator.url,
    apiKey: DEMO_API_KEY,
    concurrency: 8,
    requestsPerSecond: 200,
  });
  return { api, clock, apiUrl: simulator.url, close: () => simulator.close() };
}
