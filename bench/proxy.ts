/**
 * The conformance proxy's benchmark rows (part of `npm run bench`, or alone: `npx tsx bench/proxy.ts`):
 * 1. a list page at 50 connections straight to the reference and through `conformance proxy`
 *    (a process of its own, judging every exchange), and what the proxy adds to the median and p99
 *    at 500 requests per second, the routes taking turns of 200 ms (bench/load.ts
 *    `alternatingPacedLoad`), beside what a minimal proxy adds (bench/minimal-proxy.mjs, the
 *    ceiling: a bar the minimal proxy misses too is BOUNDED, not judged, when the proxy adds no more
 *    than the bar beyond the minimal proxy's figure) and what a proxy with a known tail adds (the
 *    calibration: it must be measured as missing the p99 bar); the same one request at a
 *    time on one connection (the proxy's cost without queueing);
 * 2. how many observed exchanges per second the proxy's judging threads (engine/observed/judge-pool.ts)
 *    judge, handed distinct answers of the reference's list pages as they came off the wire, once
 *    pages of other sizes have warmed them up (the median of several windows, each on a pool
 *    started afresh; the warm-up's rate shown beside, as is one judge in one thread's), and the
 *    heap one judge holds after 20,000 of them (findings kept, bodies not).
 * @see docs/observed.md (Performance); docs/performance.md
 */
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { request } from 'undici';
import { API_VERSIONS, loadSpec, specPath } from '../core/spec/load.js';
import { JudgePool, MAX_JUDGE_THREADS } from '../engine/observed/judge-pool.js';
import { ObservedJudge, type ObservedExchange } from '../engine/observed/judge.js';
import { flatHeaders, observedResponse } from '../engine/observed/response.js';
import { alternatingPacedLoad, latencies, loadGenerator, measureLoad, median, quantile } from './load.js';
import { loadAverage } from './load-average.js';
import { freePort, startServer, stopServer, type ServerProcess } from './processes.js';
import { Verdicts, type Out } from './verdicts.js';

/** The proxy's bars (issue: observed traffic judged). */
export const PROXY_BARS = {
  /** Added to the median latency of a list page at 50 connections, milliseconds. */
  maxAddedP50Ms: 1,
  /** Added to the p99 latency of a list page at 50 connections, milliseconds. */
  maxAddedP99Ms: 5,
  /** Observed exchanges judged per second. */
  minJudgedPerSecond: 2000,
} as const;

/**
 * Requests per second of the paced rows, whose added latency is judged: a busy test suite's rate,
 * below what the judge judges on this machine, so that what is measured is what the proxy adds to
 * an exchange, not the queue of a judge that a closed loop outruns (that row is shown beside).
 */
export const PACED_RATE = 500;
/**
 * Length of each route's turn in the paced rows, milliseconds: short enough that every route gets
 * a share of the same moments of the machine (60 turns each over the rows), long enough that each
 * sends a hundred requests over its own connections in a turn, as a steady load would.
 */
const PACED_SLICE_MS = 200;
/** Blocks of the paced rows, each of `durationS` seconds per route; their latencies are pooled. */
const PACED_BLOCKS = 4;
/**
 * The calibration proxy of the paced rows: the minimal proxy holding one answer in `holdEvery` for
 * `holdMs` milliseconds (1.5% of answers, 7 ms), a tail that misses the p99 bar. The rows must
 * measure it as missing it, or they could not tell a proxy that does.
 */
const CALIBRATION = { holdEvery: 67, holdMs: 7 } as const;

/** The list page of the latency rows. */
export const PROXY_PATH = '/v1/products/?limit=10';
/** Deadline of each part of the rows, milliseconds: a part that hangs is NOT MEASURED, and the next one runs. */
const ROW_TIMEOUT_MS = 180_000;
/** Exchanges judged for the memory figure. */
const MEMORY_EXCHANGES = 20_000;
/** Most heap a judge may hold after {@link MEMORY_EXCHANGES} exchanges: counts and findings, no bodies. */
const MAX_HELD_BYTES = 16 * 2 ** 20;

