// What every stage is a function of: the database, the API client, the clock and the
// polling policy. Injected, so each stage can be tested alone against the simulator.
import type { Logger } from 'pino';
import type { Clock } from '../clock';
import type { Db } from '../db/open';
import type { ApiClient } from './api/client';
import type { PollPolicy } from './polling';

export interface StageContext {
  db: Db;
  api: ApiClient;
  clock: Clock;
  policy: PollPolicy;
  log: Logger;
}
