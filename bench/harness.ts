/**
 * `npm run bench:harness`: the harness's own speed, each bar a ratio to a figure measured in the
 * same run (absolute times move by 2x between machines and with the load), on 127.0.0.1 only:
 * 1. the bundled run against the embedded reference (`conformance run --seed 20261122`) in under
 *    6 s, spawn to exit of `node bin/conformance.js run` (issue 23's bar, kept as it was); its
 *    timings' phases are printed;
 * 2. judged exchanges per second of the harness against the embedded reference, not paced
 *    (`--suites exchange --runs 200`, where judging is most of the work: `timings.exchanges` over
 *    the suites' wall time), at least {@link HARNESS_BARS.minShareOfTarget} of the rate at which a
 *    bare undici pool gets the same requests answered by a warm reference process: the exchange
 *    run's requests, recorded on their way to a reference process (bench/recording-proxy.ts) and
 *    replayed against a fresh one once to warm it, then in turns with the harness's runs. The
 *    median of {@link SHARE_ROUNDS} rounds is judged; where each exchange's time goes (drawing,
 *    sending, waiting, reading, parsing, each check, reporting) is printed (core/timings.ts);
 * 3. the largest corpus document (test/corpus/corpus.ts, by file size) against its Prism mock
 *    (static) with the default options (every operation, the default `--runs` and suites; only
 *    `--rate 0`, since a loopback mock has no rate limit), spawn to exit, within
 *    {@link HARNESS_BARS.maxCorpusOverPrism} times what a fresh Prism alone needs for the same
 *    requests (recorded through the recording proxy, replayed with undici at the most connections
 *    the harness had open at once); the harness's peak RSS on that document is printed beside it.
 * Every row prints the load average it ran under. A row that cannot be measured is NOT MEASURED
 * with its reason and the next row runs (bench/verdicts.ts). Exits 2 when a row could not be
 * measured, else 1 when a bar fails. Every process it starts is stopped, even on error.
 * @see docs/performance.md (The harness's own speed: npm run bench:harness)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHECKS } from '../checks/index.js';
import { loadSpec } from '../core/spec/load.js';
import type { RunTimings } from '../core/timings.js';
import { CORPUS, documentPath, mockFixtures, type CorpusDocument } from '../test/corpus/corpus.js';
// freePort from here rather than bench/processes.ts: its servers' signal handlers exit before the servers below are stopped.
import { freePort, startPrism, type PrismMock } from '../test/support/prism.js';
import { exitText, keepOutputTail } from './child-output.js';
import { median } from './load.js';
import { loadAverage } from './load-average.js';
import { startMixedServer, stopMixedServer, type MixedServer } from './mixed.js';
import { watchPeakRss } from './peak-rss.js';
import { parseRequests, replay, startRecordingProxy, type RecordedRequest, type RecordingProxy, type ReplayResult } from './recording-proxy.js';
import { Verdicts, type Out } from './verdicts.js';

/** The bars of issue 23 (A harness as fast as its target), as issue 42 restated them: ratios to the target's own pace in the same run. */
export const HARNESS_BARS = {
  /** The bundled run against the embedded reference, spawn to exit, milliseconds (absolute, as issue 23 set it). */
  maxBundledRunMs: 6_000,
  /** Judged exchanges per second against the embedded reference, not paced, over the rate a bare pool gets the same requests answered by a warm reference. */
  minShareOfTarget: 0.5,
  /** The largest corpus document against its Prism mock with the default options, spawn to exit, over what Prism alone needs for the same requests. */
  maxCorpusOverPrism: 1.5,
} as const;

