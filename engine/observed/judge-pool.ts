/**
 * The judges of `conformance proxy`: observed judges on threads of their own (engine/observed/
 * worker-judge.ts), as many as the machine has cores (at most {@link MAX_JUDGE_THREADS}), so that
 * judging neither holds up forwarding nor is held to one core.
 *
 * The pool judges as one judge of all the traffic would (engine/observed/judge.ts `ObservedJudge`):
 * - exchanges that a multi-exchange check relates (the pages of one list walked by one client in
 *   one shape, a write and the same client's read of the same resource) go to the same thread
 *   (`ObservedJudge.route`), in traffic order;
 * - the shapes of one list (another page size or order) may go to other threads, so that one
 *   busy list is judged on every core: the thread of a list's next answer is handed the list's
 *   last answers when another thread judged them (its context, `ObservedJudge.recall`), so that
 *   it finds the `list_two_shapes` pairs one judge would;
 * - a write tells every other thread to forget its walks and writes, as it does in one judge;
 * - exchanges are numbered and secrets named here, in traffic order, and each thread takes those
 *   names, so reproducers name the same variables;
 * - the results are the threads' states added up (`ObservedJudge.absorb`).
 * A recording is written by one thread, in traffic order: a pool that records has one thread.
 * @see docs/observed.md (Performance)
 */
import { availableParallelism } from 'node:os';
import type { LoadedSpec } from '../../core/spec/load.js';
import type { HttpRequest, Role } from '../../core/types.js';
import type { BaselineEntry } from '../baseline.js';
import type { RunResults } from '../results.js';
import type { ContextAnswer, ObservedExchange, RawAnswer } from './exchange.js';
import { ObservedJudge, type ObservedJudgeOptions, type ObservedVerdict } from './judge.js';
import { WorkerJudge, type Routing } from './worker-judge.js';

/** Most judging threads a pool starts by default. */
export const MAX_JUDGE_THREADS = 4;

/** Most affinity keys remembered (each names its thread); past it the oldest is forgotten. */
const MAX_ROUTES = 10_000;
/** Most lists whose last answers are kept for a context (as many as a thread's PairFinder keeps), and most bytes of their answers; past either the oldest list is let go. */
const MAX_LISTS = 512;
const MAX_LIST_BYTES = 32 * 1024 * 1024;

/** An exchange as handed to a thread: decoded, or its answer as it came off the wire. */
type Handed = { exchange: ObservedExchange } | { request: HttpRequest; answer: RawAnswer };

/** An answer of a list, kept for the context of the list's next answer on another thread. */
interface ListAnswer {
  index: number;
  handed: Handed;
}

/** What the pool knows of a list's answers: the thread that saw its last one, and its last answers (engine/evidence.ts `PairFinder`: the last, and the last without page and limit). */
interface ListState {
  thread: number;
  last: ListAnswer;
  bare: ListAnswer | undefined;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What a {@link JudgePool} is started with. */
export interface JudgePoolOptions {
  /** The documents, loaded from their files (`LoadedSpec.file`), in the order of `ObservedJudgeOptions.specs`. */
  specs: readonly LoadedSpec[];
  basePaths?: readonly string[];
  /** The API's origins (`ObservedJudgeOptions.origins`). */
  origins?: readonly string[];
  roles?: readonly { token: string; role: Role; env: string }[];
  baseline?: readonly BaselineEntry[];
  /** The HAR file to record to (the pool then has one thread). */
  record?: string;
  /** Judging threads (default {@link defaultJudgeThreads}). */
  threads?: number;
}

/** The bytes of a list's kept answers (their bodies, as received or decoded). */
function bytesOf(state: ListState): number {
  const size = ({ handed }: ListAnswer) => ('exchange' in handed ? (handed.exchange.response?.body.length ?? 0) : handed.answer.raw.length);
  return size(state.last) + (state.bare && state.bare !== state.last ? size(state.bare) : 0);
}

/** The default number of judging threads: one per core up to {@link MAX_JUDGE_THREADS}; one when recording. */
export function defaultJudgeThreads(recording: boolean): number {
  return recording ? 1 : Math.max(1, Math.min(MAX_JUDGE_THREADS, availableParallelism()));
}

/** Observed judges on threads of their own, judging as one judge of all the traffic. */
export class JudgePool {
  readonly #threads: WorkerJudge[];
  readonly #options: ObservedJudgeOptions;
  /** Numbers exchanges, names secrets and finds each exchange's affinity; judges nothing. */
  readonly #coordinator: ObservedJudge;
  readonly #route = new Map<string, number>();
  /** Per list (`ObservedJudge.route`'s `list`), since the last write. */
  readonly #lists = new Map<string, ListState>();
  #listBytes = 0;
  /** Shared with every thread: exchanges judged by any of them, notified at each one. */
  readonly #judged: Int32Array;
  /** Secret names each thread has been given (a prefix of the coordinator's `secrets()`). */
  readonly #sent: number[];
  #index = 0;

