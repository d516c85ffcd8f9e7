/**
 * `conformance diff --har FILE`: sends the requests of a recorded session, in order, to the
 * embedded reference (or a second target) and compares each answer with the recorded one by the
 * differential mode's normalization (status, body shape, states and counts, ids by order of first
 * appearance, timestamps by format, unordered lists in a canonical order). Ids the recording's
 * answers handed out are replaced in later requests by those the replay got, so that a session of
 * creates and reads replays as one. The report is per operation: how many exchanges agree, and the
 * first differences of those that do not. A browser's session holds the page's own requests too
 * (its document, scripts, styles, calls to other origins): those are not the API's traffic, and are
 * set aside as `conformance check` sets them aside (engine/observed/api-traffic.ts), never replayed.
 * @see docs/observed.md (diff --har); docs/usage.md (Differential testing against the reference)
 */
import { request as undiciRequest, Agent } from 'undici';
import { HarnessError } from '../../core/errors.js';
import { API_VERSIONS, loadSpec, specPath, type ApiVersion } from '../../core/spec/load.js';
import type { Exchange, HttpResponse, Role } from '../../core/types.js';
import { apiOriginsOf, apiScope, TrafficSorter } from '../../engine/observed/api-traffic.js';
import { readHar } from '../../engine/observed/har.js';
import type { NotApiTraffic } from '../../engine/results.js';
import { notApiExchangeLine, notApiTrafficHeadline } from '../../reporters/format.js';
import { OperationMatcher } from '../../engine/observed/match.js';
import { flatHeaders, observedResponse } from '../../engine/observed/response.js';
import type { ObservedExchange } from '../../engine/observed/exchange.js';
import { startReferenceServer } from '../../server/index.js';
import { ROLES } from '../../core/target.js';
import { compareStep, IdMap, type Difference } from './normalize.js';

/** Options of {@link diffHar}. */
export interface DiffHarOptions {
  /** The HAR 1.2 file of the recorded session. */
  har: string;
  /** Base URL to replay against (default: an embedded reference with the demo data of `referenceSeed`). */
  target?: string;
  /** Seed of the embedded reference's demo data (default 1, as `conformance serve`). */
  referenceSeed?: number;
  /** Version the embedded reference answers requests without `Polar-Version` in (default 2026-04, the platform's). */
  apiVersion?: ApiVersion;
  /** Deadline of each replayed request in milliseconds (default 10000). */
  timeoutMs?: number;
  /** Where tokens of `[redacted:VAR]` placeholders are read from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Where the report is written (default stdout). */
  out?: NodeJS.WritableStream;
}

/** How one operation's exchanges compared. */
export interface OperationFidelity {
  /** The operationId, or `METHOD /path` for a request outside the document. */
  operationId: string;
  exchanges: number;
  /** Exchanges whose answers normalize alike. */
  same: number;
  /** The first differences of the exchanges that differ (at most 5 per operation), each naming its request. */
  differences: (Difference & { request: string })[];
}

/** What {@link diffHar} ends with: exit 0 when every replayed answer agrees with the recorded one, 1 otherwise. */
export interface DiffHarOutcome {
  exitCode: 0 | 1;
  operations: OperationFidelity[];
  /** The entries set aside as not the API's traffic (a page's own requests, other origins), not replayed. */
  notApiTraffic: NotApiTraffic;
}

const SKIPPED_HEADERS = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'accept-encoding']);
const ID_KEY = /(^|_)id$/;

/** Every string at an `id` or `*_id` key of a JSON value, by its path. */
function idsAt(value: unknown, path = '', out = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(value)) value.forEach((item, i) => idsAt(item, `${path}[${i}]`, out));
  else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (typeof child === 'string' && ID_KEY.test(key) && child.length >= 8) out.set(`${path}.${key}`, child);
      else idsAt(child, `${path}.${key}`, out);
    }
  }
  return out;
}

/**
 * Replays the session and prints the per-operation report.
 * @throws HarnessError CNF_ERR_HAR_INVALID for a HAR that cannot be read; CNF_ERR_CONFIG_INVALID
 *   for a target that is not an http(s) URL
 */
