/**
 * The HTTP client of the harness (undici): sends a test case to the target and records the
 * exchange. Never throws for a misbehaving target: timeouts, resets and garbage become an
 * exchange with `transportError` or an unparsable body, which checks turn into failures.
 */
import { Agent, request as undiciRequest } from 'undici';
import pThrottle from 'p-throttle';
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeBody, decodes } from './content-coding.js';
import { API_VERSIONS, type LoadedSpec, type Operation } from '../core/spec/load.js';
import { BreakerOpen, runBreakerFromEnv, UNRESPONSIVE_CODE, type RequestOutcome, type RunBreaker } from '../core/breaker.js';
import { HarnessError } from '../core/errors.js';
import { validParameterValue } from '../generators/parameter-value.js';
import type { Target } from '../core/target.js';
import { addWork } from '../core/timings.js';
import type { Exchange, HttpRequest, HttpResponse, QueryValues, TestCase } from '../core/types.js';

/** Largest body kept in an exchange, in bytes; the rest is cut (and noted). */
const MAX_BODY_BYTES = 1024 * 1024;
/** How many times a 429 is retried after waiting its Retry-After. */
const MAX_RATE_LIMIT_RETRIES = 3;
/** Longest Retry-After honoured, in seconds; a longer one is answered as it is. */
const MAX_RETRY_AFTER_S = 10;
/** Consecutive timeouts of one operation after which its requests fail at once (until an answer comes). */
export const CIRCUIT_BREAK_AFTER = 2;

/** Sends test cases to one target. */
export interface Client {
  /**
   * Sends the case of an operation; resolves to the exchange, never rejects for target behaviour.
   * @throws HarnessError CNF_ERR_INTERRUPTED once the run was interrupted (SIGINT/SIGTERM): the
   *   case gets no verdict, neither a pass nor a failure of the target
   */
  send(operation: Operation, testCase: TestCase): Promise<Exchange>;
  close(): Promise<void>;
}

/**
 * Serializes query values: arrays as repeated parameters (form, explode), names verbatim
 * (`metadata[key]` for deepObject), in insertion order.
 * @see https://spec.openapis.org/oas/v3.1.0#style-values
 */
export function encodeQuery(query: QueryValues): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) params.append(name, v);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Substitutes path parameters into a template, percent-encoding each value. */
export function expandPath(template: string, pathParams: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(pathParams[name] ?? `{${name}}`));
}

/**
 * The Accept header of an operation: every media type its responses document, in document order
 * (the server may then answer any of them, RFC 9110 section 12.5.1), or `*\/*` when it documents
 * none; a document that declares an `Accept` header parameter gets a value valid against it.
 */
export function acceptHeader(operation: Operation): string {
  // A document that declares Accept as a header parameter (which OpenAPI says to ignore) states
  // its values there, and a validating server holds requests to them.
  const declared = operation.parameters.find((p) => p.in === 'header' && p.name.toLowerCase() === 'accept');
  const value = declared ? validParameterValue(declared) : undefined;
  if (value !== undefined) return Array.isArray(value) ? value.join(', ') : value;
  const types = [...new Set(Object.values(operation.responseMediaTypes ?? {}).flat())];
  return types.length ? types.join(', ') : '*/*';
}

const BEARER = /^Bearer\s+(.+)$/i;

/** Header parameters OpenAPI ignores (the request's own Accept, Content-Type and Authorization say them). */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/**
 * The headers every request of an operation carries: `accept` ({@link acceptHeader}) and a valid
 * value of every required header and cookie parameter (lower-case header names; cookies joined in
 * one `cookie` header), so that no case is refused for leaving one out. Computed once per operation.
 * @see https://spec.openapis.org/oas/v3.1.0#parameter-object (required; Accept, Content-Type and Authorization ignored)
 */
export function requiredHeaders(operation: Operation): Record<string, string> {
  let headers = requiredHeadersOf.get(operation);
  if (!headers) {
    headers = computeRequiredHeaders(operation);
    requiredHeadersOf.set(operation, headers);
  }
  return headers;
}

const requiredHeadersOf = new WeakMap<Operation, Record<string, string>>();

function computeRequiredHeaders(operation: Operation): Record<string, string> {
  const headers: Record<string, string> = { accept: acceptHeader(operation) };
  const cookies: string[] = [];
  for (const param of operation.parameters) {
    if (!param.required || (param.in !== 'header' && param.in !== 'cookie') || IGNORED_HEADERS.has(param.name.toLowerCase())) continue;
    const value = validParameterValue(param);
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(',') : value;
    if (param.in === 'header') headers[param.name.toLowerCase()] = text;
    else cookies.push(`${param.name}=${encodeURIComponent(text)}`);
  }
  if (cookies.length) headers.cookie = cookies.join('; ');
  return headers;
}

