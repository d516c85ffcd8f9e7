/**
 * Judging observed traffic: exchanges the harness did not make (a proxy's, a HAR file's, a user's
 * own tests') matched to their operation and judged by the one judging path (engine/judge.ts
 * `JudgedCells`, core/failure.ts `makeFailure`), with the checks that can judge what one observed
 * exchange shows, and the multi-exchange checks fed with what the traffic gives (the pages of one
 * list walked by one client). Findings are kept; exchange bodies are not (a page walk keeps the ids
 * of its items only), so memory stays bounded on a long session.
 * @see docs/observed.md; docs/architecture.md (A finding's way)
 */
import { CHECKS } from '../../checks/index.js';
import type { SecretRef } from '../../core/curl.js';
import { makeFailure } from '../../core/failure.js';
import { requestedPage } from '../../checks/support.js';
import { acceptsOrganizationToken } from '../../core/operation-needs.js';
import { API_VERSIONS, type LoadedSpec, type Operation } from '../../core/spec/load.js';
import type { CellMeta, Check, Exchange, Failure, HttpRequest, HttpResponse, PairRelation, Role, TestCase } from '../../core/types.js';
import type { BaselineEntry } from '../baseline.js';
import { factsOf } from '../conformance.js';
import { credentialOf, listOf } from '../evidence.js';
import { JudgedCells, PAIR_CHECKS, RESPONSE_CHECKS, ROUTED_CHECKS, type JudgedSource } from '../judge.js';
import { finishResults, type HarnessProblem, type RunResults } from '../results.js';
import { apiScope, TrafficSorter, type TrafficSorterState } from './api-traffic.js';
import type { ObservedExchange } from './exchange.js';
import { observedCase, OperationMatcher } from './match.js';
import { redactRequest } from './redact.js';

export type { ObservedExchange } from './exchange.js';

/** The checks every observed exchange of a documented operation is judged by, in report order (`Check.evidence` `exchange`). */
export const OBSERVED_CHECKS: readonly Check[] = RESPONSE_CHECKS;

const byId = (id: string): Check => CHECKS.find((c) => c.id === id)!;
/** Judged on a request that carries no credentials, on an operation that requires them. */
const ANONYMOUS_CHECK = byId('missing_auth_rejected');
/** Judged on a request whose token is known to carry no scope (`no_scope`, `portal_no_scope`). */
const NO_SCOPE_CHECK = byId('insufficient_scope_rejected');
/** Judged on a request whose token is known to carry read scopes only (`reader`). */
const READER_CHECKS = [byId('read_scope_accepted'), byId('write_scope_required')];
/** Judged on the pages of one list walked by one client. */
const WALK_CHECK = byId('pages_disjoint_and_complete');
/** The lists of one check each that counting is asked with (one array each, since the counts' keys are kept per list). */
const ANONYMOUS_CHECKS = [ANONYMOUS_CHECK];
const NO_SCOPE_CHECKS = [NO_SCOPE_CHECK];
const WALK_CHECKS = [WALK_CHECK];

/** The check under which a request outside the document is reported (finding kind `undocumented_operation`). */
export const UNDOCUMENTED_CHECK_ID = 'operation_documented';

/** Every check an observed run reports on, in report order (the matrix's columns). */
export const OBSERVED_REPORT_CHECKS: readonly Check[] = CHECKS.filter((c) => OBSERVED_CHECKS.includes(c) || PAIR_CHECKS.includes(c) || [ANONYMOUS_CHECK, NO_SCOPE_CHECK, ...READER_CHECKS, WALK_CHECK].includes(c));

/** What {@link ObservedJudge} is told. */
export interface ObservedJudgeOptions {
  /**
   * The documents to judge against. With several (the bundled 2026-10 and 2026-04), a request is
   * judged against the one its answer's `Polar-Version` header names, else its request's, else
   * 2026-04, the platform's default (docs/platform.md, Versions); with one, every request against it.
   */
  specs: readonly LoadedSpec[];
  /** Path prefixes of the target before the document's paths (`/sandbox`), besides the servers'. */
  basePaths?: readonly string[];
  /**
   * The API's origins (`https://sandbox.example.com`): a request to another origin is not API
   * traffic, set aside unjudged (engine/observed/api-traffic.ts). Default: unknown, no request is
   * set aside for its origin.
   */
  origins?: readonly string[];
  /** Tokens whose role is known (a config's roles, the reference's demo tokens): named by their variable in reproducers, and scope judged for `no_scope`, `portal_no_scope` and `reader`. */
  roles?: readonly { token: string; role: Role; env: string }[];
  /** Accepted deviations (engine/baseline.ts). */
  baseline?: readonly BaselineEntry[];
}

