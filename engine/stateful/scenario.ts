/**
 * The runner of the stateful scenarios: declares one vitest test per scenario of
 * engine/stateful/registry.ts, decides whether it can run (read-only run, adapter capabilities,
 * roles, fixtures, a loopback target for webhooks), gives it a {@link ScenarioRun} that sends its
 * requests through the harness client and records its steps, failures and state-machine edges,
 * and writes its cell to `task.meta.conformance`.
 * @see docs/stateful.md; docs/architecture.md (Stateful engine; A finding's way)
 */
import { afterAll, describe, test } from 'vitest';
import { scenario as scenarioOf, selectScenarios, type Scenario } from './registry.js';
import { edge, KNOWN_EDGES } from './transitions.js';
import { outsideOperation, type AdapterCapability, type TargetAdapter } from '../../core/adapter.js';
import type { Skip } from '../../core/skips.js';
import { notRunnable, type NotRunnable } from './runnable.js';
import { afterEachCall, loadAdapter } from '../adapters/load.js';
import { answerText, bodyOf, statusOf, succeeded } from '../../core/answers.js';
import { createClient, type Client } from '../client.js';
import { failureRunOf, readRunContext, statefulRunContext, type RunContext } from '../context.js';
import { secretsOf, type SecretRef } from '../../core/curl.js';
import { selectedRoutedChecks, settle } from '../suite.js';
import { JudgedCells, judgingClient, noAnswerFinding, stepLines } from '../judge.js';
import { makeFailure } from '../../core/failure.js';
import { apiCase, urlCase, type ApiRequest } from './request.js';
import type { Target } from '../../core/target.js';
import type { CellMeta, Exchange, Failure, Finding, UrlRequest } from '../../core/types.js';
import { flushWork } from '../../core/timings.js';
import { BUNDLED_ROUTES, loadSpec, routeKey, type LoadedSpec, type Operation } from '../../core/spec/load.js';

// The scenarios read answers as the model-based commands do.
export { answerText, bodyOf, eventually, refused, sleep, statusOf, succeeded } from '../../core/answers.js';

/** What every scenario of a suite file shares: the run, the document, the client and the adapter. */
export interface StatefulSuite {
  run: RunContext;
  spec: LoadedSpec;
  target: Target;
  client: Client;
  /** The run's adapter; undefined when the run has none. */
  adapter: TargetAdapter | undefined;
  /** A client for another origin (presigned URLs of a storage service), created once and closed with the suite. */
  clientFor(origin: string): Client;
  /** The response checks' findings on every exchange `client` made (engine/judge.ts), taken by each test. */
  judged: JudgedCells;
  /** Tells the judging path the steps that led to the exchanges that follow (a scenario's, a command sequence's). */
  stepsFrom(steps: () => readonly string[]): void;
}

/** Most steps a failure message repeats (the latest ones). */
const MAX_STEPS = 12;

/**
 * Loads what the scenarios of one suite file share, and closes it after them. Must be awaited at
 * the top level of a `.suite.ts` file.
 * @throws HarnessError when the run context, the document or the adapter module cannot be read
 */
export async function statefulSuite(): Promise<StatefulSuite> {
  const run = statefulRunContext(readRunContext());
  const spec = await loadSpec(run.specFile);
  const judged = new JudgedCells(spec, selectedRoutedChecks(run), run.baseline ?? []);
  const failureRun = failureRunOf(run);
  let steps: () => readonly string[] = () => [];
  // Every step of every scenario and command goes through the one judging path.
  const client = judgingClient(createClient(run.target), judged, () => ({ ...failureRun, steps: steps().slice(-MAX_STEPS) }));
  const loaded = await loadAdapter(run.adapter, run.target);
  // What an adapter changes, the judging path does not see: pairs of exchanges must not straddle it.
  const adapter = loaded && afterEachCall(loaded, () => judged.forget());
  const others = new Map<string, Client>();
  afterAll(async () => {
    await client.close();
    for (const other of others.values()) await other.close();
    await adapter?.close?.();
    flushWork(run.timingsDir);
  });
  return {
    run,
    spec,
    target: run.target,
    client,
    adapter,
    judged,
    stepsFrom(getter) {
      steps = getter;
    },
    clientFor(origin) {
      if (origin === new URL(run.target.baseUrl).origin) return client;
      let other = others.get(origin);
      if (!other) {
        other = createClient({ ...run.target, baseUrl: origin, roles: {} });
        others.set(origin, other);
      }
      return other;
    },
  };
}

