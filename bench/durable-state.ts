/**
 * What `--state` costs the reads of a server under writes: the same load against a reference
 * without a state file and one with (bench/mixed-server.ts, rate limit on above the load), each
 * with a stream of writes (PATCH an order, replace a product's benefits, create a file; 4
 * connections) and, at the same time, the mixed workload's list reads (20 connections), measured
 * by two wrk (or autocannon) runs side by side; then once more with `--state` and a new journal
 * generation and background snapshot every 128 KiB, so that snapshots run all through the
 * measurement (a stress: the default is every 16 MiB). Prints read and write req/s, p50 and p99
 * of each, and PASS/FAIL: the p99 of reads with `--state` within 2x of that without, for both.
 * Exits 1 when a bar fails, 2 when the benchmark fails.
 * Usage: npx tsx bench/durable-state.ts
 * @see server/state-journal.ts; docs/reference-server.md (Durability (--state))
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadGenerator, measureLoad, type LoadResult } from './load.js';
import { mixedRequests, startMixedServer, stopMixedServer } from './mixed.js';
import { freePort } from './processes.js';

/** The bar: p99 of reads with --state over that without. */
export const MAX_P99_RATIO = 2;
const WARM_UP_S = 1;
const DURATION_S = 4;
const READ_CONNECTIONS = 20;
const WRITE_CONNECTIONS = 4;
const COMPACT_AFTER_BYTES = 128 * 1024;

process.chdir(path.resolve(fileURLToPath(new URL('..', import.meta.url))));
const out = (line = '') => process.stdout.write(`${line}\n`);
const ms = (value: number) => (value < 10 ? value.toFixed(2) : Math.round(value).toLocaleString('en-US'));
const whole = (value: number) => Math.round(value).toLocaleString('en-US');

/** Reads and writes at once against one server; the state directory, when given, is inspected afterwards. */
async function measure(stateFile: string | undefined, compactAfter?: number): Promise<{ reads: LoadResult; writes: LoadResult }> {
  const args = ['--port', String(await freePort()), '--rate-limit', '1000000', ...(stateFile ? ['--state', stateFile] : []), ...(compactAfter ? ['--compact-after', String(compactAfter)] : [])];
  const server = await startMixedServer(args);
  try {
    const all = mixedRequests(server.ids, 4000);
    const reads = all.filter((r) => r.method === 'GET');
    const writes = mixedRequests(server.ids, 600, 1, 16);
    const headers = { authorization: `Bearer ${server.admin}` };
    const [readResult, writeResult] = await Promise.all([
      measureLoad(`${server.url}/`, headers, READ_CONNECTIONS, WARM_UP_S, DURATION_S, reads),
      measureLoad(`${server.url}/`, headers, WRITE_CONNECTIONS, WARM_UP_S, DURATION_S, writes),
    ]);
    return { reads: readResult, writes: writeResult };
  } finally {
    await stopMixedServer(server);
  }
}

async function main(): Promise<void> {
  out(`--state under writes, ${new Date().toISOString()}: ${os.cpus().length} cores, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(2)} at start; ${loadGenerator()}, ${WARM_UP_S} s warm-up then ${DURATION_S} s measured`);
  out(`  reads: the mixed workload's list reads on ${READ_CONNECTIONS} connections; writes: PATCH an order, replace a product's benefits, create a file, on ${WRITE_CONNECTIONS} connections, at the same time`);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-state-'));
  mkdirSync(path.join(scratch, 'default'));
  mkdirSync(path.join(scratch, 'stressed'));
  try {
    const without = await measure(undefined);
    const withState = await measure(path.join(scratch, 'default', 'state.json'));
    const stressed = await measure(path.join(scratch, 'stressed', 'state.json'), COMPACT_AFTER_BYTES);
    const snapshots = (dir: string) => Math.max(...readdirSync(path.join(scratch, dir)).filter((name) => name.startsWith('state.json.journal.')).map((name) => Number(name.split('.').pop()))) - 1;
    out(`${'server'.padEnd(48)}  ${'read req/s'.padStart(10)}  ${'p50'.padStart(6)}  ${'p99'.padStart(6)}  ${'write req/s'.padStart(11)}  ${'p50'.padStart(6)}  ${'p99'.padStart(6)}  ${'non-2xx'.padStart(7)}  ${'snapshots'.padStart(9)}`);
    const row = (name: string, r: { reads: LoadResult; writes: LoadResult }, taken: string) =>
      out(`${name.padEnd(48)}  ${whole(r.reads.rps).padStart(10)}  ${ms(r.reads.p50).padStart(6)}  ${ms(r.reads.p99).padStart(6)}  ${whole(r.writes.rps).padStart(11)}  ${ms(r.writes.p50).padStart(6)}  ${ms(r.writes.p99).padStart(6)}  ${String(r.reads.failures + r.writes.failures).padStart(7)}  ${taken.padStart(9)}`);
    row('no state file', without, '-');
    row('--state (snapshot every 16 MiB, the default)', withState, String(snapshots('default')));
    row(`--state, a snapshot every ${COMPACT_AFTER_BYTES / 1024} KiB (stress)`, stressed, String(snapshots('stressed')));
    out('  with --state a write waits for its fsync, so writes run slower and drop kept answers less often than without');
    const ratio = withState.reads.p99 / without.reads.p99;
    const stressRatio = stressed.reads.p99 / without.reads.p99;
    const failures = [without, withState, stressed].reduce((sum, r) => sum + r.reads.failures + r.writes.failures, 0);
    const verdicts = [
      { pass: ratio <= MAX_P99_RATIO, text: `p99 of reads under writes with --state ${ms(withState.reads.p99)} ms, ${ratio.toFixed(2)}x that without (${ms(without.reads.p99)} ms) (bar <= ${MAX_P99_RATIO}x)` },
      { pass: stressRatio <= MAX_P99_RATIO, text: `the same with a background snapshot every ${COMPACT_AFTER_BYTES / 1024} KiB of journal: ${ms(stressed.reads.p99)} ms, ${stressRatio.toFixed(2)}x (bar <= ${MAX_P99_RATIO}x)` },
      { pass: failures === 0, text: `every answer 2xx (${failures} not)` },
    ];
    out('Summary');
    for (const verdict of verdicts) out(`  ${verdict.pass ? 'PASS' : 'FAIL'}  ${verdict.text}`);
    process.exitCode = verdicts.every((verdict) => verdict.pass) ? 0 : 1;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  process.stderr.write(`bench: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 2;
}