/** Where the rows go and where each bar's verdict goes (bench/verdicts.ts). */
export interface ProxyBenchOutput {
  out: Out;
  verdicts: Verdicts;
}

const ms = (value: number) => (value < 10 ? value.toFixed(2) : Math.round(value).toLocaleString('en-US'));
const whole = (value: number) => Math.round(value).toLocaleString('en-US');
const signed = (value: number) => (value < 0 ? `-${ms(-value)}` : `+${ms(value)}`);

/**
 * Measures and prints the proxy's rows against a running reference process. A part that cannot be
 * measured (a process that does not start, a load generator that fails) is printed NOT MEASURED
 * with its reason, and the next part is measured all the same (bench/verdicts.ts).
 * @param referenceUrl the reference's origin (`conformance serve --rate-limit off`)
 * @param headers sent with every request (the admin token, Accept-Encoding)
 * @param warmUpS seconds of each load not kept
 * @param durationS seconds of each load measured (and of each block of the paced rows, per route)
 */
export async function proxyRows(referenceUrl: string, headers: Record<string, string>, output: ProxyBenchOutput, warmUpS = 1, durationS = 3): Promise<void> {
  const { out, verdicts } = output;
  out(`Conformance proxy (${loadGenerator()}, ${warmUpS} s warm-up then ${durationS} s measured; ${headers['accept-encoding'] ? `Accept-Encoding "${headers['accept-encoding']}"` : 'no Accept-Encoding'}; latencies in ms)`);
  const servers: ServerProcess[] = [];
  const start = async (name: string, args: (port: number) => string[]) => {
    const port = await freePort();
    const server = await startServer(name, process.execPath, args(port), port, PROXY_PATH, headers, 30_000);
    servers.push(server);
    return server;
  };
  try {
    let proxy: ServerProcess | undefined;
    let minimal: ServerProcess | undefined;
    let calibration: ServerProcess | undefined;
    const started = await verdicts.measure('the proxy\'s latency rows', async () => {
      proxy = await start('proxy', (port) => ['bin/conformance.js', 'proxy', '--target', referenceUrl, '--port', String(port), '--reporter', '']);
      minimal = await start('minimal proxy', (port) => ['bench/minimal-proxy.mjs', referenceUrl, String(port)]);
      calibration = await start('calibration proxy', (port) => ['bench/minimal-proxy.mjs', referenceUrl, String(port), String(CALIBRATION.holdEvery), String(CALIBRATION.holdMs)]);
    });
    if (started && proxy && minimal && calibration) await latencyRows(referenceUrl, headers, output, { proxy, minimal, calibration }, warmUpS, durationS);
  } finally {
    for (const server of servers) await stopServer(server);
  }
  await verdicts.measure('the judge\'s rate', () => judgeRate(referenceUrl, headers, output), ROW_TIMEOUT_MS);
  out();
}

/** The proxies of the latency rows, running. */
interface Proxies {
  proxy: ServerProcess;
  minimal: ServerProcess;
  calibration: ServerProcess;
}

const row = (out: Out, cells: string[]) => out(cells.map((cell, i) => (i === 0 ? cell.padEnd(52) : cell.padStart(10))).join('  '));

