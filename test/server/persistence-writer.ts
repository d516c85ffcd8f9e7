/**
 * A child process of persistence.test.ts: serves a store with a state file and changes it as fast
 * as it can, printing `written` whenever the file was replaced, until the test kills it (SIGKILL).
 * Usage: node --import tsx persistence-writer.ts STATE_FILE
 */
import { statSync } from 'node:fs';
import { buildApp } from '../../server/app.js';

const file = process.argv[2]!;
const built = await buildApp({ stateFile: file, stateSaveDelayMs: 0, rateLimit: false });
let last = 0;
for (let i = 0; i < 1_000_000; i++) {
  built.control.createOrder({ checkout: false });
  built.control.advanceClock(1);
  await new Promise((resolve) => setImmediate(resolve));
  const mtime = statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (mtime !== last) {
    last = mtime;
    process.stdout.write('written\n');
  }
}