/** Seed of every run of the benchmark (the issue's bundled run). */
const SEED = 20261122;
/** The exchange run of bar 2: the suite that is judging most of all, with more cases than the default 50. */
const EXCHANGE_SUITES = 'exchange';
const EXCHANGE_RUNS = 200;
/** Rounds of bar 2, each a run of the harness and a replay of its requests by the bare pool, in turns; their medians are judged. */
const SHARE_ROUNDS = 3;
/** Deadline of one conformance run: the corpus document's default run took 3.5 minutes at a load average of 7. */
const RUN_TIMEOUT_MS = 900_000;
/** Deadline of a row: its runs, replays and the servers they need. */
const ROW_TIMEOUT_MS = 1_500_000;
/** Deadline of the whole benchmark. */
const DEADLINE_MS = 2_700_000;

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
process.chdir(root);

const out: Out = (line = '') => process.stdout.write(`${line}\n`);
const whole = (value: number) => Math.round(value).toLocaleString('en-US');
const seconds = (msValue: number) => `${(msValue / 1000).toFixed(1)} s`;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const percent = (share: number) => `${Math.round(share * 100)}%`;

const verdicts = new Verdicts(out);

/** What one `conformance run` child gave. */
interface CliRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Spawn to exit, milliseconds. */
  wallMs: number;
  /** report.json's `timings` (null when the report is missing). */
  timings: RunTimings | null;
  durationMs: number | null;
  cells: number | null;
  /** The peak RSS of the run's process (and its children), bytes; undefined without /proc. */
  peakRss: number | undefined;
  /** The last 2,000 characters of its output, for errors and for what --timings printed after report.json. */
  tail: string;
}

/** The conformance runs in progress (killed at exit), and how to stop every server and proxy still running. */
const children = new Set<ChildProcess>();
const stops = new Map<object, () => Promise<void>>();

/** Keeps `thing` with its stop until {@link release}, so that a signal or the deadline stops it too. */
function keep<T extends object>(thing: T, stop: (t: T) => Promise<void>): T {
  stops.set(thing, () => stop(thing));
  return thing;
}

/** Stops what {@link keep} kept (nothing when it is undefined or already stopped). */
async function release(thing: object | undefined): Promise<void> {
  const stop = thing && stops.get(thing);
  if (!stop) return;
  stops.delete(thing);
  await stop();
}

/** The benchmark's scratch directory (configs, reports), removed at the end. */
const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-harness-'));

/** Kills the runs, stops the servers and proxies (5 s at most), removes the scratch directory, then exits with `code`. */
async function stopEverythingAndExit(code: number): Promise<never> {
  for (const child of children) child.kill('SIGKILL');
  await Promise.race([Promise.allSettled([...stops.values()].map((stop) => stop())), new Promise((resolve) => setTimeout(resolve, 5000))]);
  rmSync(scratch, { recursive: true, force: true });
  process.exit(code);
}

process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stopEverythingAndExit(130));

/**
 * Runs `node bin/conformance.js run ARGS --reporter json --output-dir DIR --timings` in a child
 * process, watching its peak RSS, and reads its report.json.
 * @param env added to this process's environment
 */
async function conformanceRun(args: readonly string[], outputDir: string, env: Record<string, string> = {}): Promise<CliRun> {
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/conformance.js', 'run', ...args, '--reporter', 'json', '--output-dir', outputDir, '--timings'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  children.add(child);
  const output = keepOutputTail(child);
  const memory = child.pid === undefined ? undefined : watchPeakRss(child.pid);
  const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
  const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (code, how) => resolve([code, how])));
  const peakRss = memory?.stop();
  clearTimeout(timer);
  children.delete(child);
  const wallMs = performance.now() - started;
  const ran = { exitCode, signal, wallMs, peakRss, tail: output.text() };
  try {
    const report = JSON.parse(readFileSync(path.join(outputDir, 'report.json'), 'utf8')) as { timings?: RunTimings | null; durationMs?: number; cells?: unknown[] };
    return { ...ran, timings: report.timings ?? null, durationMs: report.durationMs ?? null, cells: Array.isArray(report.cells) ? report.cells.length : null };
  } catch {
    return { ...ran, timings: null, durationMs: null, cells: null };
  }
}

