/**
 * Runs one cell of the operation x check matrix: a fast-check property over generated cases of
 * the operation, each sent to the target and judged by the check; a failing case is shrunk and
 * becomes a {@link Failure} with its reproducer.
 */
import fc from 'fast-check';
import type { LoadedSpec, Operation } from '../core/spec/load.js';
import { boundaryExamples, queryCaseArbitrary, type Harvest } from '../generators/query-case.js';
import { negativeCaseArbitrary, type NegativeCase } from '../generators/negative/index.js';
import { requiredQuery } from '../generators/parameter-value.js';
import { listBody } from '../checks/support.js';
import type { Client } from './client.js';
import type { SecretRef } from '../core/curl.js';
import type { Target } from '../core/target.js';
import type { CellMeta, Check, Exchange, Failure, Finding, QueryValues, Role, TestCase } from '../core/types.js';
import { acceptedBy, type BaselineEntry } from './baseline.js';
import { HarnessError } from '../core/errors.js';
import { acceptsOrganizationToken, missingFixtures, roleFor, SAFE_METHODS } from '../core/operation-needs.js';
import { pathValues } from './operation-inputs.js';
import { validRequestBody } from './probe-body.js';
import { burstQuery, sendBurst, sourceAddressProblem, type BurstPlan } from './burst.js';
import { burstSize, documentedRateLimit } from '../checks/rate-limit-enforced.js';
import { defaultTokenEnv } from '../core/target.js';
import { noAnswerFinding, toFailure } from './judge.js';
import { writeTestCase, type WriteCaseMaker, type WriteFixture, type PlannedRequest } from './write-cases.js';
import { eventually, succeeded } from '../core/answers.js';
import type { SkipKind } from '../core/types.js';

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
  /**
   * Operations that change state: the maker of fixtures made for each case (engine/write-cases.ts).
   * Without it such an operation's valid cases are skipped for want of a fixture.
   */
  writes?: WriteCaseMaker;
  /** The one judging path, for exchanges sent past `client` (a burst): engine/judge.ts. */
  judge?: (operation: Operation, exchange: Exchange) => void;
  /** Operations that change state: the operation's shared write cases, sent once and judged by every `exchange` check. */
  writeEvidence?: () => Promise<WriteEvidence[]>;
}

/** One write case of an operation that changes state, with what its owner read back after it (`history`). */
export interface WriteEvidence {
  exchange: Exchange;
  history: Exchange[];
}

/** Write cases an operation's `exchange` checks share, at most (each makes a fixture). */
export const MAX_WRITE_CASES = 3;

/** Whose credentials the evidence a check needs carries (for `roles`, the last role's: the checked exchange). */
function roleOfNeeds(check: Check, operation: Operation): Role | null {
  const { needs } = check;
  if (needs === 'anonymous' || needs === 'invalid_credentials') return null;
  // The customer portal's counterpart of a token without scopes is a customer session without them.
  if (needs === 'no_scope') return acceptsOrganizationToken(operation) ? 'no_scope' : 'portal_no_scope';
  if (needs === 'other_org' || needs === 'reader') return needs;
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

/** Why a cell cannot run, what the run lacks, and how to provide it. */
export interface SkipReason {
  reason: string;
  kind: SkipKind;
  fix: string;
}

/**
 * Why the generic cases of a check cannot be sent to an operation, or undefined when they can.
 * Valid requests of safe methods carry the target's fixtures; an operation that changes state gets
 * a fixture made for each case (`writes`), without which its valid cases cannot be sent. Refused
 * probes (`anonymous`, `no_scope`, `invalid_credentials`, `negative`, `not_found`) go to every
 * method unless the run is read-only.
 */
export function notCallable(operation: Operation, target: Target, needs: Check['needs'], writes?: WriteCaseMaker): SkipReason | undefined {
  const safe = SAFE_METHODS.has(operation.method);
  if (target.readOnly && !safe) return { reason: 'read-only run: the operation may change state', kind: 'option', fix: 'run without --read-only to send writes (each on a fixture made for it)' };
  if (!safe) {
    if (WRITE_NEEDS.has(needs)) return writes?.unavailable ?? (writes ? undefined : { reason: 'no fixture can be made for a write of this operation', kind: 'fixture', fix: 'name its path values under "fixtures" in the config file' });
    return undefined;
  }
  if (needs === 'exchange' || needs === 'walk' || needs === 'negative' || needs === 'other_org' || needs === 'defaults' || needs === 'burst' || needs === 'roles') {
    const missing = missingFixtures(operation, target);
    if (missing.length) return { reason: `needs fixture ${missing.join(', ')}`, kind: 'fixture', fix: `name ${missing.join(', ')} under "fixtures" in the config file` };
  }
  return undefined;
}

/** Evidence that, on an operation that changes state, needs a fixture made for each case (a valid request, or one that must change nothing). */
const WRITE_NEEDS: ReadonlySet<Check['needs']> = new Set(['exchange', 'roles', 'other_org', 'reader']);

/** Probes whose requests are refused for their credentials: on a write, they name a fixture made for the case when one can be made. */
const CREDENTIAL_PROBES: ReadonlySet<Check['needs']> = new Set(['anonymous', 'invalid_credentials', 'no_scope']);

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
    ...(REFUSED.has(needs) ? { refusal: true } : {}),
    ...(negative ? { negative: { location: negative.location, parameter: negative.parameter, mutation: negative.mutation, reason: negative.reason } } : {}),
  };
}

