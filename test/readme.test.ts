// The README's settings table is what users read; it must match the settings schema.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { environmentNames, type SettingKey, settingsSchema } from '../src/config';

const readme = readFileSync(resolve(import.meta.dirname, '../README.md'), 'utf8');

function settingsTableRows(): Map<string, string> {
  const section = readme.split('## Settings')[1]?.split('\n## ')[0] ?? '';
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const env = /^\|[^|]*\|\s*`([A-Z_]+)`/.exec(line)?.[1];
    if (env) rows.set(env, line.split('|')[3]?.trim() ?? '');
  }
  return rows;
}

describe('the README settings table', () => {
  const rows = settingsTableRows();

  it('lists every setting, and nothing that is not one', () => {
    expect([...rows.keys()].sort()).toEqual(Object.values(environmentNames).sort());
  });

  it('states each fixed default as the schema declares it', () => {
    const defaults = settingsSchema.parse({});
    for (const [key, env] of Object.entries(environmentNames) as [SettingKey, string][]) {
      const value = defaults[key];
      if (value === undefined || key === 'timezone') continue;
      expect(rows.get(env), env).toBe(`\`${value}\``);
    }
  });
});