/** A run ended as a run does (0: conforms, 1: failures found) with its timings; 2 or a kill is the harness's error. */
function ranThrough(run: CliRun): run is CliRun & { timings: RunTimings } {
  return (run.exitCode === 0 || run.exitCode === 1) && run.timings !== null;
}

/** Why a run cannot be measured: how it ended and what it printed last. */
function notThrough(run: CliRun): Error {
  return new Error(`the run ended without its timings (${exitText(run.exitCode, run.signal, run.tail)})`);
}

/**
 * The reporting phase and the total: report.json is written before the run ends, so its
 * `totalMs` and `reporting` are 0 there (reporters/json.ts); `--timings` prints them on standard
 * output at the end (core/timings.ts formatTimings).
 */
function reportingAndTotal(run: CliRun & { timings: RunTimings }): { reporting: number | undefined; total: number | undefined } {
  const printed = (pattern: RegExp) => {
    const found = pattern.exec(run.tail)?.[1];
    return found === undefined ? undefined : Number(found.replaceAll(',', ''));
  };
  const { timings } = run;
  return {
    reporting: timings.totalMs > 0 ? timings.wall.reporting : printed(/^\s*reporting\s+([\d,]+) ms/m),
    total: timings.totalMs > 0 ? timings.totalMs : printed(/Timings: ([\d,]+) ms in all/),
  };
}

function printTimings(run: CliRun & { timings: RunTimings }): void {
  const { timings } = run;
  const { wall, work } = timings;
  const { reporting, total } = reportingAndTotal(run);
  out(`    timings: start-up ${whole(wall.startup)}, setup ${whole(wall.setup)}, suites ${whole(wall.suites)}, reporting ${reporting === undefined ? '?' : whole(reporting)} ms; ${total === undefined ? '?' : whole(total)} ms in all`);
  out(`    workers' work (summed over ${timings.workers} workers): document ${whole(work.document)}, drawing ${whole(work.generation)}, sending ${whole(work.sending)}, waiting on the target ${whole(work.waiting)}, reading ${whole(work.reading)}, parsing ${whole(work.parsing)}, judging ${whole(work.judging)} ms`);
  out(`    exchanges judged ${whole(timings.exchanges)}, ${whole(timings.exchangesPerSecond)} per second of the suites`);
}

/** The conformance class of each check id (the check families of the reports), for {@link printExchangeTime}. */
const FAMILY = new Map(CHECKS.map((check) => [check.id, check.conformanceClass]));

/**
 * Where one judged exchange's time goes, in microseconds per exchange: the suites' wall time per
 * exchange, the workers' phases (drawing, sending, waiting, reading, parsing, judging, by check
 * family and the largest checks), reporting, and what none of them holds (vitest's own work, the
 * embedded reference's share of the thread, idle time), beside the target alone's time per request.
 */
