/**
 * Clients that send a safe request once: the checks of one operation replay the same seeded
 * cases, and the suites of one worker ask many of the same questions (a page walk's first page is
 * a generated case of the exchange suite too), so a read-only run asks the target each question
 * as few times as it can.
 * @see docs/decisions.md (Harness: "A successful read is asked once per worker")
 */
import type { Client } from './client.js';
import { buildRequest } from './client.js';
import type { Target } from '../core/target.js';
import type { Exchange } from '../core/types.js';
import { succeeded } from '../core/answers.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The cache key of a safe request: role, method, URL and the headers sent (which carry the credentials: an unknown token and no token are different questions). */
function requestKey(target: Target, operation: Parameters<Client['send']>[0], testCase: Parameters<Client['send']>[1]): string {
  const request = buildRequest(target, operation, testCase);
  return `${testCase.role ?? '-'} ${request.method} ${request.url} ${JSON.stringify(request.headers)}`;
}

/**
 * Wraps a client with a cache of GET/HEAD/OPTIONS exchanges keyed by role, method, URL and the
 * headers sent. Only for suites that change no state; each cached exchange keeps the case of its
 * first sending (the case id is rewritten to the asking one).
 */
export function createCachingClient(client: Client, target: Target): Client {
  const cache = new Map<string, Promise<Exchange>>();
  return {
    async send(operation, testCase) {
      if (!SAFE.has(operation.method)) return client.send(operation, testCase);
      const key = requestKey(target, operation, testCase);
      let pending = cache.get(key);
      if (!pending) {
        pending = client.send(operation, testCase);
        cache.set(key, pending);
      }
      const exchange = await pending;
      return { ...exchange, case: testCase };
    },
    close: () => client.close(),
  };
}

/** Most answer bytes (as received) a {@link SharedReads} keeps; past it, the oldest answers are let go. */
export const MAX_SHARED_READ_BYTES = 64 * 1024 * 1024;

/**
 * The successful reads of one process, shared by the clients of every suite it runs against the
 * same target (see {@link sharingReads}), bounded by {@link MAX_SHARED_READ_BYTES}.
 */
export class SharedReads {
  readonly #answers = new Map<string, Promise<Exchange>>();
  readonly #sizes = new Map<string, number>();
  #bytes = 0;
  readonly #maxBytes: number;

  /** @param maxBytes most answer bytes kept (body as received, or its text's length) */
  constructor(maxBytes = MAX_SHARED_READ_BYTES) {
    this.#maxBytes = maxBytes;
  }

  /** The answer kept or in flight for `key`, if any. */
  get(key: string): Promise<Exchange> | undefined {
    return this.#answers.get(key);
  }

  /** Shares an answer in flight; once it has come, it is kept only if it is a 2xx, and the oldest are let go past the bound. */
  share(key: string, pending: Promise<Exchange>): void {
    this.#answers.set(key, pending);
    pending.then(
      (exchange) => this.#settled(key, pending, exchange),
      () => this.#forget(key, pending),
    );
  }

  /** Answers kept or in flight. */
  get size(): number {
    return this.#answers.size;
  }

  #settled(key: string, pending: Promise<Exchange>, exchange: Exchange): void {
    if (this.#answers.get(key) !== pending) return;
    if (!succeeded(exchange)) return this.#forget(key, pending);
    const size = exchange.response!.wireBytes ?? exchange.response!.body.length;
    this.#sizes.set(key, size);
    this.#bytes += size;
    for (const [oldest] of this.#answers) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#drop(oldest);
    }
  }

  #forget(key: string, pending: Promise<Exchange>): void {
    if (this.#answers.get(key) === pending) this.#drop(key);
  }

  #drop(key: string): void {
    this.#answers.delete(key);
    this.#bytes -= this.#sizes.get(key) ?? 0;
    this.#sizes.delete(key);
  }
}

/**
 * Wraps a client so that a safe request a suite of this process already sent with the same role,
 * URL and headers gets the answer that came then, when it was a 2xx: while the suites that change
 * no state run, the target's data does not move, so the same question gets the same answer. Any
 * other answer (an error status, a 429, no answer) is asked again by the next suite, also by one
 * that asked while it was in flight. Only for
 * suites that change no state, below the judging client, so that every suite still judges each
 * answer it gets (the response checks' verdicts on one answer are remembered, engine/judge.ts).
 * @param reads the process's shared reads for this target (one per target)
 */
export function sharingReads(client: Client, target: Target, reads: SharedReads): Client {
  return {
    async send(operation, testCase) {
      if (!SAFE.has(operation.method)) return client.send(operation, testCase);
      const key = requestKey(target, operation, testCase);
      const known = reads.get(key);
      if (known) {
        const exchange = await known;
        // An answer that was still in flight when asked for is used only if it is one that is kept.
        if (succeeded(exchange)) return { ...exchange, case: testCase };
      }
      const pending = client.send(operation, testCase);
      reads.share(key, pending);
      return pending;
    },
    close: () => client.close(),
  };
}
