/**
 * Which observed exchanges are the API's traffic. A browser's session (a HAR that Chromium or
 * Playwright wrote, a browser pointed at the proxy) holds the page's own requests too: its
 * document, scripts, styles, images and fonts, and calls to other origins. Those are not requests
 * of the API: they are set aside (counted and listed in the report), never judged, never failed,
 * never counted in a cell. Every other request is judged, and one that matches no operation stays
 * an `undocumented_operation` finding.
 *
 * Conservative by design: a request is set aside only when something in it says clearly that it
 * is not an API call (its origin, its Fetch Metadata, the browser's resource type, its `Accept`,
 * its path outside the API's base paths, or as a last resort a page or a static file answered to a
 * request that did not ask for JSON); a request that matches an operation of the document on the
 * API's origin is always judged, whatever else it says. A call of the API set aside would be a
 * green run that should be red.
 * @see docs/observed.md (Not API traffic); docs/decisions.md (Observed traffic)
 */
import type { LoadedSpec } from '../../core/spec/load.js';
import type { NotApiExchange, NotApiReason, NotApiTraffic } from '../results.js';
import type { ObservedExchange } from './exchange.js';
import { OperationMatcher, serverBasePaths } from './match.js';

/** Most exchanges set aside that the report lists (all are counted). */
export const MAX_LISTED = 20;

/** Longest URL listed, in characters (a data-heavy path is cut in the middle). */
const MAX_URL = 160;

/** Where the API lives, as far as the judge knows. */
export interface ApiScope {
  /**
   * The API's origins (RFC 6454 section 4: `https://api.example.com`, `http://127.0.0.1:4010`);
   * undefined when unknown, and then no request is set aside for its origin.
   */
  origins?: readonly string[];
  /**
   * The API's base paths (`/api`; no trailing slash, never empty): the document's servers' paths
   * and the target's; empty when the API is at the root, where every path is under it.
   */
  basePaths: readonly string[];
}

/** Whether an exchange is the API's: `api: true`, or why not (the reason, and what said so for a person). */
export type TrafficClass = { api: true } | { api: false; reason: NotApiReason; why: string };

/**
 * The `Sec-Fetch-Dest` of fetch(), XMLHttpRequest, EventSource, WebSocket and sendBeacon: the only
 * destination of an API call; every other one (document, script, style, image, font, report, …) is
 * a browser's own request.
 * @see W3C Fetch Metadata Request Headers, section 2.1 (Sec-Fetch-Dest)
 */
const CALL_DESTINATION = 'empty';

/**
 * HAR `_resourceType` values (Chromium's resource types, lower-case) of requests a page makes for
 * itself, never a call of an API: the document, its subresources, a manifest, a CSP report.
 */
const PAGE_RESOURCE_TYPES = new Set(['document', 'stylesheet', 'script', 'image', 'media', 'font', 'texttrack', 'manifest', 'signedexchange', 'cspviolationreport']);

/** HAR `_resourceType` values of calls a page's script makes (fetch, XHR, EventSource, WebSocket, sendBeacon). */
const CALL_RESOURCE_TYPES = new Set(['fetch', 'xhr', 'eventsource', 'websocket', 'ping']);

/**
 * The first media range of an `Accept` a browser sends for its own requests (RFC 9110 section
 * 12.5.1), and what it fetches: a navigation asks first for `text/html`, an image for `image/…`,
 * a stylesheet for `text/css`. An API client never asks first for these.
 */
function browserAccept(accept: string | undefined): string | undefined {
  const first = accept?.split(',')[0]?.split(';')[0]?.trim().toLowerCase();
  if (!first) return undefined;
  if (first === 'text/html' || first === 'application/xhtml+xml') return 'navigation';
  if (first.startsWith('image/')) return 'image';
  if (first === 'text/css') return 'stylesheet';
  return undefined;
}

/**
 * Media types (RFC 9110 section 8.3.1, without parameters) of pages and static files: HTML, CSS,
 * JavaScript, WebAssembly, images, fonts, audio, video, text tracks.
 */
function staticMediaType(contentType: string | undefined): string | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (!type) return undefined;
  if (['text/html', 'application/xhtml+xml', 'text/css', 'text/javascript', 'application/javascript', 'application/x-javascript', 'text/ecmascript', 'application/ecmascript', 'application/wasm', 'text/vtt', 'application/manifest+json'].includes(type)) return type;
  if (/^(image|font|audio|video)\//.test(type) || /^application\/(x-)?font-/.test(type) || type === 'application/vnd.ms-fontobject') return type;
  return undefined;
}

function isJsonType(mediaRange: string | undefined): boolean {
  const type = mediaRange?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || type.endsWith('+json');
}

/** Whether a request or its answer speaks JSON: its `Accept` names a JSON type, or its body or its answer is JSON. */
function speaksJson(exchange: ObservedExchange): boolean {
  const { headers } = exchange.request;
  return (headers.accept ?? '').split(',').some(isJsonType) || isJsonType(headers['content-type']) || isJsonType(exchange.response?.headers['content-type']);
}

