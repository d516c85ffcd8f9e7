/**
 * The observed judge on a thread of its own (engine/observed/judge-worker.ts): the proxy hands it
 * each exchange and goes on forwarding; the verdict comes back when judged. Recording happens on
 * that thread too, so that the recording and the reproducers name secrets alike.
 * @see docs/observed.md (Performance)
 */
import { Worker } from 'node:worker_threads';
import { HARNESS_ERROR_CODES, HarnessError, type HarnessErrorCode } from '../../core/errors.js';
import type { JudgeWorkerData } from './judge-worker.js';
import type { ObservedVerdict } from './judge.js';
import type { RunResults } from '../results.js';
import type { ObservedExchange, RawAnswer } from './exchange.js';

/**
 * A judge on its own thread. `judgeAsync` resolves to the exchange's verdict; `results` closes the
 * recording and resolves to the results of everything judged; `close` ends the thread.
 */
export class WorkerJudge {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, (reply: { verdict?: ObservedVerdict; results?: RunResults }) => void>();
  #next = 0;
  #failed: Error | undefined;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (reply: { id?: number; verdict?: ObservedVerdict; results?: RunResults }) => {
      if (reply.id === undefined) return;
      this.#waiting.get(reply.id)?.(reply);
      this.#waiting.delete(reply.id);
    });
    worker.on('error', (error) => {
      this.#failed = error;
      for (const resolve of this.#waiting.values()) resolve({});
      this.#waiting.clear();
    });
  }

  /**
   * Starts the thread and waits until its documents are loaded.
   * @throws the thread's error (a HarnessError's message: CNF_ERR_SPEC_INVALID, CNF_ERR_CONFIG_INVALID for a recording that cannot be written)
   */
  static async start(data: JudgeWorkerData): Promise<WorkerJudge> {
    const worker = new Worker(new URL('../../bin/judge-worker.js', import.meta.url), { workerData: data });
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
    return new WorkerJudge(worker);
  }

  #ask(message: object): Promise<{ verdict?: ObservedVerdict; results?: RunResults }> {
    if (this.#failed) return Promise.reject(this.#failed);
    const id = this.#next++;
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      this.#worker.postMessage({ id, ...message });
    });
  }

  /** Judges (and records) one exchange on the judging thread. */
  async judgeAsync(exchange: ObservedExchange, startedAt: Date): Promise<ObservedVerdict> {
    const reply = await this.#ask({ exchange, startedAt: startedAt.toISOString() });
    if (!reply.verdict) throw this.#failed ?? new Error('the judging thread ended');
    return reply.verdict;
  }

  /**
   * Judges (and records) one answer given as it came off the wire: the judging thread decodes and
   * parses it (engine/observed/response.ts `observedResponse`), so that the forwarding thread only
   * copies bytes, and the body is moved to the thread, not cloned.
   * @param answer the status, headers, the first bytes of the body as received, its whole size in bytes and the milliseconds it took
   */
  async judgeRawAsync(request: ObservedExchange['request'], answer: RawAnswer, startedAt: Date): Promise<ObservedVerdict> {
    // A copy of its own: a small Buffer lives in Node's shared pool, which must never be moved.
    const raw = new Uint8Array(answer.raw);
    const id = this.#next++;
    if (this.#failed) throw this.#failed;
    const reply = await new Promise<{ verdict?: ObservedVerdict }>((resolve) => {
      this.#waiting.set(id, resolve);
      this.#worker.postMessage({ id, request, answer: { ...answer, raw }, startedAt: startedAt.toISOString() }, [raw.buffer as ArrayBuffer]);
    });
    if (!reply.verdict) throw this.#failed ?? new Error('the judging thread ended');
    return reply.verdict;
  }

  /** Closes the recording and gives the results of everything judged. */
  async results(): Promise<RunResults> {
    const reply = await this.#ask({ results: true });
    if (!reply.results) throw this.#failed ?? new Error('the judging thread ended');
    return reply.results;
  }

  /** Ends the thread. */
  async close(): Promise<void> {
    await this.#worker.terminate();
  }
}
