// The written report opens in another spreadsheet program without complaint: LibreOffice converts it to PDF
// headlessly. A file Excel would offer to repair usually makes LibreOffice fail or produce nothing.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/open';
import { organizations } from '../../src/db/schema';
import { writeReport } from '../../src/reports/write-report';
import { seed, T0 } from './fixture';

const hasSoffice = spawnSync('soffice', ['--version'], { stdio: 'ignore' }).status === 0;
const hasPdftoppm = spawnSync('pdftoppm', ['-v'], { stdio: 'ignore' }).status === 0;

describe('the report in LibreOffice', () => {
  // Skipped, not failed, where LibreOffice is not installed (`apt-get install libreoffice-calc` adds it).
  it.skipIf(!hasSoffice)(
    'converts to a non-empty PDF whose first page (the Overview) renders',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'creative-soffice-'));
      const db = openDatabase(':memory:');
      try {
        seed(db);
        db.insert(organizations).values({ id: 'o', name: 'Northwind Brands', fetchedAt: T0 }).run();
        const now = new Date(T0);
        const { path } = await writeReport(db, {
          reportDir: dir,
          runDate: now,
          demo: true,
          generatedAt: now,
        });
        // Its own profile folder, so a LibreOffice the user has open (or another test) does not interfere.
        execFileSync(
          'soffice',
          [
            `-env:UserInstallation=file://${join(dir, 'profile')}`,
            '--headless',
            '--convert-to',
            'pdf',
            '--outdir',
            dir,
            path,
          ],
          { stdio: 'ignore', timeout: 120_000 },
        );
        const pdf = join(dir, readdirSync(dir).find((f) => f.endsWith('.pdf')) ?? 'missing.pdf');
        expect(statSync(pdf).size).toBeGreaterThan(10_000);
        if (hasPdftoppm) {
          execFileSync('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', pdf, join(dir, 'page')]);
          const png = readdirSync(dir).find((f) => f.startsWith('page') && f.endsWith('.png'));
          expect(png).toBeDefined();
          expect(statSync(join(dir, png as string)).size).toBeGreaterThan(5_000);
        }
      } finally {
        db.$client.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    180_000,
  );
});