/** Whether the run selects a scenario (`--checks`, `--operations`). */
export function selected(run: RunContext, scenario: Scenario): boolean {
  return selectScenarios(run.checks, run.operations).includes(scenario);
}

/**
 * Why a scenario cannot run against this target, or undefined when it can (engine/stateful/runnable.ts):
 * not applicable to a document without the bundled API's rules or without its operation; skipped
 * for a read-only run, a missing adapter capability, role or fixture, or (for webhook scenarios) a
 * target that a receiver on this machine cannot be reached from.
 */
export function whyNot(suite: Pick<StatefulSuite, 'spec' | 'target' | 'adapter'>, scenario: Scenario): NotRunnable | undefined {
  return notRunnable(scenario, suite, documentOperationIds(suite.spec), 'scenario');
}

/**
 * The operationIds a document offers the scenarios: its paths' operations and its webhooks'
 * (OpenAPI 3.1 `webhooks`); on a document that opts in to the bundled API's rules, also each
 * bundled operationId whose route (method and path pattern, or webhook name) the document has
 * under another id (core/spec/load.ts `BUNDLED_ROUTES`).
 * @see https://spec.openapis.org/oas/v3.1.0#fixed-fields (webhooks)
 */
export function documentOperationIds(spec: LoadedSpec): Set<string> {
  const ids = new Set(spec.operations.map((o) => o.operationId));
  const routes = new Set(spec.operations.map((o) => routeKey(o.method, o.path)));
  const webhooks = (spec.document.webhooks ?? {}) as Record<string, Record<string, { operationId?: unknown }>>;
  for (const [name, item] of Object.entries(webhooks)) {
    routes.add(`WEBHOOK ${name}`);
    for (const operation of Object.values(item ?? {})) if (typeof operation?.operationId === 'string') ids.add(operation.operationId);
  }
  if (spec.apiRules) {
    for (const [id, route] of Object.entries(BUNDLED_ROUTES)) {
      const key = route.startsWith('WEBHOOK ') ? route : routeKey(route.split(' ')[0]!, route.slice(route.indexOf(' ') + 1));
      if (routes.has(key)) ids.add(id);
    }
  }
  return ids;
}

/** Stops a scenario at a precondition it cannot meet, as a skip with the reason, kind and fix. */
class ScenarioSkip extends Error {
  readonly skip: Skip;
  constructor(skip: Skip) {
    super(skip.reason);
    this.skip = skip;
  }
}
/** Stops a scenario after a failure that leaves nothing further to observe. */
class ScenarioStop extends Error {}


/**
 * One run of one scenario: sends requests, calls the adapter, and records what it saw. Failures
 * are data: `check`/`fail` record a finding bound to the exchange that shows it and go on;
 * `stop` records one and ends the scenario; `skip` ends it as skipped.
 */
export class ScenarioRun {
  readonly scenario: Scenario;
  readonly suite: StatefulSuite;
  readonly failures: Failure[] = [];
  readonly steps: string[] = [];
  readonly exchanges: Exchange[] = [];
  readonly #transitions = new Set<string>();
  readonly #secrets: SecretRef[];
  #n = 0;

  constructor(suite: StatefulSuite, scenario: Scenario) {
    this.suite = suite;
    this.scenario = scenario;
    this.#secrets = secretsOf(suite.target);
  }

  /** The target's fixtures. */
  get fixtures(): Record<string, string> {
    return this.suite.target.fixtures;
  }

