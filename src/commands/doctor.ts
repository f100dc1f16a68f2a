// `creative-sync doctor`: checks each thing a run needs and says what to do about any that fails.
import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import cron from 'node-cron';
import { type Config, ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/open';
import { ApiClient } from '../sync/api/client';
import { exitCodes } from './handle-error';
import type { Flags } from './program';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export async function doctorCommand(flags: Flags): Promise<void> {
  const checks: Check[] = [];
  let config: Config | undefined;
  try {
    config = loadConfig({ flags });
    checks.push({ name: 'settings', ok: true, detail: `${config.mode} mode` });
  } catch (error) {
    checks.push({
      name: 'settings',
      ok: false,
      detail: error instanceof ConfigError ? error.message : String(error),
    });
  }
  if (config) {
    checks.push(folderCheck('manifest folder', config.manifestDir, false));
    checks.push(folderCheck('report folder', config.reportDir, true));
    try {
      openDatabase(config.databasePath).$client.close();
      checks.push({ name: 'database', ok: true, detail: `${config.databasePath} opens; migrations applied` });
    } catch (error) {
      checks.push({
        name: 'database',
        ok: false,
        detail: `${config.databasePath}: ${(error as Error).message}. Check DATABASE_PATH.`,
      });
    }
    const schedule = cron.validate(config.schedule);
    checks.push({
      name: 'schedule',
      ok: schedule,
      detail: schedule
        ? `'${config.schedule}' in ${config.timezone}`
        : `'${config.schedule}' is not a cron expression; fix SYNC_SCHEDULE`,
    });
    if (config.mode === 'live') checks.push(...(await apiChecks(config)));
  }
  for (const check of checks)
    process.stdout.write(`${check.ok ? 'ok  ' : 'FAIL'}  ${check.name}: ${check.detail}\n`);
  if (checks.some((c) => !c.ok)) process.exitCode = exitCodes.fatal;
}

function folderCheck(name: string, dir: string, create: boolean): Check {
  try {
    if (create && !existsSync(dir)) mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.R_OK | (create ? constants.W_OK : 0));
    return { name, ok: true, detail: dir };
  } catch (error) {
    return {
      name,
      ok: false,
      detail: `${dir}: ${(error as Error).message}. Create it or change the setting.`,
    };
  }
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
          ? workspaces.map((w) => `${w.id} ${w.name}`).join(', ')
          : 'none visible to this key',
      },
    ];
  } catch (error) {
    return [{ name: 'API key', ok: false, detail: (error as Error).message }];
  }
}