  private constructor(threads: WorkerJudge[], options: ObservedJudgeOptions, judged: Int32Array) {
    this.#threads = threads;
    this.#judged = judged;
    this.#options = options;
    this.#coordinator = new ObservedJudge(options);
    this.#sent = threads.map(() => 0);
  }

  /**
   * Starts the threads and waits until each has loaded its documents.
   * @throws RangeError for a recording pool of more than one thread, or fewer than one thread;
   *   a thread's error (a HarnessError's message: CNF_ERR_SPEC_INVALID, CNF_ERR_CONFIG_INVALID for a
   *   recording that cannot be written)
   */
  static async start(options: JudgePoolOptions): Promise<JudgePool> {
    const count = options.threads ?? defaultJudgeThreads(options.record !== undefined);
    if (!Number.isInteger(count) || count < 1) throw new RangeError(`a judge pool needs at least one thread, not ${count}`);
    if (options.record !== undefined && count !== 1) throw new RangeError('a recording is written in traffic order by one thread: a recording pool has one thread');
    const { specs, record, threads: _threads, ...shared } = options;
    const judged = new Int32Array(new SharedArrayBuffer(4));
    const started = await Promise.allSettled(Array.from({ length: count }, () => WorkerJudge.start({ specFiles: specs.map((s) => s.file), ...shared, ...(record !== undefined ? { record } : {}) }, judged)));
    const judges = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) {
      await Promise.all(judges.map((j) => j.close()));
      throw failed.reason;
    }
    return new JudgePool(judges, { specs, ...shared }, judged);
  }

  /** Judging threads. */
  get threads(): number {
    return this.#threads.length;
  }