/** Delimiters of array query parameters that are not exploded, by style. */
const DELIMITERS: Record<string, string> = { form: ',', spaceDelimited: ' ', pipeDelimited: '|' };

/**
 * A case's query as its parameters' styles send it: an array of a parameter with `explode: false`
 * becomes one value joined by the style's delimiter (`sort=a,b`); exploded arrays stay repeated.
 * @see https://spec.openapis.org/oas/v3.1.0#style-values
 */
export function serializeQuery(operation: Operation, query: QueryValues): QueryValues {
  const out: QueryValues = {};
  for (const [name, value] of Object.entries(query)) {
    const param = operation.parameters.find((p) => p.in === 'query' && p.name === name);
    const delimiter = param && !param.explode ? DELIMITERS[param.style] : undefined;
    out[name] = Array.isArray(value) && delimiter !== undefined ? value.join(delimiter) : value;
  }
  return out;
}

/**
 * The headers every request to a target of this document carries: for a document of the bundled
 * API's rules, `polar-version` with its version (the platform selects the version per request and
 * defaults to 2026-04); none for another document.
 * @see docs/platform.md (Versions)
 */
export function documentHeaders(spec: Pick<LoadedSpec, 'apiRules' | 'version'>): Record<string, string> {
  return spec.apiRules && (API_VERSIONS as readonly string[]).includes(spec.version) ? { 'polar-version': spec.version } : {};
}

/**
 * Builds the wire request of a case: URL, headers, body. The role's credential goes where the
 * operation's security scheme puts it (core/spec/load.ts `credential`): `Authorization: Bearer` (the
 * default), `Authorization: Basic`, or an API key header, query parameter or cookie; a bearer token
 * the case carries itself (the unknown token of `invalid_credentials`) goes to the same place.
 * `Accept` lists the media types the operation documents.
 */
export function buildRequest(target: Target, operation: Operation, testCase: TestCase): HttpRequest {
  const headers: Record<string, string> = { ...target.headers, ...requiredHeaders(operation) };
  for (const [name, value] of Object.entries(testCase.headers)) headers[name.toLowerCase()] = value;
  const credential = testCase.role ? target.roles[testCase.role] : undefined;
  let token = credential?.token;
  const placement = operation.credential ?? { kind: 'bearer' as const };
  const own = headers.authorization === undefined ? undefined : BEARER.exec(headers.authorization);
  if (token === undefined && own && placement.kind !== 'bearer') {
    token = own[1]!;
    delete headers.authorization;
  }
  const query = serializeQuery(operation, testCase.query);
  if (token !== undefined) {
    if (placement.kind === 'bearer') headers.authorization = `Bearer ${token}`;
    else if (placement.kind === 'basic') headers.authorization = `Basic ${Buffer.from(token).toString('base64')}`;
    else if (placement.in === 'header') headers[placement.name.toLowerCase()] = token;
    else if (placement.in === 'query') query[placement.name] = token;
    else headers.cookie = `${headers.cookie ? `${headers.cookie}; ` : ''}${placement.name}=${encodeURIComponent(token)}`;
  }
  if (testCase.body) headers['content-type'] = testCase.body.contentType;
  return {
    method: operation.method,
    url: `${target.baseUrl}${expandPath(operation.path, testCase.pathParams)}${encodeQuery(query)}`,
    headers,
    ...(testCase.body ? { body: testCase.body.text } : {}),
  };
}

function parseRetryAfter(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The body as recorded: its text, and its size on the wire when that differs from the text's (a content-coded body). */
interface ReadBody {
  text: string;
  wireBytes?: number;
}

/**
 * Reads a body, keeping at most {@link MAX_BODY_BYTES} (the rest is cut and noted). A body in one
 * content coding the client knows (gzip, deflate, br) is decoded first: the harness sends no
 * Accept-Encoding, which RFC 9110 section 12.5.3 reads as "any coding is acceptable", so a correct
 * target may code its answers. A body that does not decode is recorded as received.
 * @param contentEncoding the response's Content-Encoding header, if any
 */
async function readBody(body: AsyncIterable<Buffer>, contentEncoding: string | undefined): Promise<ReadBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < MAX_BODY_BYTES) chunks.push(chunk);
    size += chunk.length;
  }
  let bytes: Buffer = Buffer.concat(chunks);
  let wireBytes: number | undefined;
  if (decodes(contentEncoding) && size <= MAX_BODY_BYTES) {
    try {
      bytes = decodeBody(bytes, contentEncoding!, MAX_BODY_BYTES + 1);
      wireBytes = size;
      size = bytes.length;
    } catch {
      // Not in the coding it names (or larger than kept): recorded as received.
    }
  }
  const text = bytes.subarray(0, MAX_BODY_BYTES).toString('utf8');
  return { text: size > MAX_BODY_BYTES ? `${text}\n[... ${size - MAX_BODY_BYTES} more bytes cut]` : text, ...(wireBytes !== undefined ? { wireBytes } : {}) };
}