/**
 * What a browser's own request says of itself, when it says it is one: a CORS preflight (an
 * `OPTIONS` with `Access-Control-Request-Method`), a destination other than a script's call
 * (`Sec-Fetch-Dest`), a navigation (`Sec-Fetch-Mode: navigate`), a page's resource by Chromium's
 * HAR `_resourceType`, or an `Accept` that asks first for a page, an image or a stylesheet.
 * Undefined for a request that says none of these (a script's `fetch`, any non-browser client).
 * @see W3C Fetch Metadata Request Headers, sections 2.1 (Sec-Fetch-Dest) and 2.2 (Sec-Fetch-Mode);
 *   the Fetch Standard, CORS protocol (CORS-preflight request); HAR 1.2, Custom Fields
 */
export function browserRequest(exchange: ObservedExchange): { reason: 'cors_preflight' | 'browser_resource'; why: string } | undefined {
  const { method, headers } = exchange.request;
  if (method.toUpperCase() === 'OPTIONS' && headers['access-control-request-method'] !== undefined) {
    return { reason: 'cors_preflight', why: `a browser's CORS preflight (OPTIONS with Access-Control-Request-Method: ${headers['access-control-request-method']})` };
  }
  const destination = headers['sec-fetch-dest']?.trim().toLowerCase();
  if (destination && destination !== CALL_DESTINATION) return { reason: 'browser_resource', why: `a browser's ${destination} request (Sec-Fetch-Dest: ${destination})` };
  const mode = headers['sec-fetch-mode']?.trim().toLowerCase();
  if (mode === 'navigate' || mode === 'nested-navigate') return { reason: 'browser_resource', why: `a browser's navigation (Sec-Fetch-Mode: ${mode})` };
  if (exchange.resourceType !== undefined && PAGE_RESOURCE_TYPES.has(exchange.resourceType)) {
    return { reason: 'browser_resource', why: `a browser's ${exchange.resourceType} request (HAR _resourceType: ${exchange.resourceType})` };
  }
  const accepted = browserAccept(headers.accept);
  if (accepted) return { reason: 'browser_resource', why: `a browser's ${accepted} request (Accept: ${headers.accept!.split(',')[0]!.trim()} first)` };
  return undefined;
}

/** Whether a request says it is a script's call (fetch, XHR): `Sec-Fetch-Dest: empty`, a call's HAR `_resourceType`, or JSON asked for or sent. */
function declaredCall(exchange: ObservedExchange): boolean {
  if (exchange.request.headers['sec-fetch-dest']?.trim().toLowerCase() === CALL_DESTINATION) return true;
  if (exchange.resourceType !== undefined && CALL_RESOURCE_TYPES.has(exchange.resourceType)) return true;
  const { headers } = exchange.request;
  return (headers.accept ?? '').split(',').some(isJsonType) || isJsonType(headers['content-type']);
}

function underBase(pathname: string, basePaths: readonly string[]): boolean {
  return basePaths.length === 0 || basePaths.some((base) => pathname === base || pathname.startsWith(`${base}/`));
}

/**
 * Whether an observed exchange is the API's traffic, by these rules in order:
 * 1. a request to another origin than the API's (when {@link ApiScope.origins} is known) is not
 *    (`other_origin`), even if its path matches an operation (another service's `/v1/customers/{id}`);
 * 2. a request that matches an operation of the document is the API's, whatever else it says;
 * 3. a browser's own request is not ({@link browserRequest}: `cors_preflight`, `browser_resource`);
 * 4. a path outside the API's base paths (when the API has some) that does not speak JSON is not
 *    (`outside_base_path`);
 * 5. a request that says it is a script's call or speaks JSON is the API's (so that
 *    `fetch('/v1/unknown')` stays an `undocumented_operation` finding, whatever it was answered);
 * 6. a page or a static file answered with success or a redirect (status below 400) is not
 *    (`static_answer`): the last resort, when the request said nothing of itself;
 * 7. everything else is the API's: a non-browser client's request, with or without headers.
 * Pure.
 * @param matchesOperation whether the request's method and path match an operation of the document it is judged against
 * @see docs/observed.md (Not API traffic)
 */
export function classifyExchange(exchange: ObservedExchange, scope: ApiScope, matchesOperation: boolean): TrafficClass {
  let url: URL;
  try {
    url = new URL(exchange.request.url);
  } catch {
    return { api: true };
  }
  if (scope.origins !== undefined && !scope.origins.includes(url.origin)) {
    return { api: false, reason: 'other_origin', why: `another origin than the API's (${scope.origins.join(', ')})` };
  }
  if (matchesOperation) return { api: true };
  const browser = browserRequest(exchange);
  if (browser) return { api: false, ...browser };
  if (!underBase(url.pathname, scope.basePaths) && !speaksJson(exchange)) {
    return { api: false, reason: 'outside_base_path', why: `outside the API's base path${scope.basePaths.length === 1 ? '' : 's'} (${scope.basePaths.join(', ')}) and not a JSON call` };
  }
  if (declaredCall(exchange)) return { api: true };
  const status = exchange.response?.status ?? 0;
  const answered = staticMediaType(exchange.response?.headers['content-type']);
  if (answered && status > 0 && status < 400) return { api: false, reason: 'static_answer', why: `answered ${status} ${answered}, a page or a static file, to a request that did not ask for JSON` };
  return { api: true };
}

