/**
 * The answers of paginated list operations kept as bytes until anything in the store changes: a
 * list read again (the common case of a mock polled by a UI, a test suite or a benchmark) costs a
 * map lookup and a socket write. An answer is byte for byte what the handler would write: it is
 * keyed by everything a list handler reads (the Authorization header, the origin its URLs are built
 * from, the path and query string), dropped at the next change of the store ({@link storeRevision},
 * which counts every insert, update and delete, and every request, control call or delivery that
 * may change state) and never served past the expiry of the token it was answered to.
 * @see shared/design.md, Reference server; Quality bars
 */
import { onStoreChanged } from './events.js';
import type { Reply } from './replies.js';
import { markStoreChanged, storeRevision, type Store } from './store.js';

/** Options of {@link ResponseCache}. */
export interface ResponseCacheOptions {
  /** Most bytes of bodies kept (default 64 MiB); the oldest answers go first. */
  maxBytes?: number;
}

interface Entry {
  revision: number;
  /** Epoch milliseconds by the store's clock from which the answer may not be served (the token's expiry), or Infinity. */
  validUntilMs: number;
  reply: Reply & { body: Buffer };
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** Answers by key; see the module comment for what makes an answer reusable. */
export class ResponseCache {
  readonly #store: Store;
  readonly #maxBytes: number;
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;

  /** @param store the store whose changes invalidate every answer */
  constructor(store: Store, options: ResponseCacheOptions = {}) {
    this.#store = store;
    this.#maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    // A change made behind the collections' back is announced; it must count as a change here too.
    onStoreChanged(store, () => markStoreChanged(store));
  }

  /** The cache key of a request: `authorization` (or '') and the absolute URL, path and query string as sent. */
  static key(authorization: string | undefined, origin: string, url: string): string {
    return `${authorization ?? ''}\n${origin}${url}`;
  }

  /** The answer kept under `key`, if the store has not changed since and its token has not expired. */
  get(key: string): Reply | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.revision !== storeRevision(this.#store) || (entry.validUntilMs !== Infinity && this.#store.clock().getTime() >= entry.validUntilMs)) {
      this.#drop(key, entry);
      return undefined;
    }
    return entry.reply;
  }

  /**
   * Keeps a 200 answer. Object bodies are serialized here, once.
   * @param validUntilMs epoch milliseconds (store clock) at which the token it was answered to expires; Infinity when it does not
   * @returns the answer to write (the bytes kept)
   */
  set(key: string, reply: Reply, validUntilMs: number): Reply {
    if (reply.status !== 200 || reply.body === undefined) return reply;
    const kept: Entry['reply'] = Buffer.isBuffer(reply.body)
      ? { ...reply, body: reply.body }
      : { ...reply, body: Buffer.from(JSON.stringify(reply.body)), headers: { ...reply.headers, 'content-type': JSON_TYPE } };
    if (kept.body.length > this.#maxBytes) return kept;
    const previous = this.#entries.get(key);
    if (previous) this.#drop(key, previous);
    this.#entries.set(key, { revision: storeRevision(this.#store), validUntilMs, reply: kept });
    this.#bytes += kept.body.length;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#drop(oldest, entry);
    }
    return kept;
  }

  /** Answers kept and their body bytes. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.#entries.size, bytes: this.#bytes };
  }

  #drop(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#bytes -= entry.reply.body.length;
  }
}
