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
}

