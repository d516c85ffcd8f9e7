/**
 * The answers of paginated list operations kept as bytes until anything in the store changes: a
 * list read again (the common case of a mock polled by a UI, a test suite or a benchmark) costs a
 * map lookup and a socket write. An answer is byte for byte what the handler would write: it is
 * keyed by everything a list handler reads (the Authorization header, the origin its URLs are built
 * from, the path and query string), dropped at the next change of the store ({@link storeRevision},
 * which counts every insert, update and delete, and every request, control call or delivery that
 * may change state) and never served past the expiry of the token it was answered to. Each content
 * coding of an answer (content-coding.ts) is made on its first request and kept with it.
 * @see docs/decisions.md (Benchmarks: "Answers of paginated lists are kept as bytes until the store changes")
 * @see docs/design.md (Reference server; Performance)
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { asBytes, encode, preferredCoding, type ByteReply, type ContentCoding } from './content-coding.js';
import { onStoreChanged } from './events.js';
import type { Reply } from './replies.js';
import { markStoreChanged, storeRevision, type Store } from './store.js';

/** Options of {@link ResponseCache}. */
export interface ResponseCacheOptions {
  /** Most bytes of bodies kept (default 64 MiB); the oldest answers go first. */
  maxBytes?: number;
}

interface Entry {
  /** Epoch milliseconds by the store's clock from which the answer may not be served (the token's expiry), or Infinity. */
  validUntilMs: number;
  reply: ByteReply;
  /** The answer in each content coding asked for so far. */
  coded: Partial<Record<ContentCoding, ByteReply>>;
  /** Codings of {@link Entry.coded} assembled from pieces (content-coding.ts `assembleGzip`): fast to make, larger; coded whole when asked again. */
  assembled: Set<ContentCoding>;
}

/** Answers by key; see the module comment for what makes an answer reusable. */
export class ResponseCache {
  readonly #store: Store;
  readonly #maxBytes: number;
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;
  /** {@link storeRevision} of the answers kept: every answer of an older revision is stale. */
  #revision = -1;

  /** @param store the store whose changes invalidate every answer */
  constructor(store: Store, options: ResponseCacheOptions = {}) {
    this.#store = store;
    this.#maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    // A change made behind the collections' back is announced; it must count as a change here too.
    onStoreChanged(store, () => markStoreChanged(store));
  }

  /**
   * The cache key of a request: `authorization` (or ''), the absolute URL, path and query string as
   * sent, and the `Polar-Version` header as sent (or ''), which selects the version of the answer.
   */
  static key(authorization: string | undefined, origin: string, url: string, version?: string): string {
    return `${authorization ?? ''}\n${version ?? ''}\n${origin}${url}`;
  }

  /**
   * The answer kept under `key` in `coding` (undefined: as it is), if the store has not changed
   * since and its token has not expired.
   */
  get(key: string, coding?: ContentCoding): Reply | undefined {
    if (!this.#current()) return undefined;
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.validUntilMs !== Infinity && this.#store.clock().getTime() >= entry.validUntilMs) {
      this.#drop(key, entry);
      return undefined;
    }
    return this.#coded(entry, coding, true);
  }

