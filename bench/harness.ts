/**
 * `npm run bench:harness`: the harness's own speed, side by side with its target's own throughput
 * in the same run, on 127.0.0.1 only. Three bars (issue 23), each printed PASS or FAIL with its
 * figures and, beside it, the requests per second the target answered alone:
 * 1. the bundled run against the embedded reference (`conformance run --seed 20261122`) in under 6 s,
 *    spawn to exit of `node bin/conformance.js run`; its timings' phases are printed;
 * 2. at least 3,000 judged exchanges per second against the embedded reference (not paced):
 *    `timings.exchanges` over the suites' wall time of a run of the exchange suite alone with more
 *    cases (`--suites exchange --runs 200`), where judging is most of the work;
 * 3. the largest corpus document (test/corpus/corpus.ts, by file size) against its Prism mock
 *    (static) in under 30 s, or within 1.5x of the time Prism alone needs for the same requests,
 *    whichever is larger. The harness's requests go through a recording proxy (bench/recording-proxy.ts,
 *    bytes copied both ways); they are then replayed against a fresh Prism with undici at the
 *    most connections the harness had open at once.
 * The reference's own throughput comes the same way: a run of the exchange suite against a
 * reference process (bench/mixed-server.ts) through the recording proxy, its requests replayed
 * against a fresh one.
 * Exits 1 when a bar fails, 2 when the benchmark itself fails or a bar cannot be measured. Every
 * process it starts is stopped, even on error.
 * @see docs/performance.md (The harness's own speed: npm run bench:harness)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSpec } from '../core/spec/load.js';
import type { RunTimings } from '../core/timings.js';
import { CORPUS, documentPath, mockFixtures, type CorpusDocument } from '../test/corpus/corpus.js';
// freePort from here rather than bench/processes.ts, whose signal handlers exit before the servers below are stopped.
import { freePort, startPrism, type PrismMock } from '../test/support/prism.js';
import { startMixedServer, stopMixedServer, type MixedServer } from './mixed.js';
import { parseRequests, replay, startRecordingProxy, type RecordingProxy, type ReplayResult } from './recording-proxy.js';

/** The bars of issue 23 (A harness as fast as its target). */
export const HARNESS_BARS = {
  /** The bundled run against the embedded reference, spawn to exit, milliseconds. */
  maxBundledRunMs: 6_000,
  /** Judged exchanges per second of the suites' wall time, against the reference, not paced. */
  minExchangesPerSecond: 3_000,
  /** The largest corpus document against its Prism mock, milliseconds... */
  maxCorpusRunMs: 30_000,
  /** ...or this many times what Prism alone needs for the same requests, whichever is larger. */
  maxCorpusOverPrism: 1.5,
} as const;

/** Seed of every run of the benchmark (the issue's bundled run). */
const SEED = 20261122;
/** The exchange run of bar 2: the suite that is judging most of all, with more cases than the default 50. */
const EXCHANGE_SUITES = 'exchange';
const EXCHANGE_RUNS = 200;
/** Cases per operation and check of the corpus run (`npm run corpus`'s default). */
const CORPUS_RUNS = 3;
/** The suites of a corpus run (test/corpus/corpus.ts `runCorpusDocument`). */
const CORPUS_SUITES = 'exchange,pagination,negative,auth,writes';
const RUN_TIMEOUT_MS = 300_000;
const DEADLINE_MS = 900_000;

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
process.chdir(root);

const out = (line = '') => process.stdout.write(`${line}\n`);
const whole = (value: number) => Math.round(value).toLocaleString('en-US');
const seconds = (msValue: number) => `${(msValue / 1000).toFixed(1)} s`;

/** One bar's outcome: judged (PASS/FAIL) or not measured (the benchmark failed to measure it). */
interface BarLine {
  status: 'PASS' | 'FAIL' | 'NOT MEASURED';
  text: string;
}
const bars: BarLine[] = [];