/** Evidence whose requests the harness expects to be refused (probes and invalid data): their status is judged by the probing check, not by status_code_conformance. */
const REFUSED: ReadonlySet<Check['needs']> = new Set(['anonymous', 'invalid_credentials', 'no_scope', 'negative', 'not_found', 'other_org']);

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
 * exchange is the first 429, else the last request; then a pause, see engine/burst.ts); for
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
 * @returns the cell: `not_applicable` with the reason when the check cannot apply to the
 *   operation; `skipped` with the reason, its kind and the fix when the run lacks a role, fixture,
 *   adapter or option; `failed` with the shrunk failure; `errored` when the harness itself failed
 *   inside the cell (a check that threw, an adapter that refused): never thrown, so the run goes on
 */
export async function runCell(input: CellInput): Promise<CellMeta> {
  const { operation, check } = input;
  const cell: CellMeta = { operationId: operation.operationId, checkId: check.id, status: 'passed', cases: 0, failures: [] };
  try {
    return await judgeCell(input, cell);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return {
      ...cell,
      status: 'errored',
      failures: [],
      error: { code: typeof code === 'string' ? code : error instanceof Error ? error.name : 'Error', message: error instanceof Error ? error.message : String(error) },
    };
  }
}

/** A cell that does not run: not applicable, or skipped with what is missing. */
function notRun(cell: CellMeta, status: 'not_applicable' | 'skipped', reason: string, skip?: Omit<SkipReason, 'reason'>): CellMeta {
  return { ...cell, status, skipReason: reason, ...(skip ? { skipKind: skip.kind, fix: skip.fix } : {}) };
}

