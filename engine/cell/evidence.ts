/**
 * Evidence gathering: the requests a check needs for one case ({@link gatherEvidence}: a page walk,
 * the defaults pair, a burst, one request per role), a planned read polled until it answers, and
 * the shared write cases of an operation that changes state, each on a fixture made for it.
 * Used by the cells and by `conformance replay`, so a replayed failure sees the same evidence.
 * @see spec/rules.yaml pagination.walk, pagination.page_default, limits.rate, writes.effect_visible;
 *   docs/usage.md (Writes: every answer judged, each case on a fixture made for it)
 */
import type { Operation } from '../../core/spec/load.js';
import type { Target } from '../../core/target.js';
import type { Check, Exchange, TestCase } from '../../core/types.js';
import { HarnessError } from '../../core/errors.js';
import { roleFor } from '../../core/operation-needs.js';
import { eventually, succeeded } from '../../core/answers.js';
import { DEFAULT_LIMIT, listBody, MAX_LIMIT } from '../../checks/support.js';
import type { Client } from '../client.js';
import { sendBurst, type BurstPlan } from '../burst.js';
import { writeTestCase, type WriteCaseMaker, type PlannedRequest } from '../write-cases.js';

/** Most pages one walk requests; a longer list is walked in part (disjointness only). */
export const MAX_WALK_PAGES = 60;

/** What a `burst` needs besides the case: the target to send it to, past the client, and how. */
export interface BurstInput {
  target: Target;
  plan: BurstPlan;
}

/**
 * Sends what a check needs for one case: the case itself; for `walk` every page (the first
 * without `page`, as a client asks for a list, then `page=2` on) and the page past the last (the
 * checked exchange is the last, `history` the pages before); for `defaults` the case without
 * page and limit (`history[0]`) and then with `page=1&limit=10`; for `burst` the case
 * `burst.plan.requests` times at once, past the client's pacing (the checked exchange is the first
 * 429, else the last request; then a pause, see engine/burst.ts); for
 * `roles` the case once per role of `check.roles`, in order (the checked exchange is the last); for
 * `two_shapes` the case and the same list under another page size; for `repeat` the case twice, the
 * second asked of the target past the harness's read caches (the checked exchange is the second).
 * Used by the property runs and by `conformance replay`, so a replayed failure sees the same evidence.
 * @throws HarnessError CNF_ERR_CONFIG_INVALID for `burst` evidence without `burst`
 */
export async function gatherEvidence(client: Client, operation: Operation, check: Check, testCase: TestCase, burst?: BurstInput): Promise<{ exchange: Exchange; history: Exchange[] }> {
  if (check.needs === 'burst') {
    if (!burst) throw new HarnessError('CNF_ERR_CONFIG_INVALID', `${check.id} needs a burst plan: run it with \`conformance run --checks ${check.id}\``);
    const exchanges = await sendBurst(burst.target, operation, testCase, burst.plan);
    const firstRefused = exchanges.findIndex((e) => e.response?.status === 429);
    const chosen = firstRefused >= 0 ? firstRefused : exchanges.length - 1;
    return { exchange: exchanges[chosen]!, history: exchanges.filter((_, i) => i !== chosen) };
  }
  if (check.needs === 'roles') {
    const exchanges: Exchange[] = [];
    for (const role of check.roles ?? [testCase.role]) exchanges.push(await client.send(operation, { ...testCase, id: `${testCase.id}/${role ?? 'anonymous'}`, role }));
    return { exchange: exchanges[exchanges.length - 1]!, history: exchanges.slice(0, -1) };
  }
  if (check.needs === 'walk') {
    const { page: _page, ...query } = testCase.query;
    const pages = await walk(client, operation, { ...testCase, query });
    return { exchange: pages[pages.length - 1]!, history: pages.slice(0, -1) };
  }
  if (check.needs === 'two_shapes') {
    // The same list under another page size: 100 items a page, or 10 when the case asks for 100.
    const first = await client.send(operation, testCase);
    const limit = testCase.query.limit === String(MAX_LIMIT) ? String(DEFAULT_LIMIT) : String(MAX_LIMIT);
    const second = await client.send(operation, { ...testCase, id: `${testCase.id}/limit${limit}`, query: { ...testCase.query, limit } });
    return { exchange: second, history: [first] };
  }
  if (check.needs === 'repeat') {
    // Asked again of the target itself: `Cache-Control: no-cache` keeps the harness's read caches out of it (their key is the request's headers).
    const first = await client.send(operation, testCase);
    const second = await client.send(operation, { ...testCase, id: `${testCase.id}/again`, headers: { ...testCase.headers, 'cache-control': 'no-cache' } });
    return { exchange: second, history: [first] };
  }
  if (check.needs === 'defaults') {
    const { page: _page, limit: _limit, ...query } = testCase.query;
    const bare = await client.send(operation, { ...testCase, query });
    const explicit = await client.send(operation, { ...testCase, id: `${testCase.id}/explicit`, query: { ...query, page: '1', limit: '10' } });
    return { exchange: explicit, history: [bare] };
  }
  return { exchange: await client.send(operation, testCase), history: [] };
}

