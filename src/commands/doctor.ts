// `creative-sync doctor`: checks each thing a run needs and says what to do about any that
// fails: settings, folders, the database and its migrations, the schedule, the lock, the key.
import { accessSync, constants, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { type Config, ConfigError, loadConfig } from '../config';
import { migrationsFolder, openDatabase } from '../db/open';
import { describeOwner, isStale, lockPathFor, processIsAlive, readHolder } from '../lock';
import { formatFireTime, nextFireTimes, scheduleProblem } from '../scheduler';
import { ApiClient } from '../sync/api/client';
import { exitCodes } from './handle-error';
import type { Flags } from './program';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export async function doctorCommand(flags: Flags, options: { json?: boolean } = {}): Promise<void> {
  const checks = await runChecks(flags);
  const ok = checks.every((c) => c.ok);
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ ok, checks }, null, 2)}\n`);
  } else {
    for (const check of checks)
      process.stdout.write(`${check.ok ? 'ok  ' : 'FAIL'}  ${check.name}: ${check.detail}\n`);
    process.stdout.write(
      ok
        ? 'All checks passed.\n'
        : 'Some checks failed: fix what each FAIL line says, then run doctor again.\n',
    );
  }
  if (!ok) process.exitCode = exitCodes.fatal;
}

export async function runChecks(flags: Flags): Promise<Check[]> {
  let config: Config;
  try {
    config = loadConfig({ flags });
  } catch (error) {
    return [
      { name: 'settings', ok: false, detail: error instanceof ConfigError ? error.message : String(error) },
    ];
  }
  const checks: Check[] = [
    {
      name: 'settings',
      ok: true,
      detail:
        config.mode === 'demo'
          ? 'demo mode (SCORING_API_URL is not set: runs use the built-in simulator)'
          : `live mode against ${config.apiUrl}`,
    },
    folderCheck('manifest folder', config.manifestDir, false),
    folderCheck('report folder', config.reportDir, true),
    folderCheck('data folder', dirname(config.databasePath), true),
    databaseCheck(config.databasePath),
    scheduleCheck(config),
    lockCheck(config.databasePath),
  ];
  if (config.mode === 'live') checks.push(...(await apiChecks(config)));
  return checks;
}

function folderCheck(name: string, dir: string, writable: boolean): Check {
  try {
    if (writable && !existsSync(dir)) mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.R_OK | (writable ? constants.W_OK : 0));
    return { name, ok: true, detail: `${dir} ${writable ? 'is writable' : 'is readable'}` };
  } catch (error) {
    return {
      name,
      ok: false,
      detail: `${dir}: ${(error as Error).message}. Create it (writable by this user) or change the setting.`,
    };
  }
}

const journalSchema = z.object({ entries: z.array(z.object({ tag: z.string(), when: z.number() })) });

/** Opens the database (which applies any pending migration) and checks all of them are in. */
function databaseCheck(path: string): Check {
  const journal = journalSchema.parse(
    JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')),
  ).entries;
  try {
    const before = existsSync(path) ? appliedMigrations(path) : new Set<number>();
    openDatabase(path).$client.close();
    const after = appliedMigrations(path);
    const missing = journal.filter((m) => !after.has(m.when));
    if (missing.length > 0) {
      return {
        name: 'database',
        ok: false,
        detail: `${path}: migrations ${missing.map((m) => m.tag).join(', ')} are not applied. Check that the file is writable.`,
      };
    }
    const appliedNow = journal.filter((m) => !before.has(m.when)).length;
    return {
      name: 'database',
      ok: true,
      detail: `${path} opens; migrations current (${journal.length} of ${journal.length}${appliedNow ? `, ${appliedNow} applied just now` : ''})`,
    };
  } catch (error) {
    return {
      name: 'database',
      ok: false,
      detail: `${path} cannot be opened (${(error as Error).message}). Check DATABASE_PATH and that its folder is writable.`,
    };
  }
}

function appliedMigrations(path: string): Set<number> {
  const sqlite = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const table = sqlite
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'")
      .get();
    if (!table) return new Set();
    const rows = sqlite.prepare('SELECT created_at AS at FROM __drizzle_migrations').all() as {
      at: number;
    }[];
    return new Set(rows.map((r) => Number(r.at)));
  } finally {
    sqlite.close();
  }
}

function scheduleCheck(config: Config): Check {
  const schedule = { expression: config.schedule, timezone: config.timezone };
  const problem = scheduleProblem(schedule);
  if (problem) return { name: 'schedule', ok: false, detail: `${problem} Fix SYNC_SCHEDULE.` };
  const next = nextFireTimes(schedule, Date.now(), 3).map((at) => formatFireTime(at, config.timezone));
  return { name: 'schedule', ok: true, detail: `'${config.schedule}'; next runs: ${next.join('; ')}` };
}

/** A run in progress is fine; a lock left by a dead process is fine too (the next run takes it over). */
function lockCheck(databasePath: string): Check {
  const path = lockPathFor(databasePath);
  const holder = existsSync(path) ? readHolder(path) : 'gone';
  if (holder === 'gone') return { name: 'lock', ok: true, detail: 'no run in progress' };
  if (holder !== null && !isStale(holder, hostname(), processIsAlive)) {
    return { name: 'lock', ok: true, detail: `a run is in progress (${describeOwner(holder)})` };
  }
  return {
    name: 'lock',
    ok: true,
    detail: `${path} was left by ${describeOwner(holder)}, which is no longer running; the next run takes it over`,
  };
}

async function apiChecks(config: Config): Promise<Check[]> {
  const api = new ApiClient({
    baseUrl: config.apiUrl as string,
    apiKey: config.apiKey as string,
    requestsPerSecond: 2,
  });
  try {
    const org = await api.getOrganization();
    const workspaces = await api.listWorkspaces();
    return [
      {
        name: 'API key',
        ok: true,
        detail: `accepted by ${config.apiUrl} for organization ${org.name} (${org.id})`,
      },
      {
        name: 'workspaces',
        ok: true,
        detail: workspaces.length
          ? `${workspaces.length} visible: ${workspaces.map((w) => `${w.id} ${w.name}`).join(', ')}`
          : 'none visible to this key',
      },
    ];
  } catch (error) {
    return [
      {
        name: 'API key',
        ok: false,
        detail: `${(error as Error).message} Check SCORING_API_URL and SCORING_API_KEY in .env.`,
      },
    ];
  }
}
