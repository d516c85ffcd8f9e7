/**
 * A child process of persistence-crash.test.ts: serves the reference with a state file on a free
 * port and prints `{"url", "admin", "pid"}` as one JSON line, then serves until it is killed.
 * Usage: node --import tsx persistence-child.ts STATE_FILE [COMPACT_AFTER_BYTES]
 */
import { startReferenceServer } from '../../server/index.js';

const file = process.argv[2]!;
const compactAfter = Number(process.argv[3] ?? 0);
const running = await startReferenceServer({
  port: 0,
  stateFile: file,
  rateLimit: false,
  webhooks: { enabled: false },
  ...(compactAfter > 0 ? { stateCompactAfterBytes: compactAfter } : {}),
});
process.stdout.write(`${JSON.stringify({ url: running.url, admin: running.credentials.admin, pid: process.pid })}\n`);