function printExchangeTime(run: CliRun & { timings: RunTimings }, targetMsPerRequest: number): void {
  const { timings } = run;
  const n = Math.max(1, timings.exchanges);
  const us = (msValue: number) => `${whole((msValue * 1000) / n)} µs`;
  const { work, wall, checks } = timings;
  const families = new Map<string, number>();
  for (const [checkId, msValue] of Object.entries(checks ?? {})) families.set(FAMILY.get(checkId) ?? 'other', (families.get(FAMILY.get(checkId) ?? 'other') ?? 0) + msValue);
  const byFamily = [...families].sort(([, a], [, b]) => b - a).map(([family, msValue]) => `${family} ${us(msValue)}`).join(', ');
  const topChecks = Object.entries(checks ?? {}).sort(([, a], [, b]) => b - a).slice(0, 5).map(([id, msValue]) => `${id} ${us(msValue)}`).join(', ');
  const inChecks = Object.values(checks ?? {}).reduce((sum, msValue) => sum + msValue, 0);
  // The worker's own synchronous work; waiting and reading overlap across the requests in flight.
  const cpu = work.document + work.generation + work.sending + work.parsing + work.judging;
  const { reporting } = reportingAndTotal(run);
  out(`    where an exchange's time goes (per judged exchange, ${whole(n)} exchanges; ${timings.workers} worker${timings.workers === 1 ? '' : 's'}):`);
  out(`      suites' wall time ${us(wall.suites)}; the target alone answers one of these requests in ${whole(targetMsPerRequest * 1000)} µs (the bare pool, warm)`);
  out(`      drawing cases ${us(work.generation)}, sending ${us(work.sending)}, waiting on the target ${us(work.waiting)} and reading ${us(work.reading)} (both summed over the requests in flight), parsing ${us(work.parsing)}`);
  out(`      judging ${us(work.judging)}: in the checks ${us(inChecks)} (by family: ${byFamily || 'none timed'}; the largest: ${topChecks || 'none'}), the judging path's own ${us(work.judging - inChecks)}`);
  out(`      the document and its validators ${us(work.document)}; reporting ${reporting === undefined ? '?' : us(reporting)}; not in any phase (vitest, the embedded reference's share of the thread, idle): ${us(Math.max(0, wall.suites - cpu - work.waiting - work.reading))} at least, with waiting and reading taken as wall time`);
}

/** The requests a recording proxy saw, parsed back. */
async function recordedRequests(proxy: RecordingProxy): Promise<RecordedRequest[]> {
  const requests = await parseRequests(proxy.streams());
  if (requests.length === 0) throw new Error('the recording proxy saw no request');
  return requests;
}

const replayText = (result: ReplayResult) => `${whole(result.requests)} requests in ${seconds(result.ms)} (${whole(result.rps)} req/s) at ${result.connections} connection${result.connections === 1 ? '' : 's'}${result.errors > 0 ? `, ${result.errors} without an answer` : ''}`;

/** The corpus document with the largest file. */
function largestCorpusDocument(): CorpusDocument {
  return [...CORPUS].sort((a, b) => statSync(documentPath(b)).size - statSync(documentPath(a)).size)[0]!;
}

/** Row 1: the bundled run, spawn to exit. */
async function bundledRow(): Promise<void> {
  const load = loadAverage();
  out(`1. The bundled run against the embedded reference: node bin/conformance.js run --seed ${SEED} (spawn to exit; ${load} at the start)`);
  const bundled = await conformanceRun(['--seed', String(SEED)], path.join(scratch, 'bundled'));
  if (!ranThrough(bundled)) throw notThrough(bundled);
  out(`    ${whole(bundled.wallMs)} ms spawn to exit, exit ${bundled.exitCode}, ${whole(bundled.cells ?? 0)} cells; report.json durationMs ${whole(bundled.durationMs ?? NaN)}`);
  printTimings(bundled);
  verdicts.judge(bundled.wallMs < HARNESS_BARS.maxBundledRunMs, `bundled run ${seconds(bundled.wallMs)} spawn to exit (bar < ${seconds(HARNESS_BARS.maxBundledRunMs)}, absolute, as issue 23 set it; ${load})`);
}

/**
 * Row 2: judged exchanges per second against the embedded reference, over the rate a bare pool
 * gets the same requests answered by a warm reference process, in {@link SHARE_ROUNDS} rounds.
 */
