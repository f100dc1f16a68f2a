// The worker thread behind manifest-store-thread.ts: a ManifestStore on its own connection,
// taking the file's rows in the order sent and saying when each batch is written.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { configureConnection } from '../db/pragmas';
import type { CheckedRow } from './manifest-check';
import { IntakeStatements, ManifestStore } from './manifest-store';
import type { FromWriter, ToWriter, WriterSetup } from './manifest-store-thread';

const port = parentPort;
if (!port) throw new Error('manifest-store-worker.ts runs only as a worker thread');
const { databasePath, fileId, now } = workerData as WriterSetup;
const sqlite = new Database(databasePath);
configureConnection(sqlite);
// Every row written here refers to the manifest file intake has just recorded or to an asset
// written (or read) just before it, so checking each reference again only costs time: a sixth
// of the writes, measured.
sqlite.pragma('foreign_keys = OFF');
const store = new ManifestStore(new IntakeStatements(sqlite), fileId, now);
const answer = (message: FromWriter) => port.postMessage(message);
let failed = false;

port.on('message', (message: ToWriter) => {
  if (failed) return;
  try {
    if (message.kind === 'rows') {
      store.rows(JSON.parse(message.rows) as CheckedRow[]);
      answer({ kind: 'written' });
    } else if (message.kind === 'problems') {
      store.problems(message.line, message.problems, message.severity);
    } else {
      const written = store.finish();
      sqlite.close();
      answer({ kind: 'finished', ...written });
    }
  } catch (error) {
    failed = true;
    answer({ kind: 'failed', message: (error as Error).message });
  }
});
