/**
 * Where a run's time goes (`conformance run --timings`, and `timings` in report.json). The main
 * process times its own phases one after the other (start-up, setup, suites, reporting); each
 * vitest worker adds up the time of its work by kind (loading the document and compiling its
 * validators, generating cases, waiting on the target, judging) and writes its totals to the run's
 * directory at the end of every suite file, where the main process reads them.
 * @see docs/performance.md (Where a run's time goes)
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';

/**
 * The kinds of work a worker adds up, in milliseconds, in the order of an exchange: `document`
 * (loading the document, compiling validators), `generation` (drawing cases), `sending` (handing a
 * request to the HTTP client, which writes it to the socket), `waiting` (from then to the answer's
 * headers: the target and the network), `reading` (reading and decoding the answer's body),
 * `parsing` (its JSON) and `judging` (the checks). All but `waiting` and `reading` are synchronous,
 * so they add up to CPU time of the worker; `waiting` and `reading` are summed over the requests in
 * flight (cells run several at a time, engine/suite.ts), so they can exceed the worker's wall time.
 */
export const WORK_PHASES = ['document', 'generation', 'sending', 'waiting', 'reading', 'parsing', 'judging'] as const;
/** One of {@link WORK_PHASES}. */
export type WorkPhase = (typeof WORK_PHASES)[number];

/** The phases of the main process, one after the other, in milliseconds of wall-clock time. */
export const WALL_PHASES = ['startup', 'setup', 'suites', 'reporting'] as const;
/** One of {@link WALL_PHASES}. */
export type WallPhase = (typeof WALL_PHASES)[number];

/** What a worker (or the sum of all workers) did: milliseconds per kind of work, and exchanges judged. */
export interface WorkTotals {
  /** Milliseconds per kind of work; overlapping sendings of one worker (Promise.all) each count. */
  ms: Record<WorkPhase, number>;
  /** Milliseconds of `judging` per check id: the time in each check's `run` (a part of `judging`, which also holds the judging path's own work). */
  checks: Record<string, number>;
  /** Exchanges judged by the one judging path (engine/judge.ts). */
  exchanges: number;
}

/**
 * A run's timings, as report.json holds them and `--timings` prints them: the main process's
 * phases (wall clock, in sequence, summing to about `totalMs`), the workers' work summed over the
 * workers (so it can exceed the suites' wall time when workers run side by side), and the judged
 * exchanges with their rate over the suites' wall time.
 */
export interface RunTimings {
  /** From the process's start (or the library call) to the reports written, in milliseconds. */
  totalMs: number;
  wall: Record<WallPhase, number>;
  work: Record<WorkPhase, number>;
  /** Milliseconds of the workers' `judging` per check id, summed over the workers ({@link WorkTotals.checks}). */
  checks: Record<string, number>;
  /** Vitest workers that sent their totals. */
  workers: number;
  exchanges: number;
  /** Judged exchanges per second of the suites phase. */
  exchangesPerSecond: number;
}

/** Totals of nothing yet: every phase 0, no check timed. */
function emptyTotals(): WorkTotals {
  return { ms: Object.fromEntries(WORK_PHASES.map((phase) => [phase, 0])) as Record<WorkPhase, number>, checks: {}, exchanges: 0 };
}

const totals = emptyTotals();

/** Adds `ms` milliseconds to this process's total of `phase`. */
export function addWork(phase: WorkPhase, ms: number): void {
  totals.ms[phase] += ms;
}

/** Counts one judged exchange of this process. */
export function countExchange(): void {
  totals.exchanges += 1;
}

/** The milliseconds added to `phase` so far in this process (to leave a nested phase out of an outer one). */
export function workSoFar(phase: WorkPhase): number {
  return totals.ms[phase];
}

/**
 * Runs `fn` synchronously and adds its time to `phase`, less the time it spent in `document`
 * (validators compiled on first use are document work, not judging).
 */
export function timed<T>(phase: WorkPhase, fn: () => T): T {
  const started = performance.now();
  const documentBefore = totals.ms.document;
  try {
    return fn();
  } finally {
    const nested = phase === 'document' ? 0 : totals.ms.document - documentBefore;
    totals.ms[phase] += performance.now() - started - nested;
  }
}