async function shareRow(): Promise<void> {
  out(`2. Judged exchanges per second against the embedded reference (not paced): --suites ${EXCHANGE_SUITES} --runs ${EXCHANGE_RUNS} --seed ${SEED},`);
  const load = loadAverage();
  out(`   beside a bare undici pool replaying the same requests to a warm reference process (${SHARE_ROUNDS} rounds in turns; ${load} at the start)`);
  const runArgs = ['--seed', String(SEED), '--suites', EXCHANGE_SUITES, '--runs', String(EXCHANGE_RUNS)];
  // The same run against a reference process (bench/mixed-server.ts: the demo store, tokens and
  // fixtures of the embedded one), through the recording proxy: its requests are the embedded run's.
  let server: MixedServer | undefined;
  let proxy: RecordingProxy | undefined;
  let requests: RecordedRequest[];
  let connections: number;
  let recorded: CliRun;
  try {
    server = keep(await startMixedServer(['--port', String(await freePort()), '--rate-limit', '1000000']), stopMixedServer);
    proxy = keep(await startRecordingProxy(server.url), (p) => p.stop());
    const config = path.join(scratch, 'reference.config.json');
    writeFileSync(config, JSON.stringify({ fixtures: server.fixtures }));
    const env = Object.fromEntries(Object.entries(server.credentials).map(([role, token]) => [`CONFORMANCE_${role.toUpperCase()}_TOKEN`, token]));
    recorded = await conformanceRun(['--target', proxy.url, '--config', config, '--adapter', 'reference', '--rate', '0', ...runArgs], path.join(scratch, 'recorded'), env);
    if (!ranThrough(recorded)) throw notThrough(recorded);
    requests = await recordedRequests(proxy);
    connections = Math.max(1, proxy.peakConnections());
  } finally {
    await release(proxy);
    await release(server);
  }
  // A fresh reference process, warmed by one replay, then the rounds: the harness's run, then the replay.
  const harness: (CliRun & { timings: RunTimings })[] = [];
  const alone: ReplayResult[] = [];
  let first: ReplayResult;
  try {
    server = keep(await startMixedServer(['--port', String(await freePort()), '--rate-limit', '1000000']), stopMixedServer);
    first = await replay(server.url, requests, connections);
    for (let round = 0; round < SHARE_ROUNDS; round++) {
      const run = await conformanceRun(runArgs, path.join(scratch, `exchange-${round}`));
      if (!ranThrough(run) || run.timings.exchanges === 0) throw notThrough(run);
      harness.push(run);
      alone.push(await replay(server.url, requests, connections));
    }
  } finally {
    await release(server);
  }
  const rates = harness.map((run) => run.timings.exchangesPerSecond);
  const targetRates = alone.map((result) => result.rps);
  const [rate, targetRate] = [median(rates), median(targetRates)];
  const share = rate / targetRate;
  const middle = harness[rates.indexOf(rate)]!;
  out(`    the harness: ${rates.map(whole).join(', ')} judged exchanges per second of the suites (median ${whole(rate)}; ${whole(middle.timings.exchanges)} exchanges a run, exit ${middle.exitCode})`);
  out(`    the target alone (a bare undici pool, the same ${whole(requests.length)} requests at ${connections} connections, the most the recorded run had open at once): ${targetRates.map(whole).join(', ')} req/s warm (median ${whole(targetRate)}); just started ${whole(first.rps)} req/s`);
  out(`    the same run against the reference process through the recording proxy: ${whole(recorded.timings!.exchanges)} exchanges, ${whole(recorded.timings!.exchangesPerSecond)} per second of the suites (shown, not judged)`);
  out(`    the median run (${whole(middle.wallMs)} ms spawn to exit):`);
  printTimings(middle);
  printExchangeTime(middle, 1000 / targetRate);
  verdicts.judge(share >= HARNESS_BARS.minShareOfTarget, `the harness judges ${whole(rate)} exchanges per second against the embedded reference, ${percent(share)} of the ${whole(targetRate)} a second a bare pool gets the same requests answered by a warm reference (bar >= ${percent(HARNESS_BARS.minShareOfTarget)}; medians of ${SHARE_ROUNDS} rounds; ${load})`);
}