/** What judging one observed exchange found. */
export interface ObservedVerdict {
  /** The operation matched, or undefined for a request outside the document. */
  operationId?: string;
  /** Every failure found on this exchange (those of a walk included), each with its reproducer. */
  failures: Failure[];
  /** Whether a failure is of a must-level check (`--strict` answers 502 for it). */
  mustFailed: boolean;
  /** Set when the exchange is not API traffic (a page's stylesheet, a call to another origin): why, for a person; it was not judged. */
  notApiTraffic?: string;
}

/** Transport errors that mean the target could not be reached at all, not that it failed an answer. */
const UNREACHABLE = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT_TIMEOUT)$/;

/** Most page walks followed at once, and most distinct undocumented routes kept as cells. */
const MAX_WALKS = 1000;
const MAX_UNDOCUMENTED = 200;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The token and introspection routes, judged by one judge so that a token and its introspection meet. */
const OAUTH_ROUTES = new Set(['POST /v1/oauth2/token', 'POST /v1/oauth2/introspect']);

/** The per-document judging state: the one judging path with each set of checks. */
interface DocumentJudges {
  spec: LoadedSpec;
  matcher: OperationMatcher;
  single: JudgedCells;
  anonymous: JudgedCells;
  noScope: JudgedCells;
  reader: JudgedCells;
  walk: JudgedCells;
}

/** A page kept of a walk: an exchange whose answer holds only the ids of its items and its pagination. */
type SlimPage = Exchange;

/**
 * Judges observed exchanges one at a time and makes the run's results of all of them. Not
 * thread-safe in any sense that matters to Node: judge from one event loop.
 */
export class ObservedJudge {
  readonly #documents: DocumentJudges[];
  readonly #primary: LoadedSpec;
  readonly #secrets = new Map<string, string>();
  /** {@link secrets} as last made; remade after a new secret. */
  #secretList: SecretRef[] | undefined;
  /** `CONFORMANCE_TOKEN_<n>` variables handed out. */
  #tokens = 0;
  readonly #roles = new Map<string, Role>();
  readonly #counts = new Map<string, number>();
  readonly #applicable = new Map<string, boolean>();
  /** {@link #countKeys} made so far, by operation (each document's operations are objects of their own) and list of checks. */
  readonly #keysOf = new WeakMap<Operation, Map<readonly Check[], readonly string[]>>();
  readonly #seen = new Map<string, { statuses: Set<number>; parameters: Set<string> }>();
  readonly #failed = new Map<string, CellMeta>();
  readonly #undocumented = new Map<string, CellMeta>();
  readonly #errors = new Map<string, HarnessProblem>();
  readonly #walks = new Map<string, Map<number, SlimPage>>();
  #walkHistory: readonly Exchange[] = [];
  #n = 0;
  /** Sets aside the exchanges that are not API traffic, and counts them. */
  readonly #traffic: TrafficSorter;

  /** @throws RangeError when `specs` is empty */
  constructor(options: ObservedJudgeOptions) {
    if (options.specs.length === 0) throw new RangeError('an observed judge needs at least one document');
    this.#primary = options.specs[0]!;
    this.#traffic = new TrafficSorter(apiScope(options.specs, options));
    const walkCheck: Check = { ...WALK_CHECK, run: (ctx, exchange) => WALK_CHECK.run(ctx, exchange, this.#walkHistory) };
    const baseline = options.baseline ?? [];
    this.#documents = options.specs.map((spec) => ({
      spec,
      matcher: new OperationMatcher(spec, options.basePaths),
      // The routed checks: each exchange judged by the response checks, each pair it completes by the pair checks.
      single: new JudgedCells(spec, ROUTED_CHECKS, baseline, (operation, check) => this.#countOne(spec, operation, check)),
      anonymous: new JudgedCells(spec, [ANONYMOUS_CHECK], baseline),
      noScope: new JudgedCells(spec, [NO_SCOPE_CHECK], baseline),
      reader: new JudgedCells(spec, READER_CHECKS, baseline),
      walk: new JudgedCells(spec, [walkCheck], baseline),
    }));
    for (const { token, role, env } of options.roles ?? []) {
      this.#secrets.set(token, env);
      this.#roles.set(token, role);
    }
  }