export async function diffHar(options: DiffHarOptions): Promise<DiffHarOutcome> {
  const recorded = await readHar(options.har);
  const env = options.env ?? process.env;
  const out = options.out ?? process.stdout;
  const running = options.target ? undefined : await startReferenceServer({ host: '127.0.0.1', port: 0, seed: options.referenceSeed ?? 1, rateLimit: false, ...(options.apiVersion ? { apiVersion: options.apiVersion } : {}) });
  let base: URL;
  try {
    base = new URL(options.target ?? running!.url);
  } catch {
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--target ${options.target} is not a URL`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--target must be an http or https URL, not ${base.protocol}`);
  const specs = await Promise.all(API_VERSIONS.map((v) => loadSpec(specPath(v))));
  const matcher = new OperationMatcher(specs[0]!);
  // The API's origins are those at which a recorded request matches an operation (as `conformance check` finds them).
  const origins = apiOriginsOf(recorded, specs);
  const sorter = new TrafficSorter(apiScope(specs, origins ? { origins } : {}));
  // A placeholder of a role's variable is that role's token of the embedded reference, else the variable's value.
  const roleTokens = new Map<string, string>();
  if (running) for (const role of ROLES) { const token = (running.tokens as Partial<Record<Role, string>>)[role]; if (token) roleTokens.set(`CONFORMANCE_${role.toUpperCase()}_TOKEN`, token); }
  const fill = (text: string): string => text.replace(/\[redacted:([A-Z0-9_]+)\]/g, (whole, name: string) => roleTokens.get(name) ?? env[name] ?? whole);
  const idsFound = new Map<string, string>();
  const swap = (text: string): string => {
    let swapped = text;
    for (const [from, to] of idsFound) if (swapped.includes(from)) swapped = swapped.split(from).join(to);
    return swapped;
  };
  const agent = new Agent({ connections: 4 });
  const byOperation = new Map<string, OperationFidelity>();
  const maps = { target: new IdMap(), reference: new IdMap() };
  try {
    for (const [i, entry] of recorded.entries()) {
      const url = new URL(entry.request.url);
      const match = matcher.match(entry.request.method, url.pathname);
      if (sorter.setAside(entry, i + 1, match !== undefined) !== undefined) continue;
      const operationId = match?.operation.operationId ?? `${entry.request.method.toUpperCase()} ${url.pathname}`;
      const what = `${entry.request.method.toUpperCase()} ${url.pathname}`;
      const replayed = await replay(entry, `${base.origin}${base.pathname.replace(/\/+$/, '')}${swap(url.pathname + url.search)}`, fill, swap, agent, options.timeoutMs ?? 10_000);
      const observation = (exchange: ObservedExchange) => ({ what, exchange: { case: { id: 'har', operationId, pathParams: {}, query: {}, headers: {}, role: null }, operationId, request: exchange.request, ...(exchange.response ? { response: exchange.response } : {}), ...(exchange.transportError ? { transportError: exchange.transportError } : {}) } as Exchange });
      // `target` is the recording (the sandbox's answers), `reference` the replay.
      const differences = compareStep([observation(entry)], [observation(replayed)], maps);
      const recordedIds = idsAt(entry.response?.json);
      const replayedIds = idsAt(replayed.response?.json);
      for (const [path, id] of recordedIds) {
        const mapped = replayedIds.get(path);
        if (mapped && mapped !== id && !idsFound.has(id)) idsFound.set(id, mapped);
      }
      const fidelity = byOperation.get(operationId) ?? { operationId, exchanges: 0, same: 0, differences: [] };
      byOperation.set(operationId, fidelity);
      fidelity.exchanges++;
      if (differences.length === 0) fidelity.same++;
      else fidelity.differences.push(...differences.slice(0, Math.max(0, 5 - fidelity.differences.length)).map((d) => ({ ...d, request: what })));
    }
  } finally {
    await agent.close();
    await running?.close();
  }
  const operations = [...byOperation.values()];
  const exitCode = operations.every((o) => o.same === o.exchanges) ? 0 : 1;
  const notApiTraffic = sorter.summary();
  out.write(formatFidelity(operations, { har: options.har, against: options.target ?? `the embedded reference (demo data of seed ${options.referenceSeed ?? 1})`, notApiTraffic }));
  return { exitCode, operations, notApiTraffic };
}

async function replay(entry: ObservedExchange, url: string, fill: (text: string) => string, swap: (text: string) => string, agent: Agent, timeoutMs: number): Promise<ObservedExchange> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(entry.request.headers)) if (!SKIPPED_HEADERS.has(name)) headers[name] = fill(value);
  const body = entry.request.body === undefined ? undefined : swap(fill(entry.request.body));
  const request = { method: entry.request.method, url, headers, ...(body !== undefined ? { body } : {}) };
  const started = performance.now();
  try {
    const answer = await undiciRequest(url, { method: request.method as 'GET', headers, body, dispatcher: agent, signal: AbortSignal.timeout(timeoutMs) });
    const raw = Buffer.from(await answer.body.arrayBuffer());
    const response: HttpResponse = observedResponse(answer.statusCode, flatHeaders(answer.headers), raw, raw.length, performance.now() - started);
    return { request, response };
  } catch (error) {
    const err = error as Error & { code?: string };
    return { request, transportError: { code: err.code ?? err.name, message: err.message } };
  }
}

/** The per-operation fidelity report, as printed. */
export function formatFidelity(operations: readonly OperationFidelity[], context: { har: string; against: string; notApiTraffic?: NotApiTraffic }): string {
  const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  const lines = [`conformance diff --har ${context.har}: the recorded answers against ${context.against}`];
  const width = Math.max(9, ...operations.map((o) => o.operationId.length));
  for (const o of operations) lines.push(`  ${o.operationId.padEnd(width)}  ${o.same}/${o.exchanges} the same${o.same === o.exchanges ? '' : `, ${o.exchanges - o.same} differ`}`);
  for (const o of operations.filter((op) => op.differences.length > 0)) {
    lines.push('', `${o.operationId}:`);
    for (const d of o.differences) lines.push(`  ${d.kind} at ${d.where}: recorded ${show(d.target)}, replayed ${show(d.reference)}`);
  }
  const same = operations.reduce((n, o) => n + o.same, 0);
  const total = operations.reduce((n, o) => n + o.exchanges, 0);
  const aside = context.notApiTraffic;
  if (aside && aside.count > 0) {
    lines.push('', `Not API traffic, not replayed (${notApiTrafficHeadline(aside)}):`);
    for (const exchange of aside.listed) lines.push(`  ${notApiExchangeLine(exchange)}`);
    if (aside.count > aside.listed.length) lines.push(`  and ${aside.count - aside.listed.length} more`);
  }
  lines.push('', `${same} of ${total} exchanges the same over ${operations.length} operations${same === total ? '' : ' (exit 1)'}`, '');
  return lines.join('\n');
}