/** Options of {@link createClient}. */
export interface ClientOptions {
  /**
   * The run-level breaker whose state every request consults and whose count every sent request
   * feeds; default: the run's, from the environment ({@link runBreakerFromEnv}), none outside a
   * run. `null`: none.
   */
  breaker?: RunBreaker | null;
}

/** Codes of transport errors that come from the request the harness built, not from the target: they do not count as no answer. */
const HARNESS_SIDE = /^(ERR_INVALID_|UND_ERR_INVALID_ARG|UND_ERR_NOT_SUPPORTED|ERR_INVALID_URL)/;

/** How a failed sending counts for the run-level breaker (a timeout, another kind of no answer, or nothing: the harness's own error). */
function outcomeOf(code: string, timedOut: boolean): RequestOutcome | undefined {
  if (timedOut) return 'timeout';
  return HARNESS_SIDE.test(code) ? undefined : 'no_answer';
}

/**
 * Creates the client of a target: one keep-alive connection pool (a second one on the target's
 * local socket, for its own origin, when it has one: `Target.localSocket`), pacing at
 * `target.requestsPerSecond` when set, a deadline of `target.timeoutMs` on the whole exchange of
 * every request (connection, headers and body: a body that never ends is cut at the deadline), 429
 * answers retried after their Retry-After (at most 3 times, waits of at most 10 s), a circuit
 * breaker per operation (after {@link CIRCUIT_BREAK_AFTER} consecutive timeouts its requests fail
 * at once with `CNF_CIRCUIT_OPEN` until one is answered) and the run-level breaker
 * (core/breaker.ts): once the target is declared unresponsive, every request fails at once with
 * `CNF_TARGET_UNRESPONSIVE` and the breaker's reason, in-flight ones included.
 * @see docs/decisions.md (Harness: "A hanging target costs two timeouts per operation, not one per case";
 *   "A target that gives no answer is declared unresponsive for the whole run"); docs/usage.md (Pointing it at a target)
 */