  /**
   * The document an exchange is judged against (see {@link ObservedJudgeOptions.specs}): the
   * version the answer says it is in (its `Polar-Version` header), else the one the request asked
   * for, else 2026-04.
   */
  documentOf(request: Pick<HttpRequest, 'headers'>, response?: Pick<HttpResponse, 'headers'>): LoadedSpec {
    return this.#judgesOf(request, response).spec;
  }

  #judgesOf(request: Pick<HttpRequest, 'headers'>, response?: Pick<HttpResponse, 'headers'>): DocumentJudges {
    if (this.#documents.length === 1) return this.#documents[0]!;
    const answered = response?.headers['polar-version'];
    const asked = request.headers['polar-version'];
    return this.#documents.find((d) => d.spec.version === answered)
      ?? this.#documents.find((d) => d.spec.version === asked)
      ?? this.#documents.find((d) => d.spec.version === API_VERSIONS[1])
      ?? this.#documents[0]!;
  }

  /**
   * The environment variable a secret value is named by in reproducers and redacted recordings:
   * a known role's variable, the variable a redacted recording already named (`[redacted:VAR]`),
   * else `CONFORMANCE_TOKEN_<n>` in order of first sight.
   */
  secretEnv(value: string): string {
    const known = this.#secrets.get(value);
    if (known) return known;
    const placeholder = /^\[redacted:([A-Z0-9_]+)\]$/.exec(value);
    const env = placeholder ? placeholder[1]! : `CONFORMANCE_TOKEN_${++this.#tokens}`;
    this.#secrets.set(value, env);
    this.#secretList = undefined;
    return env;
  }

  /** The secrets of reproducers so far: every credential value seen, as its variable. */
  secrets(): SecretRef[] {
    this.#secretList ??= [...this.#secrets].map(([value, env]) => ({ value, env }));
    return this.#secretList;
  }

  /**
   * Names every secret of a request by its variable (see {@link secretEnv}), in the order judging
   * meets them: its credential, then the secrets `redactRequest` finds (a cookie, a client secret
   * in a form body, a token in the query, a placeholder of a redacted recording).
   * @returns the request's credential (see {@link credentialOf}), or undefined
   */
  nameSecrets(request: HttpRequest): string | undefined {
    const credential = credentialOf(request);
    if (credential !== undefined) this.secretEnv(credential);
    redactRequest(request, (value) => this.secretEnv(value));
    return credential;
  }

