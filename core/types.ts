/**
 * The data that flows through the harness: cases, exchanges, checks, findings and failures.
 * Everything here is plain JSON-serializable data so that it crosses vitest's worker boundary
 * in `task.meta` and lands unchanged in the JSON and JUnit reports.
 */
import type { LoadedSpec, Operation } from './spec/load.js';

/**
 * A credential role that a target provides (docs/design.md, Targets, roles and verdicts): `writer` is an
 * organization token with every write scope and no read scope of the admin's organization; `pat`
 * a personal access token with every scope of it; `member_session` a member session of the
 * `customer_session` role's customer; `portal_no_scope` a customer session of that customer that
 * carries no scope, the customer portal's counterpart of `no_scope`.
 */
export type Role = 'admin' | 'reader' | 'writer' | 'no_scope' | 'other_org' | 'pat' | 'customer_session' | 'member_session' | 'portal_no_scope' | 'oauth_client';

/** Query values as sent: a repeated parameter is an array. */
export type QueryValues = Record<string, string | string[]>;

/** One generated request of an operation, before it is sent. */
export interface TestCase {
  /** Stable within a run: `<operationId>#<n>`. */
  id: string;
  operationId: string;
  /** Path parameters by name, substituted into the path template. */
  pathParams: Record<string, string>;
  /** Query parameters; `metadata[key]` style names are kept verbatim. */
  query: QueryValues;
  /** Extra headers (never the Authorization header, which comes from `role`). */
  headers: Record<string, string>;
  /** Whose credentials to send; `null` sends none. */
  role: Role | null;
  /** The request body, already encoded. */
  body?: { contentType: string; text: string };
  /** Set on a negative case: the query parameter, path parameter or body field made invalid, and how. */
  negative?: { location: 'query' | 'body' | 'path'; parameter: string; mutation: string; reason: string };
  /**
   * Set on a case the harness expects to be refused (a probe without or with wrong credentials,
   * invalid data, a missing resource, another organization's token): the probing check judges its
   * status, so the one judging path (engine/judge.ts) does not hold it to the documented statuses.
   */
  refusal?: true;
}

/**
 * A request to a URL outside the document that a stateful scenario or model command sends (an
 * upload part URL, a receipt URL handed out by the target).
 */
export interface UrlRequest {
  method: string;
  /** Absolute URL. */
  url: string;
  headers?: Record<string, string>;
  /** Sent as is, with `contentType`. */
  body?: { contentType: string; text: string };
}

/** The request as it went on the wire. Header names are lower-case. */
export interface HttpRequest {
  method: string;
  /** Absolute URL including the query string. */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** The response as it came back. Header names are lower-case; `json` is set when the body parsed as JSON. */
export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** The body as text (truncated to 1 MiB in reports). */
  body: string;
  json?: unknown;
  /** Milliseconds from sending the request to the end of the body. */
  elapsedMs: number;
  /** Bytes of the body as received, when it came content-coded (Content-Encoding) and `body` is its decoded text. */
  wireBytes?: number;
}

/** One request and what came of it: a response, or a transport error (timeout, reset, refused). */
export interface Exchange {
  case: TestCase;
  operationId: string;
  request: HttpRequest;
  response?: HttpResponse;
  /** Set when no complete response arrived; `code` is undici's or `CNF_TIMEOUT`. */
  transportError?: { code: string; message: string };
  /**
   * Burst evidence only: milliseconds from the start of the burst to sending this request, so that
   * `offsetMs + response.elapsedMs` bounds when the target had received it.
   */
  offsetMs?: number;
}

/** How serious a finding is. */
export type Severity = 'critical' | 'high' | 'medium' | 'low';

/** What a check returns for one violation: the check-level part of a {@link Failure}. */
export interface Finding {
  /** Named kind of finding, snake_case (`undocumented_status_code`); part of the de-duplication key. */
  kind: string;
  /** Plain title for people ("Undocumented HTTP status code"). */
  title: string;
  /** One or two sentences saying what is wrong, with the values involved. */
  message: string;
  expected?: unknown;
  actual?: unknown;
}

/** What a check may look at besides the exchange. */
export interface CheckContext {
  spec: LoadedSpec;
  operation: Operation;
}

/**
 * What kind of evidence a check needs, which tells the suite how to build exchanges for it:
 * `exchange` one valid request with full credentials; `walk` every page of a list (the checked
 * exchange is the last page request, `history` the ones before); `anonymous` a request without
 * credentials; `no_scope` a request with the `no_scope` role's valid token that carries no scopes;
 * `negative` a valid request with one query parameter made invalid (`TestCase.negative` says which);
 * `invalid_credentials` a request with an unknown bearer token; `other_org` a valid request of the
 * first organization's fixtures sent with the second organization's token; `reader` a request with
 * the `reader` role (read scopes only): fixtures in the path for safe methods, random ids otherwise;
 * `defaults` a list request without page and limit (`history[0]`) and the same with `page=1&limit=10`;
 * `burst` the same valid request sent many times at once from one client address, unpaced and
 * without waiting out 429s (`exchange` the first 429, or the last request; `history` the others;
 * each with `offsetMs`), after which the harness waits before sending anything else;
 * `roles` the same plain request (fixtures in the path, safe methods only; `limit=100` on a paginated
 * list, so that comparisons see the most records) sent with each role of `Check.roles` in turn
 * (`exchange` the last role's, `history` the others' in order); `not_found` a request with the
 * operation's usual credentials whose path parameters name no existing resource (values drawn from
 * their schemas) and, when the operation takes a JSON body, a valid body drawn from its schema;
 * `two_shapes` a list request and the same list under another page size (`limit` 100, or 10 when
 * the case asks for 100; `exchange` the second, `history` the first); `repeat` a read and the same
 * read asked again of the target, past every cache of the harness (`exchange` the second, `history`
 * the first). `needs` says how a run stages the evidence of the check's own cell; wherever else
 * that evidence appears, the engine routes it to the check too (`Check.evidence`).
 */
