/**
 * Runs one cell of the operation x check matrix: a fast-check property over generated cases of
 * the operation, each sent to the target and judged by the check; a failing case is shrunk and
 * becomes a {@link Failure} with its reproducer.
 */
import fc from 'fast-check';
import type { LoadedSpec, Operation } from '../spec/load.js';
import { boundaryExamples, queryCaseArbitrary, type Harvest } from '../generators/query-case.js';
import { negativeCaseArbitrary, type NegativeCase } from '../generators/negative/index.js';
import { requiredQuery } from '../generators/parameter-value.js';
import { listBody } from '../checks/support.js';
import type { Client } from './client.js';
import { toCurl, type SecretRef } from './curl.js';
import type { Target } from './target.js';
import type { CellMeta, Check, Exchange, Failure, Finding, QueryValues, Role, TestCase } from './types.js';
import { acceptedBy, type BaselineEntry } from './baseline.js';
import { HarnessError } from './errors.js';
import { missingFixtures, pathValues, roleFor, SAFE_METHODS } from './operation-inputs.js';
import { validRequestBody } from './probe-body.js';
import { burstQuery, sendBurst, sourceAddressProblem, type BurstPlan } from './burst.js';
import { burstSize, documentedRateLimit } from '../checks/rate-limit-enforced.js';

/** Evidence that is one plain request (for `roles`, one per role): sent once, without a query (`roles` asks a list for its largest page). */
const PROBES: ReadonlySet<Check['needs']> = new Set(['anonymous', 'invalid_credentials', 'no_scope', 'reader', 'other_org', 'roles', 'not_found']);

/** The bearer token of `invalid_credentials` cases: well-formed, and no target's. */
export const INVALID_TOKEN = 'cnf_invalid_token_00000000000000000000000000000000';

/** Most pages one walk requests; a longer list is walked in part (disjointness only). */
export const MAX_WALK_PAGES = 60;

/** Inputs of {@link runCell}. */
export interface CellInput {
  spec: LoadedSpec;
  operation: Operation;
  check: Check;
  target: Target;
  client: Client;
  harvest?: Harvest;
  /** Seed of this operation's property runs. */
  seed: number;
  /** The run's seed, printed in reproducers. */
  runSeed: number;
  runs: number;
  /** Accepted deviations; matching failures are moved to `cell.accepted`. */
  baseline?: readonly BaselineEntry[];
}

/** Whose credentials the evidence a check needs carries (for `roles`, the last role's: the checked exchange). */
function roleOfNeeds(check: Check, operation: Operation): Role | null {
  const { needs } = check;
  if (needs === 'anonymous' || needs === 'invalid_credentials') return null;
  if (needs === 'no_scope' || needs === 'other_org' || needs === 'reader') return needs;
  if (needs === 'roles') return check.roles?.at(-1) ?? roleFor(operation);
  return roleFor(operation);
}

/** The roles a check's evidence is sent with that the target lacks. */
function missingRoles(check: Check, role: Role | null, target: Target): Role[] {
  const wanted = check.needs === 'roles' ? (check.roles ?? []) : role ? [role] : [];
  return wanted.filter((r) => !target.roles[r]);
}

/** The query of `roles` evidence: the largest page of a paginated list, so that comparisons see the most records. */
function rolesQuery(operation: Operation): QueryValues {
  return operation.paginated && operation.parameters.some((p) => p.in === 'query' && p.name === 'limit') ? { limit: '100' } : {};
}

/** The secrets of a target with the variable that holds each, for reproducers. */
export function secretsOf(target: Target): SecretRef[] {
  return Object.entries(target.roles).map(([role, cred]) => ({
    value: cred!.token,
    env: cred!.env ?? `CONFORMANCE_${role.toUpperCase()}_TOKEN`,
  }));
}

/**
 * Why the generic cases of a check cannot be sent to an operation, or undefined when they can.
 * Valid requests (`exchange`, `walk`) go to safe methods only, with the target's fixtures in the
 * path; refused probes (`anonymous`, `no_scope`) go to every method unless the run is read-only.
 */
export function notCallable(operation: Operation, target: Target, needs: Check['needs']): string | undefined {
  const safe = SAFE_METHODS.has(operation.method);
  if (needs === 'negative' && !safe) {
    // Invalid data must be refused before anything changes; random ids keep a broken target from
    // changing a real resource.
    return target.readOnly ? 'read-only run: the operation may change state' : undefined;
  }
  if (needs === 'exchange' || needs === 'walk' || needs === 'negative' || needs === 'other_org' || needs === 'defaults' || needs === 'burst' || needs === 'roles') {
    if (!safe) return 'changes state: exercised by the stateful suites';
    const missing = missingFixtures(operation, target);
    if (missing.length) return `needs fixture ${missing.join(', ')}`;
    return undefined;
  }
  if (target.readOnly && !safe) return 'read-only run: the operation may change state';
  return undefined;
}