export function createClient(target: Target, options: ClientOptions = {}): Client {
  const agentOptions = { connections: 16, keepAliveTimeout: 10_000, headersTimeout: target.timeoutMs, bodyTimeout: target.timeoutMs };
  const agent = new Agent(agentOptions);
  // Requests to the target's own origin go over its local socket, when it has one (Target.localSocket).
  const local = target.localSocket ? { prefix: `${target.localSocket.origin}/`, agent: new Agent({ ...agentOptions, connect: { socketPath: target.localSocket.path } }) } : undefined;
  const runBreaker = options.breaker === undefined ? runBreakerFromEnv() : (options.breaker ?? undefined);
  const throttle = target.requestsPerSecond
    ? pThrottle({ limit: Math.max(1, Math.floor(target.requestsPerSecond / 10)), interval: 100 })
    : undefined;
  const pace = throttle ? throttle(async () => undefined) : async () => undefined;

  /** One sending: the deadline covers connecting, the headers and reading the whole body. */
  async function once(request: HttpRequest): Promise<HttpResponse> {
    await pace();
    const started = performance.now();
    // One controller per sending, aborted by its deadline or by the run-level breaker, and released
    // at its end (AbortSignal.timeout would keep every request's signal alive for the whole timeout).
    const controller = new AbortController();
    const deadline = setTimeout(() => controller.abort(new DOMException(`no complete answer within ${target.timeoutMs} ms`, 'TimeoutError')), target.timeoutMs);
    const cut = (): void => controller.abort(runBreaker?.signal.reason);
    if (runBreaker?.signal.aborted) cut();
    runBreaker?.signal.addEventListener('abort', cut, { once: true });
    let answer: Awaited<ReturnType<typeof undiciRequest>>;
    let headers: Record<string, string>;
    let read: ReadBody;
    // The timings' phases of one exchange (core/timings.ts): sending (undici writes the request in
    // the call), waiting (to the headers), reading (the body).
    let sent = started;
    let answered: number | undefined;
    try {
      const pending = undiciRequest(request.url, {
        method: request.method as 'GET',
        headers: request.headers,
        body: request.body,
        dispatcher: local && request.url.startsWith(local.prefix) ? local.agent : agent,
        signal: controller.signal,
      });
      sent = performance.now();
      answer = await pending;
      answered = performance.now();
      headers = flattenHeaders(answer.headers);
      read = await readBody(answer.body, headers['content-encoding']);
    } finally {
      clearTimeout(deadline);
      runBreaker?.signal.removeEventListener('abort', cut);
      const ended = performance.now();
      addWork('sending', sent - started);
      addWork('waiting', (answered ?? ended) - sent);
      if (answered !== undefined) addWork('reading', ended - answered);
    }
    const { text: body, wireBytes } = read;
    const response: HttpResponse = {
      status: answer.statusCode,
      headers,
      body,
      elapsedMs: Math.round((performance.now() - started) * 1000) / 1000,
      ...(wireBytes !== undefined ? { wireBytes } : {}),
    };
    if (body.length > 0) {
      const parsing = performance.now();
      try {
        response.json = JSON.parse(body);
      } catch {
        // Not JSON: the content-type and schema checks say so.
      }
      addWork('parsing', performance.now() - parsing);
    }
    return response;
  }

  /** Throws once the run is interrupted; otherwise the transport error of a tripped breaker, if it is. */
  function refusal(): Exchange['transportError'] {
    const state = runBreaker?.state();
    if (state?.kind === 'interrupted') throw interrupted(state.signal);
    if (state?.kind === 'unresponsive') return { code: UNRESPONSIVE_CODE, message: `not sent: ${state.reason}` };
    return undefined;
  }

  // A target that hangs would make every generated case and every shrinking step wait out the
  // timeout; after a few consecutive timeouts of an operation its requests fail at once instead.
  const timeouts = new Map<string, number>();

  return {
    async send(operation, testCase) {
      const request = buildRequest(target, operation, testCase);
      const exchange: Exchange = { case: testCase, operationId: operation.operationId, request };
      const refused = refusal();
      if (refused) {
        exchange.transportError = refused;
        return exchange;
      }
      const breaker = `${operation.method} ${operation.path}`;
      if ((timeouts.get(breaker) ?? 0) >= CIRCUIT_BREAK_AFTER) {
        exchange.transportError = {
          code: 'CNF_CIRCUIT_OPEN',
          message: `not sent: the target gave no answer within ${target.timeoutMs} ms to the last ${CIRCUIT_BREAK_AFTER} requests of this operation`,
        };
        return exchange;
      }
      try {
        let response = await once(request);
        runBreaker?.record('answered');
        for (let retry = 0; response.status === 429 && retry < MAX_RATE_LIMIT_RETRIES; retry++) {
          const wait = parseRetryAfter(response.headers['retry-after']) ?? 1;
          if (wait > MAX_RETRY_AFTER_S) break;
          await sleep(wait * 1000, undefined, runBreaker ? { signal: runBreaker.signal } : {});
          response = await once(request);
          runBreaker?.record('answered');
        }
        exchange.response = response;
        timeouts.delete(breaker);
      } catch (error) {
        // The run-level breaker cut this request (tripped by another request, or the run interrupted).
        const cut = runBreaker?.signal.aborted ? runBreaker.signal.reason : undefined;
        if (cut instanceof BreakerOpen) {
          if (cut.state.kind === 'interrupted') throw interrupted(cut.state.signal);
          exchange.transportError = { code: UNRESPONSIVE_CODE, message: `cut: ${cut.state.reason}` };
          return exchange;
        }
        const err = error as Error & { code?: string };
        const timedOut = err.name === 'TimeoutError' || err.name === 'AbortError' || /timeout/i.test(err.code ?? '');
        const code = timedOut ? 'CNF_TIMEOUT' : (err.code ?? err.name);
        exchange.transportError = {
          code,
          message: timedOut ? `no complete answer within ${target.timeoutMs} ms` : err.message,
        };
        if (timedOut) timeouts.set(breaker, (timeouts.get(breaker) ?? 0) + 1);
        const outcome = outcomeOf(code, timedOut);
        if (outcome) runBreaker?.record(outcome);
      }
      return exchange;
    },
    async close() {
      await Promise.all([agent.close(), local?.agent.close()]);
    },
  };
}

/** The error a request of an interrupted run throws: the case gets no verdict. */
function interrupted(signal: string): HarnessError {
  return new HarnessError('CNF_ERR_INTERRUPTED', `not sent: the run was interrupted (${signal}); this case has no verdict`);
}