/** Part 1: the closed-loop rows, the paced rows and one request at a time; each measured apart. */
async function latencyRows(referenceUrl: string, headers: Record<string, string>, { out, verdicts }: ProxyBenchOutput, { proxy, minimal, calibration }: Proxies, warmUpS: number, durationS: number): Promise<void> {
  let closedFailures = 0;
  await verdicts.measure('the proxy\'s closed-loop rows', async () => {
    out(`  straight to the reference, and through \`conformance proxy --target\` (its own process, judging every exchange on a thread of its own after answering it); ${loadAverage()}`);
    const direct = await measureLoad(`${referenceUrl}${PROXY_PATH}`, headers, 50, warmUpS, durationS);
    const through = await measureLoad(`${proxy.url}${PROXY_PATH}`, headers, 50, warmUpS, durationS);
    row(out, ['request, 50 connections', 'req/s', 'p50', 'p99', 'non-2xx']);
    row(out, [`GET ${PROXY_PATH} direct, as fast as answered`, whole(direct.rps), ms(direct.p50), ms(direct.p99), String(direct.failures)]);
    row(out, [`GET ${PROXY_PATH} through the proxy, as fast as answered`, whole(through.rps), ms(through.p50), ms(through.p99), String(through.failures)]);
    out(`  (shown: a closed loop sends the next request as soon as an answer comes, so through the proxy it runs at the judge's pace, every exchange judged, and the latency is the judge's queue)`);
    closedFailures = through.failures;
  }, ROW_TIMEOUT_MS);
  // Judged: the same page at a fixed rate over 50 connections, open loop, timed to the microsecond,
  // straight to the reference, through the minimal proxy (bench/minimal-proxy.mjs: node:http in,
  // undici out, nothing judged: what any second hop in Node adds here, the ceiling), through the
  // calibration proxy (the minimal one with a known tail) and through the conformance proxy. The
  // routes take turns of PACED_SLICE_MS, so that each gets a share of the same moments of the
  // machine; each route's latencies are pooled over PACED_BLOCKS blocks (all printed).
  await verdicts.measure('the proxy\'s paced rows', async () => {
    const routes = [
      { name: 'direct', url: referenceUrl },
      { name: 'minimal proxy', url: minimal.url },
      { name: `calibration proxy (${CALIBRATION.holdMs} ms on 1 in ${CALIBRATION.holdEvery})`, url: calibration.url },
      { name: 'through the proxy', url: proxy.url },
    ];
    const load = loadAverage();
    const blocks = await alternatingPacedLoad(routes.map((r) => r.url), PROXY_PATH, headers, { connections: 50, rate: PACED_RATE, sliceMs: PACED_SLICE_MS, warmUpS, blocks: PACED_BLOCKS, blockS: durationS });
    const pooled = routes.map((_, i) => blocks.flatMap((b) => b.latencies[i]!));
    const failures = routes.map((_, i) => blocks.reduce((sum, b) => sum + b.failures[i]!, 0));
    type Added = { p50: number; p99: number };
    const added = (through: readonly number[], direct: readonly number[]): Added => ({ p50: quantile(through, 0.5) - quantile(direct, 0.5), p99: quantile(through, 0.99) - quantile(direct, 0.99) });
    row(out, [`${PACED_RATE} req/s over 50 connections, in turns`, 'answers', 'p50', 'p99', 'non-2xx']);
    routes.forEach((route, i) => row(out, [`GET ${PROXY_PATH} ${route.name}`, whole(pooled[i]!.length), ms(quantile(pooled[i]!, 0.5)), ms(quantile(pooled[i]!, 0.99)), String(failures[i])]));
    out(`  (${PACED_BLOCKS} blocks of ${durationS} s per route in turns of ${PACED_SLICE_MS} ms, after ${warmUpS} s per route not kept; sent at ${whole(median(blocks.map((b) => b.rps)))} req/s; ${load} at the start)`);
    const [ceiling, calibrated, ours] = [1, 2, 3].map((i) => added(pooled[i]!, pooled[0]!)) as [Added, Added, Added];
    const perBlock = (i: number) => blocks.map((b) => signed(quantile(b.latencies[i]!, 0.99) - quantile(b.latencies[0]!, 0.99))).join(', ');
    out(`  added at ${PACED_RATE} req/s over 50 connections: the proxy ${ms(ours.p50)} ms to the median, ${ms(ours.p99)} ms to the p99; the minimal proxy ${ms(ceiling.p50)} and ${ms(ceiling.p99)} ms; the calibration proxy ${ms(calibrated.p99)} ms to the p99`);
    out(`    added to the p99 in each block: the proxy ${perBlock(3)}; the minimal proxy ${perBlock(1)}; the calibration proxy ${perBlock(2)}`);
    verdicts.judge(closedFailures === 0 && failures[3] === 0, `proxy at 50 connections: every answer through it 2xx (${closedFailures + failures[3]!} not)`);
    // BOUNDED only where the minimal proxy misses the bar too and the proxy adds no more than the
    // bar beyond the minimal proxy's own figure; otherwise judged as it is.
    const latencyBar = (ours: number, ceiling: number, bar: number, text: string) =>
      verdicts.judgeRow(ours <= bar, ceiling <= bar || ours - ceiling > bar, `${text}; the minimal proxy (node:http and undici, nothing judged) adds ${ms(ceiling)} ms, the proxy ${ms(ours - ceiling)} ms beyond it; ${load}`, 'the minimal proxy misses the bar too');
    latencyBar(ours.p50, ceiling.p50, PROXY_BARS.maxAddedP50Ms, `proxy adds ${ms(ours.p50)} ms to the median of GET ${PROXY_PATH} at ${PACED_RATE} req/s over 50 connections (bar <= ${PROXY_BARS.maxAddedP50Ms} ms)`);
    latencyBar(ours.p99, ceiling.p99, PROXY_BARS.maxAddedP99Ms, `proxy adds ${ms(ours.p99)} ms to the p99 of GET ${PROXY_PATH} at ${PACED_RATE} req/s over 50 connections (bar <= ${PROXY_BARS.maxAddedP99Ms} ms)`);
    // The measurement itself: a proxy known to miss the p99 bar must be measured as missing it.
    verdicts.judge(calibrated.p99 > PROXY_BARS.maxAddedP99Ms, `the paced rows see a tail that misses the p99 bar: the calibration proxy (1 answer in ${CALIBRATION.holdEvery} held ${CALIBRATION.holdMs} ms) adds ${ms(calibrated.p99)} ms to the p99 (must be > ${PROXY_BARS.maxAddedP99Ms} ms)`);
  }, ROW_TIMEOUT_MS);
  await verdicts.measure('the proxy one request at a time', async () => {
    const one = async (origin: string) => median(await latencies(origin, PROXY_PATH, headers, 500));
    await one(referenceUrl);
    await one(proxy.url);
    const alone = { direct: await one(referenceUrl), through: await one(proxy.url) };
    out(`  one request at a time on one connection (median of 500): direct ${ms(alone.direct)} ms, through the proxy ${ms(alone.through)} ms (+${ms(alone.through - alone.direct)} ms); ${loadAverage()}`);
  }, ROW_TIMEOUT_MS);
}