function testCase(operation: Operation, target: Target, input: CaseInput, role: Role | null, needs: Check['needs'], n: number): TestCase {
  const probing = ['anonymous', 'invalid_credentials', 'no_scope', 'reader', 'negative'].includes(needs);
  // not_found names what does not exist, on every method.
  const fixtures = needs !== 'not_found' && (!probing || SAFE_METHODS.has(operation.method));
  const { query, negative } = input;
  const pathParams = { ...pathValues(operation, target, fixtures), ...negative?.path };
  // Probes of another API's document carry a valid body too, so that a target validating the body first answers the probe's question.
  const body = negative?.body ?? (needs === 'not_found' || (PROBES.has(needs) && operation.apiRules !== true) ? validRequestBody(operation) : undefined);
  return {
    id: `${operation.operationId}#${n}`,
    operationId: operation.operationId,
    pathParams,
    query,
    ...(body ? { body } : {}),
    headers: needs === 'invalid_credentials' ? { authorization: `Bearer ${INVALID_TOKEN}` } : {},
    role,
    ...(negative ? { negative: { location: negative.location, parameter: negative.parameter, mutation: negative.mutation, reason: negative.reason } } : {}),
  };
}

/** What a generated case varies: its query, and for negative cases the mutation behind it. */
interface CaseInput {
  query: QueryValues;
  negative?: NegativeCase;
}

/** What a `burst` needs besides the case: the target to send it to, past the client, and how. */
export interface BurstInput {
  target: Target;
  plan: BurstPlan;
}

/**
 * Sends what a check needs for one case: the case itself; for `walk` every page from 1 and the
 * page past the last (the checked exchange is the last, `history` the pages before); for
 * `defaults` the case without page and limit (`history[0]`) and then with `page=1&limit=10`; for
 * `burst` the case `burst.plan.requests` times at once, past the client's pacing (the checked
 * exchange is the first 429, else the last request; then a pause, see harness/burst.ts); for
 * `roles` the case once per role of `check.roles`, in order (the checked exchange is the last).
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
  if (check.needs === 'defaults') {
    const { page: _page, limit: _limit, ...query } = testCase.query;
    const bare = await client.send(operation, { ...testCase, query });
    const explicit = await client.send(operation, { ...testCase, id: `${testCase.id}/explicit`, query: { ...query, page: '1', limit: '10' } });
    return { exchange: explicit, history: [bare] };
  }
  return { exchange: await client.send(operation, testCase), history: [] };
}

/** Sends page 1..max_page and then max_page + 1 with the same filters; stops early on a non-list answer. */
async function walk(client: Client, operation: Operation, base: TestCase): Promise<Exchange[]> {
  const exchanges: Exchange[] = [];
  for (let page = 1; page <= MAX_WALK_PAGES + 1; page++) {
    const exchange = await client.send(operation, { ...base, id: `${base.id}/p${page}`, query: { ...base.query, page: String(page) } });
    exchanges.push(exchange);
    const body = listBody(exchange);
    if (!body || exchange.response?.status !== 200) break;
    if (page > body.pagination.max_page) break;
  }
  return exchanges;
}

/**
 * Runs the property of one check on one operation.
 * @returns the cell, `skipped` with a reason when the check does not apply, the target lacks the
 *   role or the operation cannot be called; `failed` with the shrunk failure otherwise failing
 * @throws HarnessError CNF_ERR_RUNNER when the check itself throws (a bug in the harness)
 */