export type CheckNeeds = 'exchange' | 'walk' | 'anonymous' | 'no_scope' | 'negative' | 'invalid_credentials' | 'other_org' | 'reader' | 'defaults' | 'burst' | 'roles' | 'not_found' | 'two_shapes' | 'repeat';

/**
 * The kinds of evidence the engine routes to checks, from whatever source it comes (a run's cells,
 * a scenario step, a model command, the proxy, a HAR file, `judgeExchange`, the vitest helper):
 * `exchange` one exchange with its request, judged wherever an exchange of an operation the check
 * applies to appears; `pair` two exchanges of one client related as {@link Check.pair} says; `walk`
 * the pages of one list walked by one client (the last page and the pages before); `probe` an
 * exchange only the harness can stage (a request without, with wrong or with scope-less
 * credentials, invalid data, a missing resource, another organization's token, a burst, the same
 * request under several roles), which observed traffic shows only where the credentials' role is
 * known. A webhook delivery is judged by the scenarios that receive it (checks/stateful/webhook-deliveries.ts).
 * @see docs/architecture.md (Evidence)
 */
export type EvidenceKind = 'exchange' | 'pair' | 'walk' | 'probe';

/**
 * How the two exchanges of a `pair` relate (always one client, the same credentials; no write by
 * any client between them, except the write of `write_then_read` itself). The check's `exchange` is
 * the pair's subject and `history` holds the other one:
 * `write_then_read` a successful write and the same client's next read of the record it wrote
 * (subject: the write); `read_then_read` the same record read twice, the same request (subject:
 * the second read); `list_two_shapes` the same list (the same operation, path and filters) asked
 * under two shapes (another page, page size or sort order, or without page and limit; subject: the
 * later answer); `token_then_introspection` a token answer and the introspection of the access or
 * refresh token it issued (subject: the token answer).
 */
export type PairRelation = 'write_then_read' | 'read_then_read' | 'list_two_shapes' | 'token_then_introspection';

/** A check's layer: `generic` (any OpenAPI document) or `api` (the bundled API's rules only). */
export type CheckLayer = 'generic' | 'api';

/**
 * The conformance classes a run's statement is made of: `core` (status codes, content types,
 * schemas, headers, error bodies, data invariants of the records), `pagination` (pages, filters,
 * sorting), `auth` (credentials, scopes, token kinds, OAuth), `tenancy` (another organization's
 * records), `state` (state transitions and the effects of writes), `webhooks` (deliveries and their
 * signatures), `versions` (what differs between API versions), `limits` (page size, rate limit).
 */
export const CONFORMANCE_CLASSES = ['core', 'pagination', 'auth', 'tenancy', 'state', 'webhooks', 'versions', 'limits'] as const;

/** One of {@link CONFORMANCE_CLASSES}. */
export type ConformanceClass = (typeof CONFORMANCE_CLASSES)[number];

/** How strongly the API states a rule: `must` (stated as what the API does) or `should` (a recommendation, or a convention the API relies on without stating it). */
export type RequirementLevel = 'must' | 'should';

/**
 * A named check: pure, never throws for a finding, returns findings as data.
 * @see docs/architecture.md (Checks)
 */
export interface Check {
  /** snake_case, never renamed (Schemathesis names where the meaning is the same). */
  id: string;
  title: string;
  severity: Severity;
  /** The rule id in spec/rules.yaml or the OpenAPI section it enforces. */
  rule: string;
  /** `generic`: follows from OpenAPI alone and runs on any document; `api`: a rule of the bundled API (spec/rules.yaml), not applicable elsewhere. */
  layer: CheckLayer;
  /**
   * The evidence it judges, which the engine routes to it from every source (engine/judge.ts,
   * engine/evidence.ts): an `exchange` check judges every exchange of an operation it applies to
   * (cases, probes, scenario steps, fixtures, observed traffic), not only its own cases; it reads
   * the exchange alone (its request and response) and the operation's document.
   */
  evidence: EvidenceKind;
  /** `pair` evidence only: the relation of the two exchanges it judges. */
  pair?: PairRelation;
  /** The conformance class its verdicts count in (the reports' conformance statement). */
  conformanceClass: ConformanceClass;
  /** The requirement level the API description's wording gives the rule: a `must` failure is non-conformance, a `should` one a deviation (`--fail-on`). */
  level: RequirementLevel;
  /** How a run stages the evidence of the check's own cells (see {@link CheckNeeds}). */
  needs: CheckNeeds;
  /** `roles` evidence only: whose credentials the request is sent with, in order (the last one's is the checked exchange). */
  roles?: readonly Role[];
  /** `true` when the check applies to the operation, else the reason it does not (reported as skipped). */
  appliesTo?(ctx: CheckContext): true | string;
  /**
   * Why the evidence gathered cannot decide the check either way (a burst the target answered too
   * slowly to exceed its limit), reported as skipped with that reason; undefined when it can.
   */
  undecided?(ctx: CheckContext, exchange: Exchange, history: readonly Exchange[]): string | undefined;
  run(ctx: CheckContext, exchange: Exchange, history: readonly Exchange[]): Finding[];
}