/** Pages of each list size of the judge's rate: several sizes, so that no page's body repeats. */
const JUDGE_PAGE_SIZES = [10, 9, 11, 8, 12, 7, 13, 6, 14];
/**
 * Pages of other sizes judged before the timing (pages that are never timed, about as large on
 * average), so that the judge's code is compiled as in a session under way: V8 keeps optimizing
 * the checks and the document's validators for about the first thousand pages a thread judges
 * (measured: about 200 functions compiled during a timed window after 200 pages, 26 after 2,000).
 */
const JUDGE_WARM_UP_SIZES = [3, 4, 5, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24];
/**
 * Windows of the judge's rate, each on a pool started afresh; their median is judged. One window
 * (about 1,400 pages, under a second) moved from 1,960 to 2,660 a second between runs on the same
 * idle machine with the same code.
 */
const JUDGE_WINDOWS = 5;

/** A list page as it came off the wire. */
interface Sample {
  request: ObservedExchange['request'];
  status: number;
  headers: Record<string, string>;
  raw: Buffer;
}

/**
 * Every page of four lists in several sortings, at the given page sizes, as it came off the wire;
 * a body seen before (in `seen`, which it adds to) is left out, so that no answer repeats.
 */
async function listPages(referenceUrl: string, headers: Record<string, string>, sizes: readonly number[], seen: Set<string>): Promise<Sample[]> {
  const samples: Sample[] = [];
  const lists = [['/v1/products/', ['created_at', '-created_at', 'name', '-name']], ['/v1/subscriptions/', ['started_at', '-started_at', 'status', '-status']], ['/v1/refunds/', ['created_at', '-created_at', 'amount', '-amount']], ['/v1/files/', ['created_at', '-created_at']]] as const;
  for (const limit of sizes) {
    for (const [list, sortings] of lists) {
      for (const sorting of sortings) {
        for (let page = 1; page <= 50; page++) {
          const url = `${referenceUrl}${list}?limit=${limit}&page=${page}&sorting=${sorting}`;
          const answer = await request(url, { headers: { ...headers, 'polar-version': '2026-10' } });
          const raw = Buffer.from(await answer.body.arrayBuffer());
          const text = observedResponse(answer.statusCode, flatHeaders(answer.headers), raw, raw.length, 1).body;
          if (answer.statusCode !== 200 || text.includes('"items":[]')) break;
          if (seen.has(text)) continue;
          seen.add(text);
          samples.push({ request: { method: 'GET', url, headers: { ...headers, 'polar-version': '2026-10' } }, status: answer.statusCode, headers: flatHeaders(answer.headers), raw });
        }
      }
    }
  }
  return samples;
}