async function judgeCell(input: CellInput, cell: CellMeta): Promise<CellMeta> {
  const { spec, operation, check, target, client } = input;
  const ctx = { spec, operation };
  const applies = check.appliesTo?.(ctx) ?? true;
  if (applies !== true) return notRun(cell, 'not_applicable', applies);
  const role = roleOfNeeds(check, operation);
  const callable = notCallable(operation, target, check.needs, input.writes);
  if (callable) return notRun(cell, 'skipped', callable.reason, callable);
  const [missing] = missingRoles(check, role, target);
  if (missing) return notRun(cell, 'skipped', `needs role ${missing}`, { kind: 'role', fix: `export ${defaultTokenEnv(missing)}=…` });
  if (check.needs === 'burst') return runBurstCell(input, cell, role);
  if (!SAFE_METHODS.has(operation.method) && input.writes && !input.writes.unavailable && (WRITE_NEEDS.has(check.needs) || CREDENTIAL_PROBES.has(check.needs))) {
    return runWriteCell(input, cell, role);
  }

  const isWalk = check.needs === 'walk';
  let inputs: fc.Arbitrary<CaseInput>;
  let examples: [CaseInput][] = [];
  if (check.needs === 'negative') {
    const negatives = negativeCaseArbitrary(operation);
    if (!negatives) return notRun(cell, 'not_applicable', 'no query parameter or body field whose schema rejects a value');
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
  const observed = observer();
  const evaluate = async (caseInput: CaseInput): Promise<{ findings: Finding[]; exchange: Exchange }> => {
    const base = testCase(operation, target, caseInput, role, check.needs, n++);
    cell.cases++;
    const { exchange, history } = await gatherEvidence(client, operation, check, base);
    [...history, exchange].forEach(observed.add);
    return { findings: judgeEvidence(check, ctx, exchange, history), exchange };
  };

  const numRuns = PROBES.has(check.needs) ? 1 : isWalk ? Math.max(3, Math.round(input.runs / 10)) : input.runs;
  const details = await fc.check(
    fc.asyncProperty(inputs, async (caseInput) => (await evaluate(caseInput)).findings.length === 0),
    { seed: input.seed, numRuns: numRuns + examples.length, examples },
  );
  cell.observed = observed.result();
  if (!details.failed) return cell;
  if (!details.counterexample) {
    throw new HarnessError('CNF_ERR_RUNNER', `check ${check.id} threw on ${operation.operationId}: ${String(details.errorInstance)}`, { cause: details.errorInstance });
  }
  const [failing] = details.counterexample;
  const { findings, exchange } = await evaluate(failing);
  return placeFindings(input, cell, findings, exchange, details.counterexamplePath ?? undefined);
}

/**
 * The findings of a check on its evidence: a verdict needs an answer, so evidence with an exchange
 * that got none is a `no_response` finding whatever the check would say of the rest.
 */
export function judgeEvidence(check: Check, ctx: { spec: LoadedSpec; operation: Operation }, exchange: Exchange, history: readonly Exchange[]): Finding[] {
  const silent = [exchange, ...history].map(noAnswerFinding).find((f) => f !== undefined);
  return silent ? [silent] : check.run(ctx, exchange, history);
}

/** Collects the statuses seen and parameters sent by a cell's exchanges, for spec coverage. */
function observer(): { add: (exchange: Exchange) => void; result: () => NonNullable<CellMeta['observed']> } {
  const statuses = new Set<number>();
  const refusals = new Set<number>();
  const parameters = new Set<string>();
  return {
    add: (exchange) => {
      if (exchange.response) (exchange.case.refusal ? refusals : statuses).add(exchange.response.status);
      for (const name of Object.keys(exchange.case.query)) parameters.add(`query:${name.replace(/\[.*$/, '')}`);
      for (const name of Object.keys(exchange.case.pathParams)) parameters.add(`path:${name}`);
    },
    result: () => ({ statuses: [...statuses].sort((a, b) => a - b), parameters: [...parameters].sort(), ...(refusals.size ? { refusals: [...refusals].sort((a, b) => a - b) } : {}) }),
  };
}

/** Sends a planned read (polling it until it answers 2xx when it says so). @returns the last exchange, answered or not */
export async function sendPlanned(client: Client, planned: PlannedRequest, id: string): Promise<Exchange> {
  const testCase: TestCase = { id, operationId: planned.operation.operationId, pathParams: planned.pathParams, query: planned.query, headers: {}, role: planned.role };
  let exchange = await client.send(planned.operation, testCase);
  if (planned.eventuallyMs && !succeeded(exchange)) {
    await eventually(async () => succeeded((exchange = await client.send(planned.operation, testCase))), planned.eventuallyMs);
  }
  return exchange;
}

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

/**
 * The cell of a check on an operation that changes state, each case on a fixture made for it:
 * `exchange` checks judge the operation's shared write cases; `roles` sends one write per role,
 * each on its own fixture; `other_org` reads the resource back as its owner, sends the write with
 * the other organization's token and reads it back again (history: before, after); the credential
 * probes and `reader` send the write with their credentials.
 */
async function runWriteCell(input: CellInput, cell: CellMeta, role: Role | null): Promise<CellMeta> {
  const { spec, operation, check, client } = input;
  const writes = input.writes!;
  const ctx = { spec, operation };
  const observed = observer();
  const judgeOne = (exchange: Exchange, history: Exchange[]): CellMeta | undefined => {
    cell.cases++;
    [...history, exchange].forEach(observed.add);
    const findings = judgeEvidence(check, ctx, exchange, history);
    cell.observed = observed.result();
    return findings.length ? placeFindings(input, cell, findings, exchange) : undefined;
  };
  if (check.needs === 'exchange') {
    const evidence = await input.writeEvidence!();
    for (const { exchange, history } of evidence) {
      const failed = judgeOne(exchange, history);
      if (failed) return failed;
    }
    return cell;
  }
  const id = `${operation.operationId}#${check.id}`;
  const owner = roleFor(operation);
  if (check.needs === 'roles') {
    const exchanges: Exchange[] = [];
    for (const [i, each] of (check.roles ?? [owner]).entries()) {
      const fixture = await writes.make(each, i);
      exchanges.push(await client.send(operation, writeTestCase(operation, fixture, each, `${id}/${each ?? 'anonymous'}`)));
    }
    return judgeOne(exchanges.at(-1)!, exchanges.slice(0, -1)) ?? cell;
  }
  const fixture: WriteFixture = await writes.make(owner, 0);
  const probe = writeTestCase(operation, fixture, role, id);
  if (check.needs === 'invalid_credentials') probe.headers = { authorization: `Bearer ${INVALID_TOKEN}` };
  if (REFUSED.has(check.needs)) probe.refusal = true;
  if (check.needs === 'other_org') {
    const before = fixture.readBack ? await sendPlanned(client, fixture.readBack, `${id}/before`) : undefined;
    const exchange = await client.send(operation, probe);
    const after = fixture.readBack ? await sendPlanned(client, fixture.readBack, `${id}/after`) : undefined;
    return judgeOne(exchange, before && after ? [before, after] : []) ?? cell;
  }
  return judgeOne(await client.send(operation, probe), []) ?? cell;
}

/** Turns findings into the cell's failures (with reproducers), minus those the baseline accepts; sets the status. */
function placeFindings(input: CellInput, cell: CellMeta, findings: Finding[], exchange: Exchange, path?: string): CellMeta {
  const { check, operation } = input;
  const secrets = secretsOf(input.target);
  const failures = findings.map((finding): Failure => toFailure(check, operation, exchange, finding, { seed: input.runSeed, secrets, ...(path !== undefined ? { path } : {}) }));
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
  if (!target.burst) return notRun(cell, 'skipped', 'rate-limit burst is opt-in on remote targets (--rate-limit-check)', { kind: 'option', fix: 'add --rate-limit-check to send the burst' });
  const limit = documentedRateLimit(spec);
  if (!limit) return notRun(cell, 'not_applicable', 'the document declares no rate limit (x-rate-limit)');
  const { sourceAddress } = target.burst;
  const unusable = sourceAddress ? await sourceAddressProblem(sourceAddress) : undefined;
  if (unusable) return notRun(cell, 'skipped', unusable, { kind: 'option', fix: 'run where the burst source address can be bound' });
  const ctx = { spec, operation };
  const base = testCase(operation, target, { query: burstQuery(operation) }, role, check.needs, 0);
  const plan: BurstPlan = { requests: burstSize(limit), ...(sourceAddress ? { sourceAddress } : {}) };
  const { exchange, history } = await gatherEvidence(client, operation, check, base, { target, plan });
  cell.cases = 1;
  const burst = [...history, exchange];
  // The burst goes past the client: its answers are judged here, as every exchange is.
  for (const each of burst) input.judge?.(operation, each);
  cell.observed = {
    statuses: [...new Set(burst.flatMap((e) => (e.response ? [e.response.status] : [])))].sort((a, b) => a - b),
    parameters: Object.keys(base.query).map((name) => `query:${name}`).sort(),
  };
  if (!exchange.response) return placeFindings(input, cell, [noAnswerFinding(exchange)!], exchange);
  const undecided = check.undecided?.(ctx, exchange, history);
  if (undecided) return { ...cell, status: 'skipped', skipReason: undecided, skipKind: 'option', fix: 'run the burst from a machine nearer the target (a burst must arrive within the limit\'s window)' };
  return placeFindings(input, cell, check.run(ctx, exchange, history), exchange);
}