/**
 * Runs a check's `run` (`fn`) synchronously and adds its time to the check's total
 * ({@link WorkTotals.checks}); the caller's `judging` holds it as well.
 * @param checkId the check's id
 */
export function timedCheck<T>(checkId: string, fn: () => T): T {
  const started = performance.now();
  try {
    return fn();
  } finally {
    totals.checks[checkId] = (totals.checks[checkId] ?? 0) + performance.now() - started;
  }
}

/**
 * Writes this worker's totals so far to `dir` (one file per process and thread, overwritten: the
 * totals are cumulative). Errors are ignored: timings never fail a run.
 */
export function flushWork(dir: string | undefined): void {
  if (!dir) return;
  try {
    writeFileSync(path.join(dir, `timings-${process.pid}-${threadId}.json`), JSON.stringify(totals));
  } catch {
    // The run's directory is gone (the run ended): nothing to report to.
  }
}

/**
 * The workers' totals written to `dir` by {@link flushWork}, summed.
 * @returns the sum and how many workers wrote one; zeros when none did or `dir` cannot be read
 */
export function readWork(dir: string): WorkTotals & { workers: number } {
  const sum: WorkTotals & { workers: number } = { ...emptyTotals(), workers: 0 };
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.startsWith('timings-') && name.endsWith('.json'));
  } catch {
    return sum;
  }
  for (const name of names) {
    try {
      const one = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as WorkTotals;
      for (const phase of WORK_PHASES) sum.ms[phase] += Number(one.ms?.[phase]) || 0;
      for (const [checkId, ms] of Object.entries(one.checks ?? {})) sum.checks[checkId] = (sum.checks[checkId] ?? 0) + (Number(ms) || 0);
      sum.exchanges += Number(one.exchanges) || 0;
      sum.workers += 1;
    } catch {
      // A file cut by a killed worker: its totals are lost, the others still count.
    }
  }
  return sum;
}

/** The three checks that took the most of `judging`, as `; most in a 12 ms, b 8 ms, c 3 ms` (empty when none was timed). */
function topChecks(checks: Record<string, number> | undefined): string {
  const top = Object.entries(checks ?? {}).sort(([, a], [, b]) => b - a).slice(0, 3);
  return top.length === 0 ? '' : `; most in ${top.map(([id, ms]) => `${id} ${Math.round(ms).toLocaleString('en-US')} ms`).join(', ')}`;
}

/** Text of {@link RunTimings} for the console (`--timings`): one line per phase, milliseconds rounded. */
export function formatTimings(timings: RunTimings): string {
  const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`.padStart(11);
  const lines = [
    `Timings: ${Math.round(timings.totalMs).toLocaleString('en-US')} ms in all`,
    `  start-up          ${ms(timings.wall.startup)}  process start to the run's start`,
    `  setup             ${ms(timings.wall.setup)}  document, target, reporters`,
    `  suites            ${ms(timings.wall.suites)}  vitest running the suite files (${timings.workers} worker${timings.workers === 1 ? '' : 's'})`,
    `    document        ${ms(timings.work.document)}  loading the document, compiling validators (summed over workers)`,
    `    generation      ${ms(timings.work.generation)}  drawing cases`,
    `    sending         ${ms(timings.work.sending)}  handing the requests to the HTTP client`,
    `    waiting         ${ms(timings.work.waiting)}  waiting on the target, to the answers' headers (summed over the requests in flight)`,
    `    reading         ${ms(timings.work.reading)}  reading and decoding the answers' bodies (summed over the requests in flight)`,
    `    parsing         ${ms(timings.work.parsing)}  parsing the answers' JSON`,
    `    judging         ${ms(timings.work.judging)}  running the checks${topChecks(timings.checks)}`,
    `  reporting         ${ms(timings.wall.reporting)}  writing the reports`,
    `  exchanges judged  ${timings.exchanges.toLocaleString('en-US')} (${Math.round(timings.exchangesPerSecond).toLocaleString('en-US')} per second of the suites)`,
  ];
  return `${lines.join('\n')}\n`;
}