/** Part 2: exchanges judged per second by the proxy's judging threads, and the heap one judge holds after {@link MEMORY_EXCHANGES}. */
async function judgeRate(referenceUrl: string, headers: Record<string, string>, { out, verdicts }: ProxyBenchOutput): Promise<void> {
  const load = loadAverage();
  // Distinct answers as they came off the wire: every page of four lists in several sortings and
  // page sizes, none twice. One judge, its documents loaded once, judges them each once, as the
  // proxy judges a long session: the checks remember verdicts per answer and per body, which
  // answers never seen before do not profit from; a timestamp seen before is remembered, as in any
  // session where the same records come back on other pages. The pages of the warm-up are of
  // other sizes, so that none of the timed ones has been judged before.
  const seen = new Set<string>();
  const samples = await listPages(referenceUrl, headers, JUDGE_PAGE_SIZES, seen);
  const warmUp = await listPages(referenceUrl, headers, JUDGE_WARM_UP_SIZES, seen);
  const judgeAll = (judge: ObservedJudge, pages: readonly Sample[], count = pages.length) => {
    for (let i = 0; i < count; i++) {
      const sample = pages[i % pages.length]!;
      judge.judge({ request: sample.request, response: observedResponse(sample.status, sample.headers, sample.raw, sample.raw.length, 1) });
    }
  };
  // As the proxy judges: every answer handed over raw, as it came off the wire, to the pool of
  // judging threads `conformance proxy` starts (one per core), which decode, parse and judge it;
  // no verdict comes back, the pool counts what it judged.
  const poolAll = async (pool: JudgePool, pages: readonly Sample[]) => {
    const startedAt = new Date();
    for (const sample of pages) pool.submitRaw(sample.request, { status: sample.status, headers: sample.headers, raw: sample.raw, size: sample.raw.length, elapsedMs: 1 }, startedAt);
    await pool.whenPendingBelow(1);
  };
  const loadSpecs = () => Promise.all(API_VERSIONS.map((v) => loadSpec(specPath(v))));
  // Several windows, each on a pool started afresh (new threads: nothing compiled, nothing
  // remembered), so that each measures the same thing and the same answers can be judged in each;
  // the median is judged, since one window of under a second moves by a fifth with the machine.
  const rates: number[] = [];
  const coldRates: number[] = [];
  const timed = samples.length;
  let threads = 0;
  for (let window = 0; window < JUDGE_WINDOWS; window++) {
    const pool = await JudgePool.start({ specs: await loadSpecs() });
    threads = pool.threads;
    try {
      const startedCold = performance.now();
      await poolAll(pool, warmUp);
      coldRates.push(warmUp.length / ((performance.now() - startedCold) / 1000));
      const started = performance.now();
      await poolAll(pool, samples);
      rates.push(timed / ((performance.now() - started) / 1000));
    } finally {
      await pool.close();
    }
  }
  const rate = median(rates);
  const coldRate = median(coldRates);
  // Shown beside: one judge in this thread, on the same answers.
  const session = new ObservedJudge({ specs: await loadSpecs() });
  judgeAll(session, warmUp);
  const startedOne = performance.now();
  judgeAll(session, samples);
  const rateOne = timed / ((performance.now() - startedOne) / 1000);
  const specs = await loadSpecs();
  // A full collection before each reading, so that the difference is what the judge holds.
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
  const before = process.memoryUsage().heapUsed;
  const long = new ObservedJudge({ specs });
  judgeAll(long, samples, MEMORY_EXCHANGES);
  gc();
  const held = process.memoryUsage().heapUsed - before;
  const bytes = samples.reduce((sum, s) => sum + s.raw.length, 0) / samples.length;
  out(`  judging as the proxy does, on its ${threads} judging thread${threads === 1 ? '' : 's'} (one per core, at most ${MAX_JUDGE_THREADS}): ${whole(rate)} exchanges/s, the median of ${JUDGE_WINDOWS} windows on pools started afresh (${rates.map(whole).join(', ')}; ${whole(timed)} distinct list pages of ${Math.min(...JUDGE_PAGE_SIZES)} to ${Math.max(...JUDGE_PAGE_SIZES)} records of products, subscriptions, refunds and files, ${(bytes / 1024).toFixed(1)} KB on the wire on average, each handed over raw and judged once in a window, after ${whole(warmUp.length)} pages of other sizes, split between the threads);`);
  out(`  the same threads on those first ${whole(warmUp.length)} pages, while V8 was still compiling the judge's code: ${whole(coldRate)} exchanges/s, the median of the windows (shown, not judged);`);
  out(`  one judge in one thread on the same answers: ${whole(rateOne)} exchanges/s (shown, not judged);`);
  out(`  heap held by a judge after ${MEMORY_EXCHANGES.toLocaleString('en-US')} exchanges: ${(held / 2 ** 20).toFixed(1)} MiB after a full collection`);
  verdicts.judge(rate >= PROXY_BARS.minJudgedPerSecond, `the judge judges ${whole(rate)} observed exchanges per second, the median of ${JUDGE_WINDOWS} windows (bar >= ${PROXY_BARS.minJudgedPerSecond.toLocaleString('en-US')}); ${load} at its start`);
  verdicts.judge(held < MAX_HELD_BYTES, `a judge holds ${(held / 2 ** 20).toFixed(1)} MiB after ${MEMORY_EXCHANGES.toLocaleString('en-US')} exchanges (bounded: bar < ${MAX_HELD_BYTES / 2 ** 20} MiB)`);
  void long.results();
}

// Alone: a reference process of its own.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out: Out = (line = '') => process.stdout.write(`${line}\n`);
  const verdicts = new Verdicts(out);
  out(`Benchmark of the conformance proxy, ${new Date().toISOString()}; ${os.cpus().length} cores, Node ${process.version}, ${loadAverage()} at start`);
  // The demo admin token of seed 1, which the reference process serves too.
  const { buildApp } = await import('../server/app.js');
  const seeded = await buildApp({ rateLimit: false, control: false });
  const headers = { authorization: `Bearer ${seeded.credentials.admin}`, 'accept-encoding': 'gzip, deflate, br' };
  await seeded.app.close();
  let reference: ServerProcess | undefined;
  try {
    const started = await verdicts.measure('the proxy\'s rows', async () => {
      const port = await freePort();
      reference = await startServer('reference', process.execPath, ['bin/conformance.js', 'serve', '--port', String(port), '--rate-limit', 'off'], port, '/v1/products/?limit=1', headers, 30_000);
    });
    if (started && reference) await proxyRows(reference.url, headers, { out, verdicts });
  } finally {
    if (reference) await stopServer(reference);
  }
  for (const line of verdicts.summary()) out(line);
  process.exitCode = verdicts.exitCode();
}
