// `creative-sync report`: rewrite today's workbook from the database alone.
import { writeReport } from '../reports/write-report';
import type { Flags } from './program';
import { setup } from './setup';

export async function reportCommand(flags: Flags): Promise<void> {
  const { config, db } = setup(flags);
  try {
    const now = new Date();
    const { path, note } = await writeReport(db, {
      reportDir: config.reportDir,
      runDate: now,
      demo: config.mode === 'demo',
      generatedAt: now,
      allVersions: config.reportAllVersions,
    });
    process.stdout.write(`report: ${path}\n${note ? `note: ${note}\n` : ''}`);
  } finally {
    db.$client.close();
  }
}