/** Row 3: the largest corpus document against its Prism mock with the default options, beside Prism alone on the same requests. */
async function corpusRow(): Promise<void> {
  const doc = largestCorpusDocument();
  const file = documentPath(doc);
  const spec = await loadSpec(file);
  out(`3. The largest corpus document: ${doc.id} (${doc.package}/${doc.file}, ${(statSync(file).size / 2 ** 20).toFixed(1)} MiB, ${spec.operations.length} operations, every one run),`);
  const load = loadAverage();
  out(`   against Prism (static) with the default options: --rate 0 --seed ${SEED}, the default --runs and suites; through the recording proxy (${load} at the start)`);
  const config = path.join(scratch, 'corpus.config.json');
  writeFileSync(config, JSON.stringify({ roles: { admin: { tokenEnv: 'CORPUS_TOKEN' } }, fixtures: mockFixtures(spec) }));
  let prism: PrismMock | undefined;
  let proxy: RecordingProxy | undefined;
  let corpus: CliRun;
  let requests: RecordedRequest[];
  let connections: number;
  try {
    prism = keep(await startPrism(file, 'static'), (p) => p.stop());
    proxy = keep(await startRecordingProxy(prism.url), (p) => p.stop());
    corpus = await conformanceRun(['--target', proxy.url, '--spec', file, '--config', config, '--seed', String(SEED), '--rate', '0'], path.join(scratch, 'corpus'), { CORPUS_TOKEN: 'corpus-token' });
    if (!ranThrough(corpus)) throw notThrough(corpus);
    requests = await recordedRequests(proxy);
    connections = Math.max(1, proxy.peakConnections());
  } finally {
    await release(proxy);
    await release(prism);
  }
  // Prism alone, as the harness found it: a fresh one, the same requests, the same connections.
  let alone: ReplayResult;
  try {
    prism = keep(await startPrism(file, 'static'), (p) => p.stop());
    alone = await replay(prism.url, requests, connections);
  } finally {
    await release(prism);
  }
  const ratio = corpus.wallMs / alone.ms;
  out(`    harness: ${whole(corpus.wallMs)} ms spawn to exit, exit ${corpus.exitCode} (failures of Prism's mock are expected: test/corpus/expectations.json), ${whole(corpus.cells ?? 0)} cells; peak RSS ${corpus.peakRss === undefined ? 'unknown (no /proc)' : mib(corpus.peakRss)}`);
  printTimings(corpus);
  out(`    Prism alone (a fresh one): the harness's ${replayText(alone)}`);
  verdicts.judge(ratio <= HARNESS_BARS.maxCorpusOverPrism, `${doc.id} (${spec.operations.length} operations, default options) against Prism: the harness ${seconds(corpus.wallMs)} spawn to exit, ${ratio.toFixed(2)}x Prism alone's ${seconds(alone.ms)} for the same ${whole(alone.requests)} requests (bar <= ${HARNESS_BARS.maxCorpusOverPrism}x); the harness's peak RSS ${corpus.peakRss === undefined ? 'unknown' : mib(corpus.peakRss)}; ${load}`);
}

async function main(): Promise<void> {
  const deadline = setTimeout(() => {
    process.stderr.write(`bench:harness: still running after ${DEADLINE_MS / 1000} s, giving up\n`);
    void stopEverythingAndExit(2);
  }, DEADLINE_MS);
  deadline.unref();
  out(`Benchmark of the harness's own speed, ${new Date().toISOString()}`);
  out(`Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}, ${loadAverage()} at start`);
  out();
  try {
    await verdicts.measure('the bundled run', bundledRow, ROW_TIMEOUT_MS);
    out();
    await verdicts.measure('judged exchanges per second as a share of the target\'s', shareRow, ROW_TIMEOUT_MS);
    out();
    await verdicts.measure('the largest corpus document against Prism', corpusRow, ROW_TIMEOUT_MS);
    out();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  out('Summary');
  for (const line of verdicts.summary()) out(line);
  process.exitCode = verdicts.exitCode();
}

try {
  await main();
} catch (error) {
  process.stderr.write(`bench:harness: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 2;
}
