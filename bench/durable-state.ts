/**
 * What `--state` costs the reads of a server under writes: the same load against a reference
 * without a state file and one with (bench/mixed-server.ts, rate limit on above the load), each
 * with a stream of writes (PATCH an order, replace a product's benefits, create a file; 4
 * connections) and, at the same time, the mixed workload's list reads (20 connections), measured
 * by two wrk (or autocannon) runs side by side. The state file's journal starts a new generation
 * and a background snapshot every 128 KiB, so that snapshots run during the measurement.
 * Prints read and write req/s, p50 and p99 for both, and PASS/FAIL for the bar: the p99 of reads
 * with `--state` within 2x of that without. Exits 1 when the bar fails, 2 when the benchmark fails.
 * Usage: npx tsx bench/durable-state.ts
 * @see server/state-journal.ts; issue 15, point 2
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
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
async function measure(stateFile: string | undefined): Promise<{ reads: LoadResult; writes: LoadResult }> {
  const args = ['--port', String(await freePort()), '--rate-limit', '1000000', ...(stateFile ? ['--state', stateFile, '--compact-after', String(COMPACT_AFTER_BYTES)] : [])];
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
  try {
    const stateFile = path.join(scratch, 'state.json');
    const without = await measure(undefined);
    const withState = await measure(stateFile);
    const generations = readdirSync(scratch).filter((name) => name.startsWith('state.json.journal.')).map((name) => Number(name.split('.').pop()));
    out(`${'server'.padEnd(40)}  ${'read req/s'.padStart(10)}  ${'p50'.padStart(6)}  ${'p99'.padStart(6)}  ${'write req/s'.padStart(11)}  ${'p50'.padStart(6)}  ${'p99'.padStart(6)}  ${'non-2xx'.padStart(7)}`);
    const row = (name: string, r: { reads: LoadResult; writes: LoadResult }) =>
      out(`${name.padEnd(40)}  ${whole(r.reads.rps).padStart(10)}  ${ms(r.reads.p50).padStart(6)}  ${ms(r.reads.p99).padStart(6)}  ${whole(r.writes.rps).padStart(11)}  ${ms(r.writes.p50).padStart(6)}  ${ms(r.writes.p99).padStart(6)}  ${String(r.reads.failures + r.writes.failures).padStart(7)}`);
    row('no state file', without);
    row('--state (fsync before every answer)', withState);
    out(`  with --state the journal reached generation ${Math.max(...generations)}: ${Math.max(...generations) - 1} background snapshots during the run (one per ${COMPACT_AFTER_BYTES / 1024} KiB of journal); the write rates differ: with --state a write waits for its fsync`);
    const ratio = withState.reads.p99 / without.reads.p99;
    const verdicts = [
      { pass: ratio <= MAX_P99_RATIO, text: `p99 of reads under writes with --state ${ms(withState.reads.p99)} ms, ${ratio.toFixed(2)}x that without (${ms(without.reads.p99)} ms) (bar <= ${MAX_P99_RATIO}x)` },
      { pass: without.reads.failures + without.writes.failures + withState.reads.failures + withState.writes.failures === 0, text: 'every answer 2xx' },
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
