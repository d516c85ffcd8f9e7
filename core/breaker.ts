/**
 * The run-level circuit breaker: after N consecutive requests of a run got no answer (a timeout,
 * a reset, a refused connection, bytes that are not HTTP), across every operation and every vitest
 * worker, or no answer to 4 in 5 of the last 4N (a target that answers now and then, between
 * hangs, would otherwise never give N in a row), the target is declared unresponsive and no
 * further request is sent: the client answers each at once with the transport error
 * `CNF_TARGET_UNRESPONSIVE`, so the remaining cells fail fast with that reason instead of waiting
 * out one timeout each. It also carries the run's
 * interruption (SIGINT/SIGTERM), after which no request is sent and in-flight ones are aborted.
 *
 * The suites run in several worker processes, so the state lives in a directory of the run
 * (`conformance run` creates it and names it in {@link BREAKER_ENV}):
 * - `outcomes`: one byte per request that reached an outcome, appended (O_APPEND, so the order of
 *   the file is the order in which outcomes arrived, across processes): `o` answered, `t` timed
 *   out, `c` no answer for another reason. A process that records a no-answer reads the last 4N
 *   bytes; when the last N hold no `o`, or the 4N hold at most a fifth `o` ({@link isUnresponsive}),
 *   the target is unresponsive.
 * - `unresponsive`: created once with the reason (written aside, then linked: it never exists
 *   empty, and a second link fails); its presence trips every process.
 * - `interrupted`: created the same way by the main process on SIGINT/SIGTERM, with the signal's name.
 * A process notices the two files within {@link POLL_MS} (and at once for what it wrote itself);
 * it then aborts its in-flight requests through {@link RunBreaker.signal}.
 * @see docs/decisions.md (Harness: "A target that gives no answer is declared unresponsive for the whole run");
 *   docs/performance.md (A target that stops answering)
 */