  /**
   * Keeps a 200 answer. Object bodies are serialized here, once ({@link asBytes}).
   * @param validUntilMs epoch milliseconds (store clock) at which the token it was answered to expires; Infinity when it does not
   * @param coding the content coding to answer in (undefined: as it is)
   * @returns the answer to write, in `coding` (an answer other than a 200 is given back as it is)
   */
  set(key: string, reply: Reply, validUntilMs: number, coding?: ContentCoding): Reply {
    if (reply.status !== 200 || reply.body === undefined) return reply;
    const kept = asBytes(reply);
    if (kept.body.length > this.#maxBytes) return encode(kept, coding, 'fresh');
    this.#current();
    const previous = this.#entries.get(key);
    if (previous) this.#drop(key, previous);
    const entry: Entry = { validUntilMs, reply: kept, coded: {}, assembled: new Set() };
    this.#entries.set(key, entry);
    this.#bytes += kept.body.length;
    const answer = this.#coded(entry, coding, false);
    this.#evict();
    return answer;
  }

  /** Answers kept and their body bytes. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.#entries.size, bytes: this.#bytes };
  }

  /**
   * The entry's answer in `coding`, coded now when it is the first request for it. The first
   * answer takes the answer's assembled coding when it carries one (no compression: most answers
   * are never asked again before a write drops them); an answer asked again is coded whole, once,
   * in the coding preferred for kept answers (content-coding.ts: a page of 100 subscriptions is
   * 181 KB assembled, 43 KB as brotli), and that is what every later request gets.
   * @param again whether the answer is asked for again (a cache hit), not made just now
   */
  #coded(entry: Entry, coding: ContentCoding | undefined, again: boolean): ByteReply {
    if (coding === undefined) return entry.reply;
    const kept = entry.coded[coding];
    if (kept && !(again && entry.assembled.has(coding))) return kept;
    const assembledFirst = !again && entry.reply.coded?.[coding as 'gzip'] !== undefined;
    const coded = encode(assembledFirst ? entry.reply : { ...entry.reply, coded: undefined }, coding);
    if (coded === entry.reply) return coded;
    if (kept) this.#bytes -= kept.body.length;
    entry.coded[coding] = coded;
    if (assembledFirst) entry.assembled.add(coding);
    else entry.assembled.delete(coding);
    this.#bytes += coded.body.length;
    this.#evict();
    return coded;
  }

  /**
   * Whether the answers kept are of the store's current revision; when the store has changed
   * since, every one is stale and all are dropped at once (rather than each when next asked for,
   * or evicted), so that a server taking writes holds no dead answers.
   */
  #current(): boolean {
    const revision = storeRevision(this.#store);
    if (revision === this.#revision) return true;
    this.#entries.clear();
    this.#bytes = 0;
    this.#revision = revision;
    return false;
  }

  /** Drops the oldest answers until the bytes kept fit. */
  #evict(): void {
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#drop(oldest, entry);
    }
  }

  #drop(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#bytes -= entry.reply.body.length;
    for (const coded of Object.values(entry.coded)) this.#bytes -= coded.body.length;
  }
}

/** What {@link answerKeptFirst} needs to know of the server. */
export interface KeptFirstOptions {
  /** Whether requests of this connection are never counted by the rate limit (server/rate-limit.ts `isExemptClient`). */
  exempt: (socket: IncomingMessage['socket']) => boolean;
  /** Whether the server is closing (Fastify then answers 503 to every request). */
  closing: () => boolean;
}

/**
 * Puts the response cache in front of Fastify on `server`: a GET whose answer is kept (the key
 * Fastify's route would use: Authorization, `http://` and the Host header, the URL as sent) is
 * written straight from the cache, in the coding its Accept-Encoding asks for, without routing,
 * hooks or a promise; every other request goes to Fastify as before. Only for clients the rate limit
 * does not count (none is counted when it is off): a counted client must pass the limit's hook.
 * The answer is the one Fastify would write, headers included (content type, length, Vary,
 * Content-Encoding; Node adds Date and the connection headers to both).
 * @param server Fastify's HTTP server (`app.server`), with Fastify's one `request` listener
 * @throws Error when the server has no single `request` listener to put the cache in front of
 */
export function answerKeptFirst(server: Server, cache: ResponseCache, options: KeptFirstOptions): void {
  const listeners = server.listeners('request') as ((request: IncomingMessage, response: ServerResponse) => void)[];
  if (listeners.length !== 1) throw new Error(`expected Fastify's one request listener, found ${listeners.length}`);
  const fastify = listeners[0]!;
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const { host } = request.headers;
    if (request.method === 'GET' && host !== undefined && !options.closing() && options.exempt(request.socket)) {
      const version = request.headers['polar-version'];
      const kept = cache.get(ResponseCache.key(request.headers.authorization, `http://${host}`, request.url!, typeof version === 'string' ? version : undefined), preferredCoding(request.headers['accept-encoding'], 'kept'));
      if (kept) {
        const body = kept.body as Buffer;
        response.writeHead(kept.status, { ...kept.headers, 'content-length': body.length });
        response.end(body);
        return;
      }
    }
    fastify.call(server, request, response);
  });
}