  /** The edges recorded so far. */
  get transitions(): string[] {
    return [...this.#transitions];
  }

  /**
   * A capability of the adapter, bound, recording a step per call. The scenario declared it, so
   * the runner has checked that the adapter has it.
   */
  adapter<K extends AdapterCapability>(capability: K): NonNullable<TargetAdapter[K]> {
    const adapter = this.suite.adapter;
    const fn = adapter?.[capability];
    if (typeof fn !== 'function') throw new Error(`scenario ${this.scenario.id} uses capability ${capability} without declaring it`);
    return (async (...args: unknown[]) => {
      const result = await (fn as (...a: unknown[]) => Promise<unknown>).apply(adapter, args);
      this.steps.push(`adapter.${capability}(${args.map((a) => JSON.stringify(a)).join(', ').slice(0, 80)})`);
      return result;
    }) as NonNullable<TargetAdapter[K]>;
  }

  /** Hides a secret the scenario obtained (a session or access token, an invitation token) from reproducers, as `${NAME}`. */
  secret(value: string, name: string): void {
    if (value) this.#secrets.push({ value, env: name });
  }

  /** Sends a request of an operation of the document. */
  async send(operationId: string, request: ApiRequest = {}): Promise<Exchange> {
    const operation = this.suite.spec.operation(operationId);
    const testCase = apiCase(`${this.scenario.id}#${this.#n++}`, operationId, request);
    return this.#record(operation, await this.suite.client.send(operation, testCase));
  }

  /** Sends a request to a URL the target handed out (same origin or another), without credentials unless `headers` carry them. */
  async fetch(request: UrlRequest): Promise<Exchange> {
    const url = new URL(request.url);
    const operation = outsideOperation(request.method, `${url.pathname}${url.search}`);
    const testCase = urlCase(`${this.scenario.id}#${this.#n++}`, operation.operationId, request);
    return this.#record(operation, await this.suite.clientFor(url.origin).send(operation, testCase));
  }

  #record(operation: Operation, exchange: Exchange): Exchange {
    this.exchanges.push(exchange);
    this.steps.push(`${operation.method} ${new URL(exchange.request.url).pathname} → ${exchange.response ? exchange.response.status : (exchange.transportError?.code ?? 'no answer')}`);
    return exchange;
  }

  /** Records a state-machine edge the scenario saw happen (`machine`, `from`, `to` as the reference's tables name them). */
  transition(machine: string, from: string, to: string): void {
    const name = edge(machine, from, to);
    if (!KNOWN_EDGES.has(name)) throw new Error(`scenario ${this.scenario.id} records ${name}, which no transition table has`);
    this.#transitions.add(name);
  }