/**
 * The scope of the API for observed judging: the origins given (a `--base-url`'s, the proxy's
 * target's), and the base paths given with the document's servers' (variables at their
 * defaults), root paths left out.
 */
export function apiScope(specs: readonly Pick<LoadedSpec, 'document'>[], options: { origins?: readonly string[]; basePaths?: readonly string[] } = {}): ApiScope {
  const bases = new Set<string>();
  for (const base of options.basePaths ?? []) {
    const trimmed = base.replace(/\/+$/, '');
    if (trimmed) bases.add(trimmed);
  }
  for (const spec of specs) for (const base of serverBasePaths(spec.document)) bases.add(base);
  return { ...(options.origins !== undefined ? { origins: [...new Set(options.origins)] } : {}), basePaths: [...bases] };
}

/**
 * The API's origins in recorded traffic that names none (`conformance check` without
 * `--base-url`): every origin at which a request matches an operation of a document and is not a
 * browser's own request ({@link browserRequest}), in order of first sight. Every such origin, not
 * only the first: an API called at two origins (a sandbox and production) keeps both judged.
 * @returns the origins, or undefined when no request matched (then no request is set aside for its origin)
 * @see docs/decisions.md (Observed traffic: the API's origin)
 */
export function apiOriginsOf(exchanges: readonly ObservedExchange[], specs: readonly Pick<LoadedSpec, 'operations' | 'document'>[], basePaths: readonly string[] = []): string[] | undefined {
  const matchers = specs.map((spec) => new OperationMatcher(spec, basePaths));
  const origins = new Set<string>();
  for (const exchange of exchanges) {
    let url: URL;
    try {
      url = new URL(exchange.request.url);
    } catch {
      continue;
    }
    if (origins.has(url.origin) || browserRequest(exchange)) continue;
    if (matchers.some((m) => m.match(exchange.request.method, url.pathname) !== undefined)) origins.add(url.origin);
  }
  return origins.size > 0 ? [...origins] : undefined;
}

/** What a {@link TrafficSorter} set aside, as plain data (it crosses a thread's boundary). */
export type TrafficSorterState = NotApiTraffic;

/**
 * Sorts an observed judge's traffic: tells the API's exchanges from the rest
 * ({@link classifyExchange}) and keeps the count of the rest by reason and the first
 * {@link MAX_LISTED} of them, so that memory stays bounded on a long session.
 */
export class TrafficSorter {
  readonly #scope: ApiScope;
  #count = 0;
  readonly #byReason: Partial<Record<NotApiReason, number>> = {};
  #listed: NotApiExchange[] = [];

  constructor(scope: ApiScope) {
    this.#scope = scope;
  }

  /**
   * Sets an exchange aside when it is not the API's traffic: counts and lists it.
   * @param index the exchange's number in the traffic (from 1)
   * @param matchesOperation whether it matches an operation of its document
   * @returns why it is not the API's (for a person), or undefined when it is the API's and must be judged
   */
  setAside(exchange: ObservedExchange, index: number, matchesOperation: boolean): string | undefined {
    const sorted = classifyExchange(exchange, this.#scope, matchesOperation);
    if (sorted.api) return undefined;
    this.#count++;
    this.#byReason[sorted.reason] = (this.#byReason[sorted.reason] ?? 0) + 1;
    if (this.#listed.length < MAX_LISTED) this.#listed.push({ exchange: index, method: exchange.request.method.toUpperCase(), url: listedUrl(exchange.request.url), reason: sorted.reason, why: sorted.why });
    return sorted.why;
  }

  /** What was set aside so far, copied. */
  state(): TrafficSorterState {
    return structuredClone({ count: this.#count, byReason: this.#byReason, listed: this.#listed });
  }

  /** Adds what another sorter set aside ({@link state}), as if this one had: counts added, the first {@link MAX_LISTED} in traffic order kept. */
  absorb(state: TrafficSorterState): void {
    this.#count += state.count;
    for (const [reason, count] of Object.entries(state.byReason) as [NotApiReason, number][]) this.#byReason[reason] = (this.#byReason[reason] ?? 0) + count;
    this.#listed = [...this.#listed, ...structuredClone(state.listed)].sort((a, b) => a.exchange - b.exchange).slice(0, MAX_LISTED);
  }

  /** The report's account of what was set aside (engine/results.ts `NotApiTraffic`). */
  summary(): NotApiTraffic {
    return this.state();
  }
}

/** A URL as listed: origin and path without the query (which may hold a secret), `?…` when it had one, cut in the middle past {@link MAX_URL}. */
function listedUrl(href: string): string {
  let text: string;
  try {
    const url = new URL(href);
    text = `${url.origin}${url.pathname}${url.search ? '?…' : ''}`;
  } catch {
    text = href.split('?')[0]!;
  }
  return text.length <= MAX_URL ? text : `${text.slice(0, MAX_URL / 2 - 1)}…${text.slice(-(MAX_URL / 2))}`;
}