import { closeSync, existsSync, fstatSync, linkSync, mkdirSync, openSync, readFileSync, readSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Environment variable naming the run's breaker: JSON `{"dir": string, "after": number}`. */
export const BREAKER_ENV = 'CONFORMANCE_BREAKER';

/** Consecutive requests without an answer after which the target is declared unresponsive, by default. */
export const DEFAULT_UNRESPONSIVE_AFTER = 5;

/** How often, in milliseconds, a process looks for the trip and interruption files of other processes. */
export const POLL_MS = 100;

/** Transport error code of a request not sent because the target was declared unresponsive. */
export const UNRESPONSIVE_CODE = 'CNF_TARGET_UNRESPONSIVE';

/** What became of one sent request, as the breaker counts it. */
export type RequestOutcome = 'answered' | 'timeout' | 'no_answer';

/** The breaker's state: `closed` (requests are sent), `unresponsive` (target declared so, with the reason), `interrupted` (the run was cut by a signal). */
export type BreakerState = { kind: 'closed' } | { kind: 'unresponsive'; reason: string } | { kind: 'interrupted'; signal: string };

/** Where a breaker keeps its state: a run directory shared by processes, or this process's memory. */
export interface BreakerOptions {
  /** Run directory shared by every process of the run; absent keeps the state in memory (one process). */
  dir?: string;
  /** Consecutive requests without an answer that trip the breaker; 0 never trips it. */
  after: number;
  /** The request timeout in milliseconds, named in the reason. */
  timeoutMs?: number;
}

/**
 * A run-level breaker. `state()` is read before every request; `record()` after every request
 * that was sent; `signal` is aborted when the breaker trips or the run is interrupted.
 */
export interface RunBreaker {
  readonly after: number;
  /** The current state; cheap (no I/O), refreshed by polling for other processes' files. */
  state(): BreakerState;
  /** Why the target was declared unresponsive, read from the run directory now (any process may have tripped it); undefined while it was not. */
  unresponsiveReason(): string | undefined;
  /** Counts the outcome of a sent request; may trip the breaker. */
  record(outcome: RequestOutcome): void;
  /** Aborted (with the state's reason) when the breaker trips or the run is interrupted. */
  readonly signal: AbortSignal;
  /** Marks the run interrupted by `signal` (`SIGINT`, `SIGTERM`) for every process of the run. */
  interrupt(signal: string): void;
  /** Stops polling and closes the outcomes file. */
  close(): void;
}

const BYTE: Record<RequestOutcome, string> = { answered: 'o', timeout: 't', no_answer: 'c' };

/**
 * Creates a breaker. With `dir`, the directory is created when missing and its files are shared
 * with every other breaker opened on it (other worker processes of the run).
 * @throws Error when `dir` cannot be created or written (a harness problem, not the target's)
 */
export function createRunBreaker(options: BreakerOptions): RunBreaker {
  const { dir, after } = options;
  let state: BreakerState = { kind: 'closed' };
  const controller = new AbortController();
  let memoryTail = '';
  let fd: number | undefined;
  let poller: NodeJS.Timeout | undefined;

  const files = dir ? { outcomes: path.join(dir, 'outcomes'), unresponsive: path.join(dir, 'unresponsive'), interrupted: path.join(dir, 'interrupted') } : undefined;
  if (dir && files) {
    mkdirSync(dir, { recursive: true });
    fd = openSync(files.outcomes, 'a+');
  }

  const enter = (next: BreakerState): void => {
    if (state.kind === 'interrupted' || next.kind === 'closed') return;
    if (state.kind === 'unresponsive' && next.kind === 'unresponsive') return;
    state = next;
    if (!controller.signal.aborted) controller.abort(new BreakerOpen(next));
    if (poller && next.kind === 'interrupted') clearInterval(poller);
  };

  const look = (): void => {
    if (!files) return;
    if (existsSync(files.interrupted)) enter({ kind: 'interrupted', signal: readText(files.interrupted) || 'SIGTERM' });
    else if (state.kind === 'closed' && existsSync(files.unresponsive)) enter({ kind: 'unresponsive', reason: readText(files.unresponsive) });
  };

  /** The last `4 * after` outcomes of the run, oldest first. */
  const tail = (): string => {
    if (fd === undefined) return memoryTail;
    const size = fstatSync(fd).size;
    const length = Math.min(WINDOW * after, size);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    return buffer.toString('latin1');
  };

  if (files) {
    look();
    poller = setInterval(look, POLL_MS);
    // Polling must not keep a worker or the CLI alive.
    poller.unref();
  }

  return {
    after,
    signal: controller.signal,
    state: () => state,
    unresponsiveReason() {
      if (files) return existsSync(files.unresponsive) ? readText(files.unresponsive) : undefined;
      return state.kind === 'unresponsive' ? state.reason : undefined;
    },
    record(outcome) {
      if (state.kind !== 'closed' || after <= 0) return;
      const byte = BYTE[outcome];
      if (fd !== undefined) writeSync(fd, byte);
      else memoryTail = (memoryTail + byte).slice(-WINDOW * after);
      if (outcome === 'answered') return;
      const last = tail();
      const evidence = isUnresponsive(last, after);
      if (!evidence) return;
      const reason = unresponsiveReason(evidence, options.timeoutMs);
      if (files) {
        // Another process may have tripped it first: its reason stands.
        createOnce(files.unresponsive, reason);
        look();
      }
      enter({ kind: 'unresponsive', reason: files ? readText(files.unresponsive) || reason : reason });
    },
    interrupt(signal) {
      if (files) createOnce(files.interrupted, signal);
      enter({ kind: 'interrupted', signal });
    },
    close() {
      if (poller) clearInterval(poller);
      poller = undefined;
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

/** How many times N outcomes the window of the second rule holds. */
const WINDOW = 4;

/**
 * Whether the last outcomes of a run (oldest first; `o` answered, `t` timed out, `c` other no
 * answer) declare the target unresponsive: the last `after` hold no answer, or the last
 * `4 * after` hold answers to at most a fifth of them. Returns the outcomes that decided it, or
 * undefined while the target counts as responsive; `after` 0 never declares it.
 */
export function isUnresponsive(last: string, after: number): { outcomes: string; consecutive: boolean } | undefined {
  if (after <= 0) return undefined;
  const recent = last.slice(-after);
  if (recent.length === after && !recent.includes('o')) return { outcomes: recent, consecutive: true };
  const window = last.slice(-WINDOW * after);
  const answered = [...window].filter((c) => c === 'o').length;
  if (window.length === WINDOW * after && answered * 5 <= window.length) return { outcomes: window, consecutive: false };
  return undefined;
}

/**
 * The reason a tripped breaker gives, from the outcomes that decided it: "the target gave no
 * answer to 5 consecutive requests (5 timeouts of 10000 ms): declared unresponsive, …".
 */
export function unresponsiveReason(evidence: { outcomes: string; consecutive: boolean }, timeoutMs?: number): string {
  const { outcomes, consecutive } = evidence;
  const timeouts = [...outcomes].filter((c) => c === 't').length;
  const others = [...outcomes].filter((c) => c === 'c').length;
  const parts = [
    ...(timeouts ? [`${timeouts} timeout${timeouts === 1 ? '' : 's'}${timeoutMs ? ` of ${timeoutMs} ms` : ''}`] : []),
    ...(others ? [`${others} connection failure${others === 1 ? '' : 's'} (reset, refused or not HTTP)`] : []),
  ];
  const what = consecutive ? `${outcomes.length} consecutive requests` : `${timeouts + others} of the last ${outcomes.length} requests`;
  return `the target gave no answer to ${what} (${parts.join(', ')}): declared unresponsive, and the rest of the run's requests were not sent`;
}

/** The abort reason of a breaker's signal: why in-flight requests were cut. */
export class BreakerOpen extends Error {
  readonly state: Exclude<BreakerState, { kind: 'closed' }>;
  constructor(state: Exclude<BreakerState, { kind: 'closed' }>) {
    super(state.kind === 'interrupted' ? `the run was interrupted (${state.signal})` : state.reason);
    this.name = 'BreakerOpen';
    this.state = state;
  }
}

/** Creates `file` holding `text` unless it exists, never visible empty: written aside, then hard-linked (which fails when the name exists). */
function createOnce(file: string, text: string): void {
  const aside = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(aside, text);
  try {
    linkSync(aside, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(aside);
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

let shared: RunBreaker | undefined | null = null;

/**
 * The breaker of the run this process belongs to, opened once from {@link BREAKER_ENV} (set by
 * `conformance run` for its vitest workers); undefined outside a run (unit tests, replay, diff).
 * @throws Error when the variable is set but not `{"dir": string, "after": number}`
 */
export function runBreakerFromEnv(env: NodeJS.ProcessEnv = process.env): RunBreaker | undefined {
  if (shared !== null) return shared;
  const raw = env[BREAKER_ENV];
  if (!raw) return (shared = undefined);
  const parsed = JSON.parse(raw) as Partial<BreakerOptions>;
  if (typeof parsed.dir !== 'string' || typeof parsed.after !== 'number') throw new Error(`${BREAKER_ENV} must be {"dir": string, "after": number}, not ${raw}`);
  return (shared = createRunBreaker({ dir: parsed.dir, after: parsed.after, ...(typeof parsed.timeoutMs === 'number' ? { timeoutMs: parsed.timeoutMs } : {}) }));
}
