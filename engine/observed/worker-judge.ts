/**
 * An observed judge on a thread of its own (engine/observed/judge-worker.ts), one of a
 * {@link JudgePool}'s: the pool hands it exchanges and goes on forwarding; each verdict comes back
 * when judged. Recording happens on that thread too, so that the recording and the reproducers
 * name secrets alike.
 * @see docs/observed.md (Performance)
 */
import { Worker } from 'node:worker_threads';
import { HARNESS_ERROR_CODES, HarnessError, type HarnessErrorCode } from '../../core/errors.js';
import type { SecretRef } from '../../core/curl.js';
import type { JudgeWorkerData } from './judge-worker.js';
import type { ObservedState, ObservedVerdict } from './judge.js';
import type { ContextAnswer, ObservedExchange, RawAnswer } from './exchange.js';

/**
 * Where an exchange stands in the pool's traffic: its number, the secret names given since the
 * thread's last exchange, and the answers of its list that other threads judged last, oldest
 * first (engine/observed/judge-pool.ts; `ObservedJudge.recall`).
 */
export interface Routing {
  index: number;
  names: SecretRef[];
  context?: ContextAnswer[];
}

type Reply = { verdict?: ObservedVerdict; state?: ObservedState };

/** What an exchange weighs in a thread's {@link WorkerJudge.load} besides its body's bytes: matching, headers, the checks' fixed costs. */
const EXCHANGE_LOAD = 2_048;

/**
 * A judge on its own thread. `judgeAsync` resolves to the exchange's verdict; `state` closes the
 * recording and resolves to what it judged; `close` ends the thread.
 */
export class WorkerJudge {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, (reply: Reply) => void>();
  /** Shared with the thread: exchanges it judged, and their load (see {@link load}). */
  readonly #progress: BigInt64Array;
  /** Shared with the whole pool: exchanges judged by any thread, notified at each one. */
  readonly #judged: Int32Array;
  #next = 0;
  #submitted = 0;
  #submittedLoad = 0;
  #failed: Error | undefined;