  /** Records a failure, bound to `exchange` (default the latest one). */
  fail(finding: Finding, exchange: Exchange | undefined = this.exchanges.at(-1)): void {
    const steps = this.steps.slice(-MAX_STEPS);
    // A multi-step failure: every request of the scenario up to the one that shows it, in order.
    const until = exchange ? this.exchanges.indexOf(exchange) : this.exchanges.length - 1;
    const scenario = this.scenario;
    this.failures.push(
      makeFailure(
        { checkId: scenario.id, severity: scenario.severity, rule: scenario.rule, operationId: scenario.operationId },
        finding,
        {
          ...(exchange ? { exchange } : {}),
          trail: this.exchanges.slice(0, until + 1),
          lines: stepLines(steps),
          withoutExchange: { request: { method: 'ADAPTER', url: `adapter:${this.suite.adapter?.name ?? 'none'}`, headers: {} }, curl: `# no single request shows this; the steps were: ${steps.join('; ')}` },
        },
        { ...failureRunOf(this.suite.run), secrets: this.#secrets },
      ),
    );
  }

  /** Records a failure unless `condition` holds. @returns `condition` */
  check(condition: boolean, finding: Finding, exchange?: Exchange): boolean {
    if (!condition) this.fail(finding, exchange);
    return condition;
  }

  /** Records a failure and ends the scenario: nothing after it can be observed. */
  stop(finding: Finding, exchange?: Exchange): never {
    this.fail(finding, exchange);
    throw new ScenarioStop(finding.title);
  }

  /** Ends the scenario as skipped: a precondition of the target is not met (the reason says which; the target lacks a fixture it can use). */
  skip(reason: string, fix = 'give the target the records this scenario starts from (see docs/stateful.md)'): never {
    throw new ScenarioSkip({ reason, kind: 'fixture', fix });
  }

  /**
   * Requires a 2xx answer to a step the scenario builds on; a refusal or no answer ends it with a
   * failure `kind` that names the step.
   * @returns the response's JSON object (empty when the body is not one)
   */
  require(exchange: Exchange, step: string): Record<string, unknown> {
    if (succeeded(exchange)) return bodyOf(exchange) ?? {};
    return this.stop({ kind: 'step_refused', title: 'A step of the scenario was refused', message: `${step} answered ${answerText(exchange)}; the scenario cannot go on.`, expected: '2xx', actual: statusOf(exchange) ?? exchange.transportError?.code });
  }

  /** The cell of this run (a cell that did not run carries no failures nor observations). */
  cell(status: CellMeta['status'], why?: string | Skip): CellMeta {
    const ran = status !== 'skipped' && status !== 'not_applicable';
    const skip = typeof why === 'string' ? { skipReason: why } : why ? { skipReason: why.reason, skipKind: why.kind, fix: why.fix } : {};
    const own = this.exchanges.filter((e) => e.operationId === this.scenario.operationId);
    const statuses = [...new Set(own.flatMap((e) => (e.response ? [e.response.status] : [])))].sort((a, b) => a - b);
    const parameters = [...new Set(own.flatMap((e) => [...Object.keys(e.case.query).map((n) => `query:${n.replace(/\[.*$/, '')}`), ...Object.keys(e.case.pathParams).map((n) => `path:${n}`)]))].sort();
    return {
      operationId: this.scenario.operationId,
      checkId: this.scenario.id,
      status,
      ...skip,
      cases: ran ? 1 : 0,
      failures: ran ? this.failures : [],
      ...(ran ? { observed: { statuses, parameters }, transitions: this.transitions } : {}),
    };
  }
}

/**
 * Runs one scenario body and turns what happened into its cell. Adapter errors and harness bugs
 * propagate (a harness error, never a failure of the target).
 */
export async function runScenario(suite: StatefulSuite, scenario: Scenario, body: (s: ScenarioRun) => Promise<void>): Promise<CellMeta> {
  const run = new ScenarioRun(suite, scenario);
  suite.stepsFrom(() => run.steps);
  const not = whyNot(suite, scenario);
  if (not?.status === 'not_applicable') return run.cell('not_applicable', not.reason);
  if (not) return run.cell('skipped', not.skip);
  let skipped: Skip | undefined;
  try {
    await body(run);
  } catch (error) {
    if (error instanceof ScenarioSkip) skipped = error.skip;
    else if (!(error instanceof ScenarioStop)) throw error;
  }
  // A verdict needs an answer: a step the target did not answer fails the scenario, whatever it asserted of it.
  const silent = run.exchanges.find((exchange) => !exchange.response);
  if (silent) run.fail(noAnswerFinding(silent)!, silent);
  // A failure seen before a precondition gave out still fails the cell.
  if (skipped !== undefined && run.failures.length === 0) return run.cell('skipped', skipped);
  return run.cell(run.failures.length > 0 ? 'failed' : 'passed');
}

/**
 * Declares the test of a scenario (in a `describe` named after its operation), unless the run
 * does not select it.
 * @param id a scenario id of engine/stateful/registry.ts
 * @param body what the scenario does, with its {@link ScenarioRun}
 */
export function defineScenario(suite: StatefulSuite, id: string, body: (s: ScenarioRun) => Promise<void>): void {
  const scenario = scenarioOf(id);
  if (!selected(suite.run, scenario)) return;
  describe(scenario.operationId, () => {
    test(scenario.id, async (context) => {
      const cell = await runScenario(suite, scenario, body);
      settle(context, cell, suite.judged.take());
    });
  });
}

/** Milliseconds from one ISO 8601 date-time to another, or undefined when either is not one. */
export function millisBetween(from: unknown, to: unknown): number | undefined {
  if (typeof from !== 'string' || typeof to !== 'string') return undefined;
  const a = Date.parse(from);
  const b = Date.parse(to);
  return Number.isNaN(a) || Number.isNaN(b) ? undefined : b - a;
}

/**
 * One observation shared by the scenarios of a suite file: made by whichever scenario asks first
 * (its steps are that scenario's own), and given to the others with its steps added to theirs,
 * so that every scenario's reproducer lists the steps that made what it judges.
 * @param observe makes the observation through the first scenario's run; its `steps` are the steps it took
 * @returns a function each scenario calls with its run
 */
export function sharedObservation<O extends { steps: readonly string[] }>(observe: (s: ScenarioRun) => Promise<O>): (s: ScenarioRun) => Promise<O> {
  let observation: Promise<O> | undefined;
  return async (s) => {
    const first = observation === undefined;
    observation ??= observe(s);
    const result = await observation;
    if (!first) s.steps.push(...result.steps);
    return result;
  };
}
