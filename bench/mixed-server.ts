/**
 * A reference server process for the mixed-workload rows of the benchmark: the demo data (grown to
 * `--products N` in organization A when asked), the rate limit on (`--rate-limit N` per second per
 * client), `--state FILE` when asked, on 127.0.0.1:`--port`. It counts how list answers are made
 * (from kept answers or by the handler) by wrapping ResponseCache.get, and serves those counts and
 * its RSS at `GET /__bench/stats` (`{kept, made, rss}`, bytes); `POST /__bench/profile/start` and
 * `POST /__bench/profile/stop` take a CPU profile of it (the stop answers the V8 profile, as
 * bench/cpu-profile.ts reads it; the sampling interval is 0.5 ms). Prints one JSON line when it
 * listens: `{url, admin, credentials: {role: token}, fixtures: {name: id}, ids: {products, orders,
 * subscriptions, customers, refunds, files, benefits}, rss}` (the tokens and fixtures let
 * bench/harness.ts point a harness run at it).
 * Usage: node --import tsx bench/mixed-server.ts --port N [--products N] [--rate-limit N] [--state FILE [--compact-after BYTES]]
 */
import { Session } from 'node:inspector/promises';
import { findSourceMap } from 'node:module';
import { parseArgs } from 'node:util';
import { buildApp } from '../server/app.js';
import { ResponseCache } from '../server/response-cache.js';
import { growProducts } from './fill-store.js';
import { workloadIds } from './mixed.js';

const { values } = parseArgs({
  options: { port: { type: 'string' }, products: { type: 'string' }, 'rate-limit': { type: 'string' }, state: { type: 'string' }, 'compact-after': { type: 'string' } },
});
const port = Number(values.port);
const products = Number(values.products ?? 0);
const rateLimit = Number(values['rate-limit'] ?? 100_000);

// Counted around the cache's own lookup: a list request either gets a kept answer or is made by its handler.
const counts = { kept: 0, made: 0 };
const lookup = ResponseCache.prototype.get;
ResponseCache.prototype.get = function get(this: ResponseCache, ...args: Parameters<typeof lookup>) {
  const found = lookup.apply(this, args);
  if (found) counts.kept++;
  else counts.made++;
  return found;
};

const built = await buildApp({
  rateLimit: { max: rateLimit, windowMs: 1000 },
  webhooks: { enabled: false },
  ...(values.state !== undefined ? { stateFile: values.state } : {}),
  ...(values['compact-after'] !== undefined ? { stateCompactAfterBytes: Number(values['compact-after']) } : {}),
});
const organization = built.fixtures.organization_id!;
if (products > 0) growProducts(built.store, organization, products);
built.app.get('/__bench/stats', async () => ({ ...counts, rss: process.memoryUsage().rss }));
// A CPU profile of this process, taken with the inspector's Profiler in the process itself (no
// debugger attached): started and stopped by the bench around a load, returned as JSON.
let session: Session | undefined;
built.app.post('/__bench/profile/start', async () => {
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  return { started: true };
});
built.app.post('/__bench/profile/stop', async (_request, reply) => {
  if (!session) return reply.code(409).send({ error: 'no profile started' });
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  session = undefined;
  // tsx compiles each file to one line: give every frame its place in the TypeScript source (its source map).
  for (const { callFrame } of profile.nodes) {
    if (!callFrame.url.startsWith('file:')) continue;
    const entry = findSourceMap(callFrame.url)?.findEntry(callFrame.lineNumber, callFrame.columnNumber);
    if (entry && 'originalSource' in entry) Object.assign(callFrame, { url: entry.originalSource, lineNumber: entry.originalLine, columnNumber: entry.originalColumn });
  }
  return profile;
});
await built.app.listen({ host: '127.0.0.1', port });
const ids = workloadIds(built.store, organization);
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, admin: built.credentials.admin, credentials: built.credentials, fixtures: built.fixtures, ids, rss: process.memoryUsage().rss })}\n`);
const stop = () => {
  void built.app.close().then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