export async function runCell(input: CellInput): Promise<CellMeta> {
  const { spec, operation, check, target, client } = input;
  const cell: CellMeta = { operationId: operation.operationId, checkId: check.id, status: 'passed', cases: 0, failures: [] };
  const ctx = { spec, operation };
  const applies = check.appliesTo?.(ctx) ?? true;
  const role = roleOfNeeds(check, operation);
  const [missing] = missingRoles(check, role, target);
  const skipReason =
    applies !== true ? applies : notCallable(operation, target, check.needs) ?? (missing ? `needs role ${missing}` : undefined);
  if (skipReason) return { ...cell, status: 'skipped', skipReason };
  if (check.needs === 'burst') return runBurstCell(input, cell, role);

  const isWalk = check.needs === 'walk';
  let inputs: fc.Arbitrary<CaseInput>;
  let examples: [CaseInput][] = [];
  if (check.needs === 'negative') {
    const negatives = negativeCaseArbitrary(operation);
    if (!negatives) return { ...cell, status: 'skipped', skipReason: 'no query parameter or body field whose schema rejects a value' };
    inputs = negatives.map((negative) => ({ query: negative.query, negative }));
  } else if (PROBES.has(check.needs)) {
    // A probe asks one thing (are these credentials refused?); varying the query would only let a
    // correct target answer 422 first, which says nothing about the credentials.
    inputs = fc.constant({ query: { ...requiredQuery(operation), ...(check.needs === 'roles' ? rolesQuery(operation) : {}) } });
  } else {
    const omit = isWalk ? ['page'] : check.needs === 'defaults' ? ['page', 'limit'] : [];
    inputs = queryCaseArbitrary(operation, { harvest: input.harvest, omit }).map((query) => ({ query }));
    examples = boundaryExamples(operation, { invalid: check.needs === 'exchange', page: !isWalk, ...(input.harvest ? { harvest: input.harvest } : {}) })
      .filter((query) => check.needs !== 'defaults' || (query.page === undefined && query.limit === undefined))
      .map((query) => [{ query }]);
  }
  let n = 0;
  const statuses = new Set<number>();
  const parameters = new Set<string>();
  const observe = (exchange: Exchange): void => {
    if (exchange.response) statuses.add(exchange.response.status);
    for (const name of Object.keys(exchange.case.query)) parameters.add(`query:${name.replace(/\[.*$/, '')}`);
    for (const name of Object.keys(exchange.case.pathParams)) parameters.add(`path:${name}`);
  };
  const evaluate = async (caseInput: CaseInput): Promise<{ findings: Finding[]; exchange: Exchange }> => {
    const base = testCase(operation, target, caseInput, role, check.needs, n++);
    cell.cases++;
    const { exchange, history } = await gatherEvidence(client, operation, check, base);
    [...history, exchange].forEach(observe);
    return { findings: check.run(ctx, exchange, history), exchange };
  };

  const numRuns = PROBES.has(check.needs) ? 1 : isWalk ? Math.max(3, Math.round(input.runs / 10)) : input.runs;
  const details = await fc.check(
    fc.asyncProperty(inputs, async (caseInput) => (await evaluate(caseInput)).findings.length === 0),
    { seed: input.seed, numRuns: numRuns + examples.length, examples },
  );
  cell.observed = { statuses: [...statuses].sort((a, b) => a - b), parameters: [...parameters].sort() };
  if (!details.failed) return cell;
  if (!details.counterexample) {
    throw new HarnessError('CNF_ERR_RUNNER', `check ${check.id} threw on ${operation.operationId}: ${String(details.errorInstance)}`, { cause: details.errorInstance });
  }
  const [failing] = details.counterexample;
  const { findings, exchange } = await evaluate(failing);
  return placeFindings(input, cell, findings, exchange, details.counterexamplePath ?? undefined);
}

/** Turns findings into the cell's failures (with reproducers), minus those the baseline accepts; sets the status. */
function placeFindings(input: CellInput, cell: CellMeta, findings: Finding[], exchange: Exchange, path?: string): CellMeta {
  const { check, operation } = input;
  const secrets = secretsOf(input.target);
  const failures = findings.map((finding): Failure => ({
    ...finding,
    checkId: check.id,
    severity: check.severity,
    rule: check.rule,
    operationId: operation.operationId,
    caseId: exchange.case.id,
    case: exchange.case,
    request: exchange.request,
    ...(exchange.response ? { response: exchange.response } : {}),
    reproduce: { curl: toCurl(exchange.request, secrets), seed: input.runSeed, ...(path !== undefined ? { path } : {}) },
  }));
  const accepted = failures.flatMap((f) => {
    const entry = acceptedBy(f, input.baseline ?? []);
    return entry ? [{ ...f, acceptedBecause: entry.reason }] : [];
  });
  cell.failures = failures.filter((f) => !acceptedBy(f, input.baseline ?? []));
  if (accepted.length) cell.accepted = accepted;
  cell.status = cell.failures.length ? 'failed' : 'passed';
  return cell;
}

/**
 * The cell of a `burst` check: one burst, not a property (the limit is per client, and a second
 * burst would only repeat the first). Skipped, with the reason, when the target has not opted in
 * (`Target.burst`), when its source address cannot be bound here, or when the check finds the
 * evidence undecided (a burst answered too slowly to exceed the limit); never passed for want of evidence.
 */
async function runBurstCell(input: CellInput, cell: CellMeta, role: Role | null): Promise<CellMeta> {
  const { spec, operation, check, target, client } = input;
  if (!target.burst) return { ...cell, status: 'skipped', skipReason: 'rate-limit burst is opt-in on remote targets (--rate-limit-check)' };
  const limit = documentedRateLimit(spec);
  if (!limit) return { ...cell, status: 'skipped', skipReason: 'the document declares no rate limit (x-rate-limit)' };
  const { sourceAddress } = target.burst;
  const unusable = sourceAddress ? await sourceAddressProblem(sourceAddress) : undefined;
  if (unusable) return { ...cell, status: 'skipped', skipReason: unusable };
  const ctx = { spec, operation };
  const base = testCase(operation, target, { query: burstQuery(operation) }, role, check.needs, 0);
  const plan: BurstPlan = { requests: burstSize(limit), ...(sourceAddress ? { sourceAddress } : {}) };
  const { exchange, history } = await gatherEvidence(client, operation, check, base, { target, plan });
  cell.cases = 1;
  const burst = [...history, exchange];
  cell.observed = {
    statuses: [...new Set(burst.flatMap((e) => (e.response ? [e.response.status] : [])))].sort((a, b) => a - b),
    parameters: Object.keys(base.query).map((name) => `query:${name}`).sort(),
  };
  const undecided = check.undecided?.(ctx, exchange, history);
  if (undecided) return { ...cell, status: 'skipped', skipReason: undecided };
  return placeFindings(input, cell, check.run(ctx, exchange, history), exchange);
}
