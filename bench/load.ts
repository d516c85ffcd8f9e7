/**
 * The two measurements of the benchmark: throughput under concurrent load and the latency of one
 * request at a time (undici, one kept-alive connection).
 *
 * Load comes from wrk (Debian's `wrk` package) when it is on the PATH, else from autocannon. On
 * two cores the load generator shares the machine with the server it measures: autocannon, itself
 * a Node process, needs a core to send 5,000 requests per second, so it measures its own limit as
 * much as the server's; wrk, in C, needs a fraction of that. Both servers of a comparison are
 * measured with the same generator.
 */
import { execFile, execFileSync, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { Client } from 'undici';
import { exitText, keepOutputTail } from './child-output.js';
import { writeWrkScript, type MixedRequest } from './mixed.js';

const run = promisify(execFile);

/** The load generator {@link measureLoad} uses: `wrk` when installed, else `autocannon`. */
export function loadGenerator(): 'wrk' | 'autocannon' {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return 'wrk';
  } catch (error) {
    // wrk prints its version and exits 1; only a missing binary is ENOENT.
    return (error as { code?: string }).code === 'ENOENT' ? 'autocannon' : 'wrk';
  }
}

/** What a load run measured. */
export interface LoadResult {
  /** Mean requests per second. */
  rps: number;
  /** Latency percentiles in milliseconds (wrk: microsecond resolution; autocannon: 1 ms). */
  p50: number;
  p99: number;
  /** Mean response size, in bytes. */
  bytesPerResponse: number;
  /** Responses that were not 2xx, plus connection errors and timeouts. */
  failures: number;
}

/**
 * Loads one URL with {@link loadGenerator}: `warmUpS` seconds unmeasured, then `durationS` seconds
 * measured, `connections` kept-alive connections, one request at a time on each.
 * @param headers sent with every request
 * @param requests when given, the requests to send instead of GET `url`, in order and round again (paths relative to `url`'s origin; see bench/mixed.ts)
 * @throws Error when wrk fails or prints what {@link parseWrk} cannot read
 */
export async function measureLoad(url: string, headers: Record<string, string>, connections: number, warmUpS: number, durationS: number, requests?: readonly MixedRequest[]): Promise<LoadResult> {
  return loadGenerator() === 'wrk' ? measureWithWrk(url, headers, connections, warmUpS, durationS, requests) : measureWithAutocannon(url, headers, connections, warmUpS, durationS, requests);
}

async function measureWithWrk(url: string, headers: Record<string, string>, connections: number, warmUpS: number, durationS: number, requests?: readonly MixedRequest[]): Promise<LoadResult> {
  const scratch = requests ? mkdtempSync(path.join(os.tmpdir(), 'bench-wrk-')) : undefined;
  try {
    const script = scratch && requests ? ['-s', writeWrkScript(path.join(scratch, 'requests.lua'), requests)] : [];
    const args = (duration: number) => ['-t1', `-c${connections}`, `-d${duration}s`, '--latency', ...script, ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]), url];
    if (warmUpS > 0) await run('wrk', args(warmUpS));
    const { stdout } = await run('wrk', args(durationS), { maxBuffer: 16 * 1024 * 1024 });
    return parseWrk(stdout);
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

const SIZE_UNITS: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };
const TIME_UNITS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

/**
 * Reads wrk's report (`--latency`): requests and bytes read, the 50% and 99% latencies, non-2xx
 * responses and socket errors.
 * @throws Error when a figure is missing
 */
export function parseWrk(report: string): LoadResult {
  const totals = /(\d+) requests in ([\d.]+)(us|ms|s|m), ([\d.]+)(B|KB|MB|GB|TB) read/.exec(report);
  const percentile = (p: string) => {
    const found = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(report);
    if (!found) throw new Error(`wrk printed no ${p}% latency:\n${report}`);
    return Number(found[1]) * TIME_UNITS[found[2]!]!;
  };
  if (!totals) throw new Error(`wrk printed no totals:\n${report}`);
  const requests = Number(totals[1]);
  const seconds = (Number(totals[2]) * TIME_UNITS[totals[3]!]!) / 1000;
  const bytes = Number(totals[4]) * SIZE_UNITS[totals[5]!]!;
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(report)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(report);
  const errors = socketErrors ? socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    rps: requests / seconds,
    p50: percentile('50'),
    p99: percentile('99'),
    bytesPerResponse: requests > 0 ? bytes / requests : 0,
    failures: non2xx + errors,
  };
}