  private constructor(worker: Worker, progress: BigInt64Array, judged: Int32Array) {
    this.#worker = worker;
    this.#progress = progress;
    this.#judged = judged;
    worker.on('message', (reply: Reply & { id?: number }) => {
      if (reply.id === undefined) return;
      this.#waiting.get(reply.id)?.(reply);
      this.#waiting.delete(reply.id);
    });
    worker.on('error', (error) => {
      this.#failed = error;
      for (const resolve of this.#waiting.values()) resolve({});
      this.#waiting.clear();
      // Whoever waits for judging to catch up looks again: this thread judges nothing more.
      Atomics.add(judged, 0, 1);
      Atomics.notify(judged, 0);
    });
  }

  /**
   * Starts the thread and waits until its documents are loaded.
   * @throws the thread's error (a HarnessError's message: CNF_ERR_SPEC_INVALID, CNF_ERR_CONFIG_INVALID for a recording that cannot be written)
   */
  static async start(data: Omit<JudgeWorkerData, 'progress' | 'judged'>, judged: Int32Array = new Int32Array(new SharedArrayBuffer(4))): Promise<WorkerJudge> {
    const shared = new SharedArrayBuffer(16);
    const progress = new BigInt64Array(shared);
    const worker = new Worker(new URL('../../bin/judge-worker.js', import.meta.url), { workerData: { ...data, progress: shared, judged: judged.buffer as SharedArrayBuffer } satisfies JudgeWorkerData });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: { ready?: boolean; failed?: { code?: string; message: string } }) => {
        if (message.failed) {
          const { code, message: text } = message.failed;
          reject(code && code in HARNESS_ERROR_CODES ? new HarnessError(code as HarnessErrorCode, text) : new Error(text));
          return;
        }
        if (!message.ready) return;
        worker.off('error', reject);
        worker.off('message', onMessage);
        resolve();
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
    return new WorkerJudge(worker, progress, judged);
  }

  /** Exchanges handed to the thread and not judged yet (none once the thread has failed). */
  get pending(): number {
    return this.#failed ? 0 : this.#submitted - Number(Atomics.load(this.#progress, 0));
  }

  /**
   * The work handed to the thread and not judged yet, in bytes of answer bodies (each exchange
   * counted as {@link EXCHANGE_LOAD} bytes more): judging an answer costs about in proportion to its size.
   */
  get load(): number {
    return this.#failed ? 0 : this.#submittedLoad - Number(Atomics.load(this.#progress, 1));
  }

  /** Posts an exchange to judge, counted in {@link pending} and {@link load} until the thread has judged it. */
  #post(message: object, load: number, transfer: ArrayBuffer[], reply: boolean): Promise<Reply> | undefined {
    if (this.#failed) {
      if (reply) return Promise.reject(this.#failed);
      return undefined;
    }
    this.#submitted++;
    this.#submittedLoad += load;
    if (!reply) {
      this.#worker.postMessage({ id: -1, load, ...message }, transfer);
      return undefined;
    }
    return this.#ask({ load, ...message }, transfer);
  }

  #ask(message: object, transfer: ArrayBuffer[] = []): Promise<Reply> {
    if (this.#failed) return Promise.reject(this.#failed);
    const id = this.#next++;
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      this.#worker.postMessage({ id, ...message }, transfer);
    });
  }

  async #verdict(message: object, load: number, transfer: ArrayBuffer[] = []): Promise<ObservedVerdict> {
    const reply = await this.#post(message, load, transfer, true)!;
    if (!reply.verdict) throw this.#failed ?? new Error('the judging thread ended');
    return reply.verdict;
  }

  /** Judges (and records) one exchange on the judging thread. */
  judgeAsync(exchange: ObservedExchange, startedAt: Date, routing: Routing): Promise<ObservedVerdict> {
    const { message, load } = withContext(routing);
    return this.#verdict({ ...message, exchange, startedAt: startedAt.toISOString() }, EXCHANGE_LOAD + (exchange.response?.body.length ?? 0) + load);
  }

  /**
   * Judges (and records) one answer given as it came off the wire: the judging thread decodes and
   * parses it (engine/observed/response.ts `observedResponse`), so that the forwarding thread only
   * copies bytes, and the body is moved to the thread, not cloned.
   * @param answer the status, headers, the first bytes of the body as received, its whole size in bytes and the milliseconds it took
   */
  judgeRawAsync(request: ObservedExchange['request'], answer: RawAnswer, startedAt: Date, routing: Routing): Promise<ObservedVerdict> {
    const { message, load, transfer } = rawMessage(request, answer, startedAt, routing);
    return this.#verdict(message, load, transfer);
  }

  /**
   * Hands over one answer as it came off the wire, as {@link judgeRawAsync} does, without asking for
   * its verdict: the thread judges it and counts it in {@link pending}, and what it found is in
   * {@link state}. Saves the forwarding thread a message back per exchange.
   */
  submitRaw(request: ObservedExchange['request'], answer: RawAnswer, startedAt: Date, routing: Routing): void {
    const { message, load, transfer } = rawMessage(request, answer, startedAt, routing);
    this.#post(message, load, transfer, false);
  }

  /** Tells the thread that a write was seen elsewhere: it forgets its walks and writes (engine/observed/judge.ts `forget`). */
  forget(): void {
    if (!this.#failed) this.#worker.postMessage({ forget: true });
  }

  /** Closes the recording and gives what the thread judged. */
  async state(): Promise<ObservedState> {
    const reply = await this.#ask({ state: true });
    if (!reply.state) throw this.#failed ?? new Error('the judging thread ended');
    return reply.state;
  }

  /** Ends the thread. */
  async close(): Promise<void> {
    await this.#worker.terminate();
  }
}

/** The message of a raw answer: its body in an ArrayBuffer of its own, moved to the thread, not cloned. */
function rawMessage(request: ObservedExchange['request'], answer: RawAnswer, startedAt: Date, routing: Routing): { message: object; load: number; transfer: ArrayBuffer[] } {
  // A copy of its own: a small Buffer lives in Node's shared pool, which must never be moved.
  const raw = new Uint8Array(answer.raw);
  const { message, load } = withContext(routing);
  return { message: { ...message, request, answer: { ...answer, raw }, startedAt: startedAt.toISOString() }, load: EXCHANGE_LOAD + raw.byteLength + load, transfer: [raw.buffer as ArrayBuffer] };
}

/**
 * The routing as posted, and what its context adds to the thread's load: each answer of the
 * context is decoded and parsed there too. A raw answer's bytes are copied, since a small Buffer's
 * whole pool would be cloned with it.
 */
function withContext(routing: Routing): { message: Routing; load: number } {
  if (!routing.context) return { message: routing, load: 0 };
  let load = 0;
  const context = routing.context.map((entry): ContextAnswer => {
    if ('exchange' in entry) {
      load += EXCHANGE_LOAD + (entry.exchange.response?.body.length ?? 0);
      return entry;
    }
    load += EXCHANGE_LOAD + entry.answer.raw.length;
    return { ...entry, answer: { ...entry.answer, raw: Buffer.from(new Uint8Array(entry.answer.raw)) } };
  });
  return { message: { ...routing, context }, load };
}