  /**
   * Takes the names another judge gave to secrets (its {@link secrets}), so that this one names
   * them alike: a {@link JudgePool}'s threads name secrets as the pool does, in traffic order.
   */
  adoptSecrets(names: readonly SecretRef[]): void {
    for (const { value, env } of names) {
      if (this.#secrets.has(value)) continue;
      this.#secrets.set(value, env);
      this.#secretList = undefined;
    }
  }

  /**
   * Where an exchange must be judged for the judging to be the same as one judge of all the
   * traffic (a {@link JudgePool} routes by it):
   * - `affinity`: exchanges with equal keys go to one judge. The multi-exchange checks relate only
   *   exchanges of one client: the pages of one list walked in one shape (same operation, same
   *   query but the page), a write and the read of the same resource or a record read twice (same
   *   path parameters), or a token and its introspection (every OAuth request goes to one judge).
   *   Every exchange outside the document has one key, so that its cells are kept as one judge keeps them.
   * - `list`: for a GET of a paginated list, the list it belongs to under every shape (engine/evidence.ts
   *   `listOf`): the judge of its next answer must know the list's last answers (`list_two_shapes`
   *   pairs), which the pool hands it when another judge saw them ({@link recall}).
   * What else ties exchanges together (a write forgets every walk and pair) is {@link forget}.
   */
  route(request: HttpRequest, response?: Pick<HttpResponse, 'headers'>): { affinity: string; list?: string } {
    const url = new URL(request.url);
    const match = this.#judgesOf(request, response).matcher.match(request.method, url.pathname);
    if (!match) return { affinity: 'undocumented' };
    // A token answer and the introspection of its token are a pair (engine/evidence.ts), whatever their credentials.
    if (OAUTH_ROUTES.has(`${match.operation.method} ${match.operation.path}`)) return { affinity: 'oauth2' };
    const client = credentialOf(request) ?? '';
    const params = Object.entries(match.pathParams);
    if (params.length > 0) return { affinity: `${client}\u0000${JSON.stringify(params.sort(([a], [b]) => a.localeCompare(b)))}` };
    if (!match.operation.paginated) return { affinity: `${client}\u0000${match.operation.operationId}` };
    // One list in one shape (its page walk); its other shapes may go to other judges.
    const rest = [...url.searchParams].filter(([name]) => name !== 'page').sort(([a], [b]) => a.localeCompare(b));
    const list = listOf(match.operation, { case: observedCase('observed#0', request, match), operationId: match.operation.operationId, request });
    return { affinity: `${client}\u0000${match.operation.operationId}\u0000${JSON.stringify(rest)}`, ...(list !== undefined ? { list } : {}) };
  }

  /**
   * Takes a list answer another judge of a {@link JudgePool} judged as its list's last answer,
   * without judging or counting it, so that the next answer of the list here pairs with it as one
   * judge of all the traffic would pair them (`list_two_shapes`: engine/evidence.ts `PairFinder.recall`).
   * @param index the answer's number in the traffic (its case id is `observed#<index>`)
   * @param replace forget what this judge kept of that list first (the first answer of a list handed over)
   */
  recall(observed: ObservedExchange, index: number, replace: boolean): void {
    const { request } = observed;
    const judges = this.#judgesOf(request, observed.response);
    const match = judges.matcher.match(request.method.toUpperCase(), new URL(request.url).pathname);
    if (!match || !observed.response) return;
    const exchange: Exchange = { case: observedCase(`observed#${index}`, request, match), operationId: match.operation.operationId, request, response: observed.response };
    judges.single.recall(match.operation, exchange, replace);
  }

  /** Forgets every page walk and every exchange awaiting its pair (engine/evidence.ts), as a write by any client does. */
  forget(): void {
    this.#walks.clear();
    for (const judges of this.#documents) judges.single.forget();
  }

  /**
   * Judges one observed exchange: set aside unjudged when it is not API traffic (a page's own
   * request, a call to another origin: engine/observed/api-traffic.ts), else matched to its
   * operation (or reported as `undocumented_operation`), then judged by the response checks and
   * the single-answer checks, by `missing_auth_rejected` when it carries no credentials, by `insufficient_scope_rejected` when its token is known to
   * carry no scope, by `read_scope_accepted` and `write_scope_required` when it is known to carry
   * read scopes only (role `reader`), by `pages_disjoint_and_complete` with the earlier pages of
   * the same list by the same client, and by `write_effect_visible` on a successful write when the
   * same client reads the same resource back (both since the last write any client made here).
   * @param index the exchange's number in the traffic (its case id is `observed#<index>`), by default
   *   one more than the last one judged here; a {@link JudgePool} numbers exchanges across its threads
   * @returns the failures found on it, each once, with its reproducer
   */
  judge(observed: ObservedExchange, index?: number): ObservedVerdict {
    this.#n = index ?? this.#n + 1;
    const id = `observed#${this.#n}`;
    const { request } = observed;
    const credential = this.nameSecrets(request);
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    if (!SAFE_METHODS.has(method)) this.forget();
    if (observed.transportError && UNREACHABLE.test(observed.transportError.code)) {
      const key = observed.transportError.code;
      if (!this.#errors.has(key)) this.#errors.set(key, { where: `${method} ${url.origin}`, code: 'CNF_ERR_TARGET_UNREACHABLE', message: `the target ${url.origin} did not answer (${observed.transportError.code}: ${observed.transportError.message}); the client got 502 from the proxy` });
      return { failures: [], mustFailed: false };
    }
    const judges = this.#judgesOf(request, observed.response);
    const match = judges.matcher.match(method, url.pathname);
    const notApiTraffic = this.#traffic.setAside(observed, this.#n, match !== undefined);
    if (notApiTraffic !== undefined) return { failures: [], mustFailed: false, notApiTraffic };
    const source: JudgedSource = { seed: 0, secrets: this.secrets() };
    if (!match) return this.#undocumentedOf(id, observed, source);
    const { operation } = match;
    const testCase = observedCase(id, request, match);
    const exchange: Exchange = { case: testCase, operationId: operation.operationId, request, ...(observed.response ? { response: observed.response } : {}), ...(observed.transportError ? { transportError: observed.transportError } : {}) };
    this.#note(operation, testCase, observed.response?.status);
    const failures = [...judges.single.judge(operation, exchange, source)];
    this.#count(judges.spec, operation, OBSERVED_CHECKS);
    if (credential === undefined && operationRequiresCredentials(operation)) {
      failures.push(...judges.anonymous.judge(operation, exchange, source));
      this.#count(judges.spec, operation, ANONYMOUS_CHECKS);
    }
    const role = credential === undefined ? undefined : this.#roles.get(credential);
    if ((role === 'no_scope' && acceptsOrganizationToken(operation)) || (role === 'portal_no_scope' && operation.security.some((alt) => 'customer_session' in alt))) {
      failures.push(...judges.noScope.judge(operation, exchange, source));
      this.#count(judges.spec, operation, NO_SCOPE_CHECKS);
    }
    if (role === 'reader') {
      failures.push(...judges.reader.judge(operation, exchange, source));
      this.#count(judges.spec, operation, READER_CHECKS);
    }
    if (operation.paginated && method === 'GET' && observed.response?.status === 200) failures.push(...this.#walk(judges, operation, exchange, credential ?? '', source));
    return { operationId: operation.operationId, failures, mustFailed: failures.some((f) => factsOf(f.checkId).level === 'must') };
  }

  #walk(judges: DocumentJudges, operation: Operation, exchange: Exchange, client: string, source: JudgedSource): Failure[] {
    const { page } = requestedPage(exchange.case.query);
    const slim = slimPage(exchange);
    if (!slim || page < 1) return [];
    const rest = Object.entries(exchange.case.query).filter(([name]) => name !== 'page').sort(([a], [b]) => a.localeCompare(b));
    const key = `${judges.spec.version}\u0000${client}\u0000${operation.operationId}\u0000${JSON.stringify(exchange.case.pathParams)}\u0000${JSON.stringify(rest)}`;
    let pages = this.#walks.get(key);
    if (!pages) {
      if (this.#walks.size >= MAX_WALKS) this.#walks.delete(this.#walks.keys().next().value!);
      pages = new Map();
      this.#walks.set(key, pages);
    }
    pages.delete(page);
    if (pages.size === 0) {
      pages.set(page, slim);
      return [];
    }
    const maxPage = (slim.response!.json as { pagination: { max_page: number } }).pagination.max_page;
    // Each page once, in page order; only pages up to the last count as the walk's history, so
    // that "every page walked" means pages 1..max_page were all seen.
    this.#walkHistory = [...pages.entries()].filter(([n]) => n <= maxPage).sort(([a], [b]) => a - b).map(([, e]) => e);
    pages.set(page, slim);
    const failures = judges.walk.judge(operation, exchange, source);
    this.#count(judges.spec, operation, WALK_CHECKS);
    this.#walkHistory = [];
    return failures;
  }

  #undocumentedOf(id: string, observed: ObservedExchange, source: JudgedSource): ObservedVerdict {
    const url = new URL(observed.request.url);
    const route = `${observed.request.method.toUpperCase()} ${url.pathname}`;
    const key = this.#undocumented.size >= MAX_UNDOCUMENTED && !this.#undocumented.has(route) ? '(other undocumented requests)' : route;
    const testCase: TestCase = { id, operationId: key, pathParams: {}, query: {}, headers: { ...observed.request.headers }, role: null };
    const exchange: Exchange = { case: testCase, operationId: key, request: observed.request, ...(observed.response ? { response: observed.response } : {}) };
    const failure = makeFailure(
      { checkId: UNDOCUMENTED_CHECK_ID, severity: 'medium', rule: 'openapi.paths', operationId: key },
      {
        kind: 'undocumented_operation',
        title: 'Undocumented operation',
        message: `${route} matches no operation of the document ${JSON.stringify(this.documentOf(observed.request, observed.response).version)} (its paths, with the servers' base paths); the document says nothing of its answer.`,
        expected: 'a method and path of the document',
        actual: route,
      },
      { exchange },
      source,
    );
    const cell = this.#undocumented.get(key);
    if (cell) cell.cases++;
    else this.#undocumented.set(key, { operationId: key, checkId: UNDOCUMENTED_CHECK_ID, status: 'failed', cases: 1, failures: [failure] });
    return { failures: [failure], mustFailed: false };
  }

  #note(operation: Operation, testCase: TestCase, status: number | undefined): void {
    let seen = this.#seen.get(operation.operationId);
    if (!seen) {
      seen = { statuses: new Set(), parameters: new Set() };
      this.#seen.set(operation.operationId, seen);
    }
    if (status !== undefined) seen.statuses.add(status);
    for (const name of Object.keys(testCase.query)) if (operation.parameters.some((p) => p.in === 'query' && p.name === name)) seen.parameters.add(`query:${name}`);
    for (const name of Object.keys(testCase.pathParams)) seen.parameters.add(`path:${name}`);
  }

  /** Counts one judgement of a check on an operation (a pair check's, told by the one judging path). */
  #countOne(spec: LoadedSpec, operation: Operation, check: Check): void {
    if (!this.#applies(spec, operation, check)) return;
    const key = `${operation.operationId}\u0000${check.id}`;
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
  }

  #count(spec: LoadedSpec, operation: Operation, checks: readonly Check[]): void {
    for (const key of this.#countKeys(spec, operation, checks)) this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
  }

  /** The keys of {@link #counts} an exchange of an operation counts in for these checks (those that apply), made once per document, operation and list of checks. */
  #countKeys(spec: LoadedSpec, operation: Operation, checks: readonly Check[]): readonly string[] {
    let byChecks = this.#keysOf.get(operation);
    if (!byChecks) this.#keysOf.set(operation, (byChecks = new Map()));
    let keys = byChecks.get(checks);
    if (!keys) byChecks.set(checks, (keys = checks.filter((check) => this.#applies(spec, operation, check)).map((check) => `${operation.operationId}\u0000${check.id}`)));
    return keys;
  }

  /** Whether a check applies to an operation: `appliesTo` is pure, so asked once per document, operation and check. */
  #applies(spec: LoadedSpec, operation: Operation, check: Check): boolean {
    const key = `${spec.version}\u0000${operation.operationId}\u0000${check.id}`;
    let applies = this.#applicable.get(key);
    if (applies === undefined) {
      applies = (check.appliesTo?.({ spec, operation }) ?? true) === true;
      this.#applicable.set(key, applies);
    }
    return applies;
  }

  /**
   * The results of everything judged so far, as a run's (engine/results.ts): for each operation
   * of the document and each check of {@link OBSERVED_REPORT_CHECKS}, `failed` with its failures,
   * `passed` when observed exchanges were judged and none failed, `not_applicable` when the check
   * cannot apply to the operation, and `skipped` "not observed" when no exchange of the traffic
   * could show it (never passed); plus one failed cell per undocumented route, and the target's
   * unreachability as a harness problem.
   */
  results(): RunResults {
    this.#takeCells();
    return this.#resultsOfState();
  }

  /** The failed cells of every document so far into `#failed`, one per operation and check. */
  #takeCells(): void {
    for (const judges of this.#documents) {
      for (const judged of [judges.single, judges.anonymous, judges.noScope, judges.reader, judges.walk]) {
        for (const cell of judged.take()) {
          const key = `${cell.operationId}\u0000${cell.checkId}`;
          const had = this.#failed.get(key);
          if (!had) {
            this.#failed.set(key, cell);
            continue;
          }
          // The same operation and check judged under both versions' documents: one cell.
          had.failures.push(...cell.failures.filter((f) => !had.failures.some((h) => h.kind === f.kind)));
          if (cell.accepted) had.accepted = [...(had.accepted ?? []), ...cell.accepted];
          if (cell.status === 'failed') had.status = 'failed';
        }
      }
    }
  }

  /**
   * What this judge has judged, for another judge to {@link absorb}: the failed cells, the
   * counts, the statuses and parameters seen, the undocumented routes and the harness problems.
   * Plain data, copied, so that it crosses a thread's boundary and another judge may change it.
   */
  state(): ObservedState {
    this.#takeCells();
    return structuredClone({
      cells: [...this.#failed.values()],
      counts: [...this.#counts],
      seen: [...this.#seen].map(([operationId, seen]) => ({ operationId, statuses: [...seen.statuses], parameters: [...seen.parameters] })),
      undocumented: [...this.#undocumented.values()],
      errors: [...this.#errors],
      notApiTraffic: this.#traffic.state(),
    });
  }

  /**
   * Adds what another judge judged ({@link state}) to this one's, as if this judge had judged it
   * too: counts added, a failure kind seen by both kept once with both counts ("seen on N
   * exchanges"). A {@link JudgePool} makes its results so.
   */
  absorb(state: ObservedState): void {
    for (const cell of state.cells) {
      const key = `${cell.operationId}\u0000${cell.checkId}`;
      const had = this.#failed.get(key);
      if (!had) {
        this.#failed.set(key, cell);
        continue;
      }
      had.cases += cell.cases;
      if (cell.status === 'failed') had.status = 'failed';
      for (const failure of cell.failures) {
        const i = had.failures.findIndex((f) => f.kind === failure.kind);
        if (i < 0) {
          had.failures.push(failure);
          continue;
        }
        // The kind's first failure in the traffic is the one kept, counting the others.
        const kept = exchangeNumber(failure) < exchangeNumber(had.failures[i]!) ? failure : had.failures[i]!;
        kept.message = `${withoutSeen(kept.message)} (seen on ${seenOn(had.failures[i]!.message) + seenOn(failure.message)} exchanges)`;
        had.failures[i] = kept;
      }
      // In traffic order, as one judge finds them (a stable sort keeps one exchange's failures in check order).
      had.failures.sort((a, b) => exchangeNumber(a) - exchangeNumber(b));
      // Each judge keeps the same number of accepted failures at most: as many as either kept.
      if (cell.accepted) had.accepted = [...(had.accepted ?? []), ...cell.accepted].slice(0, Math.max(had.accepted?.length ?? 0, cell.accepted.length));
    }
    for (const [key, count] of state.counts) this.#counts.set(key, (this.#counts.get(key) ?? 0) + count);
    for (const { operationId, statuses, parameters } of state.seen) {
      let seen = this.#seen.get(operationId);
      if (!seen) this.#seen.set(operationId, (seen = { statuses: new Set(), parameters: new Set() }));
      for (const status of statuses) seen.statuses.add(status);
      for (const parameter of parameters) seen.parameters.add(parameter);
    }
    for (const cell of state.undocumented) {
      const had = this.#undocumented.get(cell.operationId);
      if (had) had.cases += cell.cases;
      else this.#undocumented.set(cell.operationId, cell);
    }
    for (const [key, problem] of state.errors) if (!this.#errors.has(key)) this.#errors.set(key, problem);
    this.#traffic.absorb(state.notApiTraffic);
  }

  #resultsOfState(): RunResults {
    const cells: CellMeta[] = [];
    for (const operation of this.#primary.operations) {
      const seen = this.#seen.get(operation.operationId);
      let first = true;
      for (const check of OBSERVED_REPORT_CHECKS) {
        const key = `${operation.operationId}\u0000${check.id}`;
        const applies = check.appliesTo?.({ spec: this.#primary, operation }) ?? true;
        const cases = this.#counts.get(key) ?? 0;
        const failed = this.#failed.get(key);
        const observed = seen && first ? { observed: { statuses: [...seen.statuses], parameters: [...seen.parameters] } } : {};
        if (failed) {
          cells.push(structuredClone({ ...failed, cases: Math.max(cases, failed.cases), ...observed }));
        } else if (applies !== true) {
          cells.push({ operationId: operation.operationId, checkId: check.id, status: 'not_applicable', skipReason: applies, cases: 0, failures: [] });
          continue;
        } else if (cases > 0) {
          cells.push({ operationId: operation.operationId, checkId: check.id, status: 'passed', cases, failures: [], ...observed });
        } else {
          cells.push({ operationId: operation.operationId, checkId: check.id, status: 'skipped', skipReason: notObservedReason(check, seen !== undefined), cases: 0, failures: [] });
          continue;
        }
        first = false;
      }
    }
    for (const cell of this.#undocumented.values()) cells.push(structuredClone(cell));
    return finishResults({ cells, errors: [...this.#errors.values()], notApiTraffic: this.#traffic.summary() }, { spec: this.#primary });
  }
}

/** What an {@link ObservedJudge} has judged, as plain data (see `ObservedJudge.state`). */
export interface ObservedState {
  cells: CellMeta[];
  /** Exchanges judged per `operationId\u0000checkId`. */
  counts: [string, number][];
  seen: { operationId: string; statuses: number[]; parameters: string[] }[];
  undocumented: CellMeta[];
  errors: [string, HarnessProblem][];
  /** The exchanges set aside as not API traffic. */
  notApiTraffic: TrafficSorterState;
}

const SEEN_ON = / \(seen on (\d+) exchanges\)$/;

/** How many exchanges a kept failure stands for: its "(seen on N exchanges)", else 1 (engine/judge.ts `JudgedCells`). */
function seenOn(message: string): number {
  return Number(SEEN_ON.exec(message)?.[1] ?? 1);
}

/** The number of the observed exchange a failure was found on (its case id `observed#<n>`). */
function exchangeNumber(failure: Pick<Failure, 'caseId'>): number {
  return Number(/#(\d+)$/.exec(failure.caseId)?.[1] ?? Number.MAX_SAFE_INTEGER);
}

function withoutSeen(message: string): string {
  return message.replace(SEEN_ON, '');
}

/** What the traffic lacked for a pair check, by relation. */
const PAIR_NOT_OBSERVED: Readonly<Record<PairRelation, string>> = {
  write_then_read: 'no successful write read back by its client before another write',
  read_then_read: 'no record read twice by one client without a write between',
  list_two_shapes: 'no list asked by one client under two shapes (page, page size or order) without a write between',
  token_then_introspection: 'no token answer whose token its client then introspected',
};

/** Why a check saw nothing to judge in the traffic: its operation or its evidence was not observed. */
function notObservedReason(check: Check, operationSeen: boolean): string {
  if (!operationSeen) return 'not observed: no exchange of this operation in the traffic';
  if (check === ANONYMOUS_CHECK) return 'not observed: no request without credentials';
  if (check === NO_SCOPE_CHECK) return 'not observed: no request with a token known to carry no scope';
  if (READER_CHECKS.includes(check)) return 'not observed: no request with a token known to carry read scopes only';
  if (check === WALK_CHECK) return 'not observed: no client walked two pages of the same list';
  if (check.evidence === 'pair') return `not observed: ${PAIR_NOT_OBSERVED[check.pair!]}`;
  return 'not observed';
}

function operationRequiresCredentials(operation: Operation): boolean {
  return operation.security.length > 0 && !operation.security.some((alt) => Object.keys(alt).length === 0);
}

export { credentialOf } from '../evidence.js';

/** A JSON object of a request body, or an empty one. */
function parseObject(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A list page as a walk keeps it: the request, the status and the ids and pagination of its body. */
function slimPage(exchange: Exchange): SlimPage | undefined {
  const json = exchange.response?.json as { items?: unknown; pagination?: unknown } | undefined;
  if (!json || !Array.isArray(json.items) || typeof json.pagination !== 'object' || json.pagination === null) return undefined;
  const items = json.items.map((item) => ({ id: (item as { id?: unknown } | null)?.id }));
  return { ...exchange, response: { ...exchange.response!, body: '', json: { items, pagination: json.pagination } } };
}
