/**
 * The observed exchange: one request seen outside the harness (proxied, recorded in a HAR file,
 * sent by a user's own test) and what came of it.
 * @see docs/observed.md
 */
import type { HttpRequest, HttpResponse } from '../../core/types.js';

/** One exchange seen outside the harness: the request as sent, and its response or why none came. */
export interface ObservedExchange {
  /** Header names lower-case; `url` absolute, with the query. */
  request: HttpRequest;
  response?: HttpResponse;
  /** Set when no complete response came (`ECONNREFUSED`, `UND_ERR_SOCKET`, `CNF_TIMEOUT`). */
  transportError?: { code: string; message: string };
  /**
   * What the browser fetched it for, as a HAR written by Chromium (DevTools, Playwright's
   * `recordHar`) names it in the entry's custom field `_resourceType` (`document`, `stylesheet`,
   * `script`, `image`, `font`, `fetch`, `xhr`, …); absent elsewhere.
   * @see HAR 1.2, Custom Fields (names beginning with `_`); docs/observed.md (Not API traffic)
   */
  resourceType?: string;
}


/**
 * An answer as it came off the wire, handed to the judging thread (engine/observed/worker-judge.ts
 * `judgeRawAsync`), which decodes and parses it.
 */
export interface RawAnswer {
  status: number;
  /** Lower-case names, one string per name. */
  headers: Record<string, string>;
  /** The first bytes of the body as received (at most the judged size), in an ArrayBuffer of their own. */
  raw: Uint8Array;
  /** The body's whole size as received, in bytes. */
  size: number;
  /** Milliseconds from sending the request to the end of the body. */
  elapsedMs: number;
}

/**
 * A list answer another judging thread judged, handed to the thread of the list's next answer
 * (engine/observed/judge-pool.ts): decoded, or as it came off the wire; `index` is its number in
 * the traffic.
 */
export type ContextAnswer = { index: number; exchange: ObservedExchange } | { index: number; request: ObservedExchange['request']; answer: RawAnswer };
