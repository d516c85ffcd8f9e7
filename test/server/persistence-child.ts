/**
 * A child process of the persistence tests: serves the reference with a state file on a free
 * port and prints `{"url", "admin", "pid", "credentials", "fixtures"}` as one JSON line, then serves
 * until it is killed. A SIGTERM closes it as `conformance serve` does (the last changes committed,
 * the journal marked closed). With an IPC channel, the message `"snapshot"` is answered with the
 * live store as server/persistence.ts `snapshotStore` encodes it.
 * Usage: node --import tsx persistence-child.ts STATE_FILE [COMPACT_AFTER_BYTES] [FAULT,...] [webhooks]
 * (`webhooks` delivers webhooks to the endpoints the test registers; off by default).
 */
import { buildApp } from '../../server/app.js';
import { snapshotStore } from '../../server/persistence.js';

const file = process.argv[2]!;
const compactAfter = Number(process.argv[3] ?? 0);
const faults = (process.argv[4] ?? '').split(',').filter(Boolean);
const webhooks = process.argv[5] === 'webhooks';
const built = await buildApp({
  stateFile: file,
  rateLimit: false,
  webhooks: { enabled: webhooks },
  faults,
  ...(compactAfter > 0 ? { stateCompactAfterBytes: compactAfter } : {}),
});
await built.app.listen({ host: '127.0.0.1', port: 0 });
const { port } = built.app.server.address() as { port: number };
process.on('message', (message) => {
  if (message === 'snapshot') process.send!(snapshotStore(built.store));
});
process.once('SIGTERM', () => void built.app.close().then(() => process.exit(0)));
const line = { url: `http://127.0.0.1:${port}`, admin: built.credentials.admin, pid: process.pid, credentials: built.credentials, fixtures: built.fixtures };
process.stdout.write(`${JSON.stringify(line)}\n`);