/**
 * Sends the first page (the case's query without `page`: the list as a client first asks for it,
 * and the same request as the exchange suite's case, which a worker then asks once), then pages
 * 2..max_page and max_page + 1 with the same filters; stops early on a non-list answer. An explicit
 * `page=1` is judged by the defaults pair (`pagination_defaults`).
 */
async function walk(client: Client, operation: Operation, base: TestCase): Promise<Exchange[]> {
  const exchanges: Exchange[] = [];
  for (let page = 1; page <= MAX_WALK_PAGES + 1; page++) {
    const exchange = await client.send(operation, { ...base, id: `${base.id}/p${page}`, query: page === 1 ? base.query : { ...base.query, page: String(page) } });
    exchanges.push(exchange);
    const body = listBody(exchange);
    if (!body || exchange.response?.status !== 200) break;
    if (page > body.pagination.max_page) break;
  }
  return exchanges;
}

/** Sends a planned read (polling it until it answers 2xx when it says so). @returns the last exchange, answered or not */
export async function sendPlanned(client: Client, planned: PlannedRequest, id: string): Promise<Exchange> {
  const testCase: TestCase = { id, operationId: planned.operation.operationId, pathParams: planned.pathParams, query: planned.query, headers: {}, role: planned.role, ...(planned.body ? { body: planned.body } : {}) };
  let exchange = await client.send(planned.operation, testCase);
  if (planned.eventuallyMs && !succeeded(exchange)) {
    await eventually(async () => succeeded((exchange = await client.send(planned.operation, testCase))), planned.eventuallyMs);
  }
  return exchange;
}

/** One write case of an operation that changes state, with what its owner read back after it (`history`). */
export interface WriteEvidence {
  exchange: Exchange;
  history: Exchange[];
}

/** Write cases an operation's `exchange` checks share, at most (each makes a fixture). */
export const MAX_WRITE_CASES = 3;

/**
 * Sends the shared write cases of an operation that changes state: each on a fixture made for it,
 * with the operation's usual credentials, and, when it succeeded and its effect can be read back,
 * that read (`history[0]`).
 * @param count how many cases (each makes a fixture)
 * @throws AdapterError when the adapter refuses to make a fixture
 */
export async function sendWriteCases(client: Client, operation: Operation, writes: WriteCaseMaker, count: number): Promise<WriteEvidence[]> {
  const role = roleFor(operation);
  const evidence: WriteEvidence[] = [];
  for (let n = 0; n < count; n++) {
    const fixture = await writes.make(role, n);
    const exchange = await client.send(operation, writeTestCase(operation, fixture, role, `${operation.operationId}#w${n}`));
    const after = succeeded(exchange) ? fixture.readBackAfter?.(exchange) : undefined;
    evidence.push({ exchange, history: after ? [await sendPlanned(client, after, `${operation.operationId}#w${n}/read`)] : [] });
  }
  return evidence;
}