/** How to replay a failure. */
export interface Reproducer {
  /** A curl command; secrets are replaced by `$ENV_VAR` references. */
  curl: string;
  /** fast-check seed of the property run. */
  seed: number;
  /** fast-check counterexample path, for `--seed S --path P` replay (model-based families only). */
  path?: string;
  /**
   * Embedded runs: the `conformance serve` command that brings back the reference the run used
   * (same seed, faults, version, on a fixed port), which `curl` and `steps` point at.
   */
  serve?: string;
  /** Embedded runs: `export VAR='token'` lines for each variable `curl` or `steps` use (the reference's demo tokens of the seed). */
  exports?: string[];
  /** A multi-step failure: every request in order, each a curl command like `curl` (which is the step that failed). */
  steps?: string[];
  /** The `conformance run` command that replays this one cell (with `--target`, `--fault`, `--seed`, `--path` as needed). */
  replay?: string;
}

/** A finding placed in its run: which operation, case and check, and how to reproduce it. */
export interface Failure extends Finding {
  checkId: string;
  severity: Severity;
  rule: string;
  operationId: string;
  caseId: string;
  /** The case that failed, so `conformance replay` can send it again with the target's own credentials. */
  case: TestCase;
  request: HttpRequest;
  response?: HttpResponse;
  reproduce: Reproducer;
}

/**
 * Outcome of one cell of the operation x check matrix, five verdicts that never mix (docs/design.md,
 * Targets, roles and verdicts): `passed` and `failed` judge the target's answers; `skipped` means the
 * check applies but the run lacks what it needs (a role, fixture, adapter or option: `skipReason`
 * says which and `fix` how to provide it); `not_applicable` means the check cannot apply to this
 * operation (`skipReason` says why) and is never counted as skipped; `errored` means the harness
 * itself failed inside the cell (`error` says how): neither a pass nor a failure of the target.
 */
export type CellStatus = 'passed' | 'failed' | 'skipped' | 'not_applicable' | 'errored';

/** Why a `skipped` cell could not run: what the run lacks. */
export type SkipKind = 'role' | 'fixture' | 'adapter' | 'option';

/**
 * What a conformance test writes to `task.meta.conformance` for the reporters: one cell of the
 * operation x check matrix.
 */
export interface CellMeta {
  operationId: string;
  checkId: string;
  status: CellStatus;
  /** Why the cell was skipped (a missing role, fixture, adapter or option) or is not applicable. */
  skipReason?: string;
  /** `skipped` cells: what the run lacks, so reports count missing roles apart from options. */
  skipKind?: SkipKind;
  /** `skipped` cells: how to provide what is missing (`export CONFORMANCE_ADMIN_TOKEN=…`, `drop --read-only`). */
  fix?: string;
  /** `errored` cells: the harness's own failure inside the cell (`code` a CNF_ERR_* code or the error's name). */
  error?: { code: string; message: string };
  /** Number of generated cases (or walks) that were checked. */
  cases: number;
  failures: Failure[];
  /** Failures a baseline accepts: reported, never failing the cell. Each carries the entry's reason. */
  accepted?: (Failure & { acceptedBecause: string })[];
  /**
   * What the cell exercised, for spec coverage: response statuses seen and parameters sent
   * (`query:limit`, `path:id`); `refusals` the statuses of cases the harness made to be refused
   * (probes, invalid data), which status_code_conformance does not judge.
   */
  observed?: { statuses: number[]; parameters: string[]; refusals?: number[] };
  /**
   * State-machine edges a stateful scenario saw happen through the target (`order: pending→paid`),
   * for the transition coverage of the reports; absent on cells of the generic suites.
   */
  transitions?: string[];
}

declare module 'vitest' {
  interface TaskMeta {
    conformance?: CellMeta;
    /**
     * Failed cells of the response checks on the exchanges the test made besides its own check
     * (probes, scenario steps, commands, fixtures): engine/judge.ts, each on the exchange's own
     * operation and check.
     */
    judged?: CellMeta[];
    /**
     * Cells of the checks that cannot apply to their operation (`Check.appliesTo`, decided from
     * the document alone), recorded together by one test of the suite file instead of a test each
     * (engine/suite.ts).
     */
    inapplicable?: CellMeta[];
  }
}