async function measureWithAutocannon(url: string, headers: Record<string, string>, connections: number, warmUpS: number, durationS: number, requests?: readonly MixedRequest[]): Promise<LoadResult> {
  const sequence = requests?.map((r) => ({ method: r.method, path: r.path, ...(r.body === undefined ? {} : { body: r.body, headers: { ...headers, 'content-type': 'application/json' } }) }));
  const load = (duration: number) => autocannon({ url, headers, connections, duration, pipelining: 1, ...(sequence ? { requests: sequence } : {}) });
  if (warmUpS > 0) await load(warmUpS);
  const result = await load(durationS);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytesPerResponse: result.requests.total > 0 ? result.throughput.total / result.requests.total : 0,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * The latencies of `count` requests sent one at a time over one kept-alive connection.
 * @returns milliseconds, in the order sent
 * @throws Error when a response is not 200
 */
export async function latencies(origin: string, path: string, headers: Record<string, string>, count: number): Promise<number[]> {
  const client = new Client(origin, { pipelining: 1 });
  try {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const response = await client.request({ method: 'GET', path, headers });
      await response.body.arrayBuffer();
      if (response.statusCode !== 200) throw new Error(`GET ${path} answered ${response.statusCode}`);
      times.push(performance.now() - started);
    }
    return times;
  } finally {
    await client.close();
  }
}

/** One block of {@link alternatingPacedLoad}: per route, in the order of its origins. */
export interface PacedBlock {
  /** Latencies of the 2xx answers, milliseconds. */
  latencies: number[][];
  /** Requests not answered 2xx. */
  failures: number[];
  /** Requests per second actually sent, all routes (the schedule may fall behind on a loaded machine). */
  rps: number;
}

/** What {@link alternatingPacedLoad} is told. */
export interface AlternatingPacedOptions {
  /** Connections of each route's pool. */
  connections: number;
  /** Requests per second while a route has its turn. */
  rate: number;
  /** Length of a turn, milliseconds. */
  sliceMs: number;
  /** Seconds per route sent first and not kept. */
  warmUpS: number;
  /** Blocks kept (each one's latencies returned apart). */
  blocks: number;
  /** Seconds per route in each block. */
  blockS: number;
}

/**
 * An open-loop load on several routes (origins) that take turns in short slices: each sends at
 * `rate` requests per second over its own `connections` during its turn, each request at its time
 * whether or not earlier ones were answered, timed from its send to its body's end. Routes
 * measured in long windows one after another each get a different stretch of the machine (one
 * pause of a process, or of the virtual machine, moves a 3-second window's p99 by several
 * milliseconds); in turns of a fifth of a second, every route gets a share of the same moments.
 * The load is sent from a process of its own (bench/paced-load.mjs) that loads undici alone.
 * @returns one {@link PacedBlock} per block
 * @throws Error from the generator (an origin that cannot be reached at all), or when it ends
 *   without an answer: with its exit code, signal and last lines of output (bench/child-output.ts)
 */
export async function alternatingPacedLoad(origins: readonly string[], path: string, headers: Record<string, string>, options: AlternatingPacedOptions): Promise<PacedBlock[]> {
  const child = fork(fileURLToPath(new URL('./paced-load.mjs', import.meta.url)), [], { execArgv: [], serialization: 'advanced', stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  const output = keepOutputTail(child);
  const answer = await new Promise<{ blocks?: PacedBlock[]; error?: string }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as { blocks?: PacedBlock[]; error?: string }));
    child.once('error', (error) => reject(new Error(`the paced load generator could not be started or told its load: ${error.message}`)));
    // 'close', not 'exit': it comes once the IPC channel is closed too, after any message the
    // child wrote before it ended, so that an answer is never taken for missing.
    child.once('close', (code, signal) => reject(new Error(`the paced load generator ended without answering (${exitText(code, signal, output.text())})`)));
    child.send({ origins, path, headers, ...options });
  });
  if (answer.error !== undefined || !answer.blocks) throw new Error(`the paced load generator failed: ${answer.error}`);
  return answer.blocks;
}

/** The value at quantile `q` (0 to 1) of a non-empty list of numbers. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** The median of a non-empty list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