  /** Exchanges handed over and not judged yet, on all threads. */
  get pending(): number {
    let pending = 0;
    for (const thread of this.#threads) pending += thread.pending;
    return pending;
  }

  /**
   * Resolves once fewer than `limit` exchanges wait to be judged (at once when they already do):
   * how a proxy that hands exchanges over with {@link submitRaw} waits for judging to catch up.
   */
  async whenPendingBelow(limit: number): Promise<void> {
    for (;;) {
      const seen = Atomics.load(this.#judged, 0);
      if (this.pending < limit) return;
      const waiting = Atomics.waitAsync(this.#judged, 0, seen);
      if (waiting.async) await waiting.value;
    }
  }

  /**
   * The thread an exchange goes to, with its number, the secret names that thread lacks and the
   * list answers it lacks (its context).
   */
  #dispatch(handed: Handed): { thread: WorkerJudge; routing: Routing } {
    const request = 'exchange' in handed ? handed.exchange.request : handed.request;
    const answer = 'exchange' in handed ? handed.exchange.response : handed.answer;
    const index = ++this.#index;
    this.#coordinator.nameSecrets(request);
    const { affinity, list } = this.#coordinator.route(request, answer);
    let n = this.#route.get(affinity);
    if (n === undefined) {
      // A new key goes to the thread with the least work waiting.
      n = 0;
      for (let i = 1; i < this.#threads.length; i++) if (this.#threads[i]!.load < this.#threads[n]!.load) n = i;
      if (this.#route.size >= MAX_ROUTES) this.#route.delete(this.#route.keys().next().value!);
      this.#route.set(affinity, n);
    }
    if (!SAFE_METHODS.has(request.method.toUpperCase())) {
      this.#threads.forEach((thread, i) => i !== n && thread.forget());
      // Every thread forgets its lists (ObservedJudge.forget), and so does the pool.
      this.#lists.clear();
      this.#listBytes = 0;
    }
    const names = this.#coordinator.secrets();
    const context = list === undefined ? [] : this.#listContext(list, n, { index, handed }, answer?.status);
    const routing = { index, names: names.slice(this.#sent[n]), ...(context.length > 0 ? { context } : {}) };
    this.#sent[n] = names.length;
    return { thread: this.#threads[n]!, routing };
  }

  /**
   * The answers of `list` thread `n` must take before judging `current` (none when it saw the
   * list's last answers itself), and `current` kept as the list's last answer when it succeeded
   * (a PairFinder keeps only those).
   */
  #listContext(list: string, n: number, current: ListAnswer, status: number | undefined): ContextAnswer[] {
    const known = this.#lists.get(list);
    const context = known && known.thread !== n ? [known.bare, known.last].filter((entry, i, all): entry is ListAnswer => entry !== undefined && all.indexOf(entry) === i).sort((a, b) => a.index - b.index) : [];
    if (status !== undefined && status >= 200 && status < 300) {
      const url = new URL('exchange' in current.handed ? current.handed.exchange.request.url : current.handed.request.url);
      const bare = !url.searchParams.has('page') && !url.searchParams.has('limit');
      this.#letGo(list);
      const state = { thread: n, last: current, bare: bare ? current : known?.bare };
      this.#lists.set(list, state);
      this.#listBytes += bytesOf(state);
      while (this.#lists.size > MAX_LISTS || this.#listBytes > MAX_LIST_BYTES) this.#letGo(this.#lists.keys().next().value!);
    } else if (known) {
      known.thread = n;
    }
    return context.map(({ index, handed }) => ('exchange' in handed ? { index, exchange: handed.exchange } : { index, request: handed.request, answer: handed.answer }));
  }

  #letGo(list: string): void {
    const state = this.#lists.get(list);
    if (!state) return;
    this.#lists.delete(list);
    this.#listBytes -= bytesOf(state);
  }

  /** Judges (and records) one exchange. */
  judgeAsync(exchange: ObservedExchange, startedAt: Date): Promise<ObservedVerdict> {
    const { thread, routing } = this.#dispatch({ exchange });
    return thread.judgeAsync(exchange, startedAt, routing);
  }

  /**
   * Judges (and records) one answer as it came off the wire; its thread decodes and parses it
   * (engine/observed/worker-judge.ts `judgeRawAsync`).
   */
  judgeRawAsync(request: HttpRequest, answer: RawAnswer, startedAt: Date): Promise<ObservedVerdict> {
    const { thread, routing } = this.#dispatch({ request, answer });
    return thread.judgeRawAsync(request, answer, startedAt, routing);
  }

  /**
   * Hands over one answer as it came off the wire, as {@link judgeRawAsync} does, without its
   * verdict coming back: what was found is in {@link results}, and {@link pending} counts it until judged.
   */
  submitRaw(request: HttpRequest, answer: RawAnswer, startedAt: Date): void {
    const { thread, routing } = this.#dispatch({ request, answer });
    thread.submitRaw(request, answer, startedAt, routing);
  }

  /** Closes the recording and gives the results of everything judged, as one judge of all of it would. */
  async results(): Promise<RunResults> {
    const states = await Promise.all(this.#threads.map((thread) => thread.state()));
    const whole = new ObservedJudge(this.#options);
    for (const state of states) whole.absorb(state);
    return whole.results();
  }

  /** Ends the threads. */
  async close(): Promise<void> {
    await Promise.all(this.#threads.map((thread) => thread.close()));
  }
}