/** What one `conformance run` child gave. */
interface CliRun {
  exitCode: number | null;
  /** Spawn to exit, milliseconds. */
  wallMs: number;
  /** report.json's `timings` (null when the report is missing). */
  timings: RunTimings | null;
  durationMs: number | null;
  cells: number | null;
  /** The last 2,000 characters of its output, for errors. */
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
 * process and reads its report.json.
 * @param env added to this process's environment
 */
async function conformanceRun(args: readonly string[], outputDir: string, env: Record<string, string> = {}): Promise<CliRun> {
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/conformance.js', 'run', ...args, '--reporter', 'json', '--output-dir', outputDir, '--timings'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  children.add(child);
  let tail = '';
  const keep = (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-2000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
  const exitCode = await new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  clearTimeout(timer);
  children.delete(child);
  const wallMs = performance.now() - started;
  try {
    const report = JSON.parse(readFileSync(path.join(outputDir, 'report.json'), 'utf8')) as { timings?: RunTimings | null; durationMs?: number; cells?: unknown[] };
    return { exitCode, wallMs, timings: report.timings ?? null, durationMs: report.durationMs ?? null, cells: Array.isArray(report.cells) ? report.cells.length : null, tail };
  } catch {
    return { exitCode, wallMs, timings: null, durationMs: null, cells: null, tail };
  }
}

/** A run ended as a run does (0: conforms, 1: failures found) with its timings; 2 or a kill is the harness's error. */
function ranThrough(run: CliRun): run is CliRun & { timings: RunTimings } {
  return (run.exitCode === 0 || run.exitCode === 1) && run.timings !== null;
}

function printTimings(run: CliRun & { timings: RunTimings }): void {
  const { timings } = run;
  const { wall, work } = timings;
  // report.json is written before the run ends: its totalMs and reporting are 0 there (reporters/json.ts);
  // --timings prints them on standard output at the end (core/timings.ts formatTimings).
  const printed = (pattern: RegExp) => pattern.exec(run.tail)?.[1];
  const reporting = timings.totalMs > 0 ? whole(wall.reporting) : printed(/^\s*reporting\s+([\d,]+) ms/m);
  const total = timings.totalMs > 0 ? whole(timings.totalMs) : printed(/Timings: ([\d,]+) ms in all/);
  out(`    timings: start-up ${whole(wall.startup)}, setup ${whole(wall.setup)}, suites ${whole(wall.suites)}, reporting ${reporting ?? '?'} ms; ${total ?? '?'} ms in all`);
  out(`    workers' work (summed over ${timings.workers} workers): document ${whole(work.document)}, generation ${whole(work.generation)}, waiting on the target ${whole(work.waiting)}, judging ${whole(work.judging)} ms`);
  out(`    exchanges judged ${whole(timings.exchanges)}, ${whole(timings.exchangesPerSecond)} per second of the suites`);
}

/** The target alone: its first replay, on a target just started (as the harness's run found it), and a second one, warm. */
interface TargetAlone extends ReplayResult {
  /** The same requests replayed again right after, on the same target: its JIT and caches warm. */
  warm: ReplayResult;
}

/**
 * Replays a recording (the proxy's streams) against `origin` at the proxy's peak connections (at
 * least 1), twice: the recordings replayed are read-only (the exchange suite) or sent to a
 * stateless mock (Prism), so the second replay asks the same questions of the same data.
 */
async function replayRecording(proxy: RecordingProxy, origin: string): Promise<TargetAlone> {
  const requests = await parseRequests(proxy.streams());
  if (requests.length === 0) throw new Error('the recording proxy saw no request');
  const connections = Math.max(1, proxy.peakConnections());
  const first = await replay(origin, requests, connections);
  return { ...first, warm: await replay(origin, requests, connections) };
}

const targetAlone = (result: TargetAlone | undefined) =>
  result
    ? `target alone: ${whole(result.rps)} req/s just started, ${whole(result.warm.rps)} req/s warm (${whole(result.requests)} requests in ${seconds(result.ms)} and ${seconds(result.warm.ms)}, ${result.connections} connections${result.errors + result.warm.errors > 0 ? `, ${result.errors + result.warm.errors} without an answer` : ''})`
    : 'target alone: not measured';

/** The corpus document with the largest file. */
function largestCorpusDocument(): CorpusDocument {
  return [...CORPUS].sort((a, b) => statSync(documentPath(b)).size - statSync(documentPath(a)).size)[0]!;
}

async function main(): Promise<void> {
  const deadline = setTimeout(() => {
    process.stderr.write(`bench:harness: still running after ${DEADLINE_MS / 1000} s, giving up\n`);
    void stopEverythingAndExit(2);
  }, DEADLINE_MS);
  deadline.unref();
  out(`Benchmark of the harness's own speed, ${new Date().toISOString()}`);
  out(`Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(2)} at start`);
  out();
  try {
    // The reference's own throughput, for bars 1 and 2: the exchange run's requests, recorded on
    // their way to a reference process, replayed against a fresh one.
    let referenceAlone: TargetAlone | undefined;
    let remote: CliRun | undefined;
    {
      let server: MixedServer | undefined;
      let proxy: RecordingProxy | undefined;
      try {
        server = keep(await startMixedServer(['--port', String(await freePort()), '--rate-limit', '1000000']), stopMixedServer);
        proxy = keep(await startRecordingProxy(server.url), (p) => p.stop());
        const config = path.join(scratch, 'reference.config.json');
        writeFileSync(config, JSON.stringify({ fixtures: server.fixtures }));
        const env = Object.fromEntries(Object.entries(server.credentials).map(([role, token]) => [`CONFORMANCE_${role.toUpperCase()}_TOKEN`, token]));
        remote = await conformanceRun(['--target', proxy.url, '--config', config, '--adapter', 'reference', '--rate', '0', '--seed', String(SEED), '--suites', EXCHANGE_SUITES, '--runs', String(EXCHANGE_RUNS)], path.join(scratch, 'remote'), env);
        await release(proxy);
        await release(server);
        server = keep(await startMixedServer(['--port', String(await freePort()), '--rate-limit', '1000000']), stopMixedServer);
        if (ranThrough(remote)) referenceAlone = await replayRecording(proxy, server.url);
        else out(`  (the recording run against a reference process ended with exit ${remote.exitCode}: ${remote.tail.trim().split('\n').slice(-3).join(' | ')})`);
      } finally {
        await release(proxy);
        await release(server);
      }
    }

    // Bar 1: the bundled run.
    out('1. The bundled run against the embedded reference: node bin/conformance.js run --seed 20261122 (spawn to exit)');
    const bundled = await conformanceRun(['--seed', String(SEED)], path.join(scratch, 'bundled'));
    if (ranThrough(bundled)) {
      out(`    ${whole(bundled.wallMs)} ms spawn to exit, exit ${bundled.exitCode}, ${whole(bundled.cells ?? 0)} cells; report.json durationMs ${whole(bundled.durationMs ?? NaN)}`);
      printTimings(bundled);
      bars.push({ status: bundled.wallMs < HARNESS_BARS.maxBundledRunMs ? 'PASS' : 'FAIL', text: `bundled run ${seconds(bundled.wallMs)} spawn to exit (bar < ${seconds(HARNESS_BARS.maxBundledRunMs)}); ${targetAlone(referenceAlone)} (the exchange run's requests, bar 2)` });
    } else {
      out(`    the run ended with exit ${bundled.exitCode} and ${bundled.timings ? '' : 'no '}timings: ${bundled.tail.trim()}`);
      bars.push({ status: 'NOT MEASURED', text: `bundled run: exit ${bundled.exitCode}` });
    }
    out();

    // Bar 2: judged exchanges per second.
    out(`2. Judged exchanges per second against the embedded reference (not paced): --suites ${EXCHANGE_SUITES} --runs ${EXCHANGE_RUNS} --seed ${SEED}`);
    const exchange = await conformanceRun(['--seed', String(SEED), '--suites', EXCHANGE_SUITES, '--runs', String(EXCHANGE_RUNS)], path.join(scratch, 'exchange'));
    if (ranThrough(exchange) && exchange.timings.exchanges > 0) {
      const rate = exchange.timings.exchangesPerSecond;
      out(`    ${whole(exchange.wallMs)} ms spawn to exit, exit ${exchange.exitCode}`);
      printTimings(exchange);
      if (remote && ranThrough(remote)) out(`    the same run against a reference process through the recording proxy: ${whole(remote.timings.exchanges)} exchanges, ${whole(remote.timings.exchangesPerSecond)} per second of the suites (shown, not judged)`);
      bars.push({ status: rate >= HARNESS_BARS.minExchangesPerSecond ? 'PASS' : 'FAIL', text: `${whole(rate)} judged exchanges per second (${whole(exchange.timings.exchanges)} in ${seconds(exchange.timings.wall.suites)} of suites; bar >= ${whole(HARNESS_BARS.minExchangesPerSecond)}); ${targetAlone(referenceAlone)}` });
    } else {
      out(`    the run ended with exit ${exchange.exitCode}, ${exchange.timings ? `${exchange.timings.exchanges} exchanges` : 'no timings'}: ${exchange.tail.trim()}`);
      bars.push({ status: 'NOT MEASURED', text: `judged exchanges per second: exit ${exchange.exitCode}` });
    }
    out();

    // Bar 3: the largest corpus document against its Prism mock, and Prism alone for the same requests.
    const doc = largestCorpusDocument();
    const file = documentPath(doc);
    const spec = await loadSpec(file);
    const operations = doc.operations ?? spec.operations.map((o) => o.operationId);
    out(`3. The largest corpus document: ${doc.id} (${doc.package}/${doc.file}, ${(statSync(file).size / 2 ** 20).toFixed(1)} MiB, ${spec.operations.length} operations, ${operations.length} run as in the corpus),`);
    out(`   against Prism (static), --runs ${CORPUS_RUNS} --rate 0 --suites ${CORPUS_SUITES} --seed ${SEED}; through the recording proxy`);
    const config = path.join(scratch, 'corpus.config.json');
    writeFileSync(config, JSON.stringify({ roles: { admin: { tokenEnv: 'CORPUS_TOKEN' } }, fixtures: mockFixtures(spec) }));
    let prism: PrismMock | undefined;
    let proxy: RecordingProxy | undefined;
    let corpus: CliRun | undefined;
    let prismAlone: TargetAlone | undefined;
    try {
      prism = keep(await startPrism(file, 'static'), (p) => p.stop());
      proxy = keep(await startRecordingProxy(prism.url), (p) => p.stop());
      corpus = await conformanceRun(['--target', proxy.url, '--spec', file, '--config', config, '--seed', String(SEED), '--runs', String(CORPUS_RUNS), '--rate', '0', '--suites', CORPUS_SUITES, ...(doc.operations ? ['--operations', doc.operations.join(',')] : [])], path.join(scratch, 'corpus'), { CORPUS_TOKEN: 'corpus-token' });
      await release(proxy);
      await release(prism);
      if (ranThrough(corpus)) {
        prism = keep(await startPrism(file, 'static'), (p) => p.stop());
        prismAlone = await replayRecording(proxy, prism.url);
      }
    } finally {
      await release(proxy);
      await release(prism);
    }
    if (corpus && ranThrough(corpus) && prismAlone) {
      const allowed = Math.max(HARNESS_BARS.maxCorpusRunMs, HARNESS_BARS.maxCorpusOverPrism * prismAlone.ms);
      out(`    harness: ${whole(corpus.wallMs)} ms spawn to exit, exit ${corpus.exitCode} (failures of Prism's mock are expected: test/corpus/expectations.json), ${whole(corpus.cells ?? 0)} cells`);
      printTimings(corpus);
      out(`    Prism alone (a fresh one): the ${whole(prismAlone.requests)} requests the harness sent, replayed with undici at ${prismAlone.connections} connections (the most the harness had open at once), in ${whole(prismAlone.ms)} ms (the bar's figure), and again, warm, in ${whole(prismAlone.warm.ms)} ms`);
      bars.push({ status: corpus.wallMs < allowed ? 'PASS' : 'FAIL', text: `${doc.id} against Prism ${seconds(corpus.wallMs)} spawn to exit (bar < ${seconds(allowed)}, the larger of ${seconds(HARNESS_BARS.maxCorpusRunMs)} and ${HARNESS_BARS.maxCorpusOverPrism}x Prism alone's ${seconds(prismAlone.ms)}); ${targetAlone(prismAlone)}` });
    } else {
      out(`    the run ended with exit ${corpus?.exitCode}: ${corpus?.tail.trim()}`);
      bars.push({ status: 'NOT MEASURED', text: `${doc.id} against Prism: exit ${corpus?.exitCode}` });
    }
    out();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  out('Summary');
  for (const bar of bars) out(`  ${bar.status.padEnd(12)}  ${bar.text}`);
  const failed = bars.filter((b) => b.status === 'FAIL').length;
  const unmeasured = bars.filter((b) => b.status === 'NOT MEASURED').length;
  out(unmeasured > 0 ? `${unmeasured} bar(s) could not be measured.` : failed === 0 ? 'Every bar is met.' : `${failed} of ${bars.length} bars failed.`);
  process.exitCode = unmeasured > 0 ? 2 : failed > 0 ? 1 : 0;
}

try {
  await main();
} catch (error) {
  process.stderr.write(`bench:harness: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 2;
}
