/**
 * The real system of model-based testing: the target, reached over HTTP through the harness client
 * and, for the state changes no operation can make, through its adapter. A {@link Real} belongs to
 * one command sequence: it maps the model's labels (`o1`, `s2`) to the target's ids, keeps the
 * secrets the sequence obtained, and records every step, so that a failure can say which commands
 * led to it and the differential mode can compare two targets step by step.
 *
 * It judges in one of two modes: `assert` (the model-based suites: a step that disagrees with the
 * model throws a {@link ModelMismatch}, which fast-check then shrinks) or `observe` (`conformance
 * diff`: nothing is judged; a refusal of the adapter is recorded as an observation, since the other
 * target may not refuse).
 * @see https://fast-check.dev/docs/advanced/model-based-testing/; docs/usage.md (Differential testing against the reference)
 */
import { edge } from './transitions.js';
import { AdapterError, outsideOperation, type AdapterCapability, type TargetAdapter } from '../../core/adapter.js';
import { secretsOf } from '../../core/curl.js';
import type { Client } from '../client.js';
import type { SecretRef } from '../../core/curl.js';
import { apiCase, urlCase, type ApiRequest } from './request.js';
import type { Target } from '../../core/target.js';
import type { Exchange, Finding, UrlRequest } from '../../core/types.js';
import type { LoadedSpec } from '../../core/spec/load.js';

// The commands read answers as the stateful suites do.
export { answerText, bodyOf, eventually, refused, statusOf, succeeded } from '../../core/answers.js';

/** What the commands of a sequence need from the harness: the document, the target, its clients and adapter. */
export interface CommandEnv {
  spec: LoadedSpec;
  target: Target;
  /** The client of the target's origin. */
  client: Client;
  /** A client for another origin (a storage service's presigned URLs); `client` for the target's own. */
  clientFor(origin: string): Client;
  /** The target's adapter; undefined when the run has none. */
  adapter: TargetAdapter | undefined;
  /** The run's seed: content the commands make (file bytes, names) is derived from it. */
  seed: number;
}


/** One thing a step did and saw: an exchange with the target, or a call of its adapter. */
export interface Observation {
  /** `POST /v1/customer-seats/claim`, `adapter.createOrder`, `read back: GET /v1/files/`. */
  what: string;
  exchange?: Exchange;
  /** An adapter call: its answer, or the refusal (observe mode only). */
  adapter?: { capability: string; result?: unknown; refused?: string };
  /** A value the command derived (event counts, an id that is missing), compared as it is. */
  value?: unknown;
}

/** One command as it ran: its readable form (`claimSeat(s1)[reused]`) and what it observed. */
export interface Step {
  command: string;
  observations: Observation[];
}

/** A finding of the model-based suites, with the rule of spec/rules.yaml it breaks. */
export interface ModelFinding extends Finding {
  rule: string;
}

/**
 * A step disagreed with the model (assert mode): the target is wrong, not the harness. Carries the
 * finding and the exchange that shows it; fast-check shrinks the sequence that led to it.
 */
export class ModelMismatch extends Error {
  readonly finding: ModelFinding;
  readonly exchange: Exchange | undefined;
  constructor(finding: ModelFinding, exchange: Exchange | undefined) {
    super(`${finding.title}: ${finding.message}`);
    this.name = 'ModelMismatch';
    this.finding = finding;
    this.exchange = exchange;
  }
}

/** `assert`: a disagreement with the model throws; `observe`: steps are only recorded. */
export type RealMode = 'assert' | 'observe';

/** The real system of one command sequence. */
export class Real {
  readonly env: CommandEnv;
  readonly mode: RealMode;
  /** The steps so far, oldest first. */
  readonly steps: Step[] = [];
  /** Target ids by model label (`o1` → the order's id). */
  readonly ids = new Map<string, string>();
  /** What a command kept for later ones, by label (an invitation token, upload parts). */
  readonly data = new Map<string, unknown>();
  /** State-machine edges the target was seen to take (`seat: pending→claimed`). */
  readonly transitions = new Set<string>();
  readonly #secrets: SecretRef[];
  #n = 0;

  constructor(env: CommandEnv, mode: RealMode) {
    this.env = env;
    this.mode = mode;
    this.#secrets = secretsOf(env.target);
  }

  /** The secrets reproducers hide: the target's and those the sequence obtained. */
  get secrets(): readonly SecretRef[] {
    return this.#secrets;
  }

  /** Starts the step of a command; what follows is recorded in it. */
  begin(command: string): void {
    this.steps.push({ command, observations: [] });
  }

  /** The current step (one is begun for requests made before any command: a family's set-up). */
  get step(): Step {
    if (this.steps.length === 0) this.begin('setup');
    return this.steps.at(-1)!;
  }

  /** Hides a secret the sequence obtained (a session or invitation token) from reproducers, as `${NAME}`. */
  secret(value: string, name: string): void {
    if (value) this.#secrets.push({ value, env: name });
  }

  /** Sends a request of an operation of the document and records it. */
  async send(operationId: string, request: ApiRequest = {}, what?: string): Promise<Exchange> {
    const operation = this.env.spec.operation(operationId);
    const testCase = apiCase(`model#${this.#n++}`, operationId, request);
    return this.#record(await this.env.client.send(operation, testCase), what ?? `${operation.method} ${operation.path}`);
  }

  /** Sends a request to a URL the target handed out (same origin or another) and records it. */
  async fetch(request: UrlRequest, what?: string): Promise<Exchange> {
    const url = new URL(request.url);
    const operation = outsideOperation(request.method, `${url.pathname}${url.search}`);
    const testCase = urlCase(`model#${this.#n++}`, operation.operationId, request);
    // The URL itself differs between targets (host, ids, signature), so it does not name the observation.
    return this.#record(await this.env.clientFor(url.origin).send(operation, testCase), what ?? `${operation.method} (a URL the target handed out)`);
  }

  #record(exchange: Exchange, what: string): Exchange {
    this.step.observations.push({ what, exchange });
    return exchange;
  }

  /** Whether the adapter says the target's event log is current once a write has been answered (`TargetAdapter.eventsAtOnce`). */
  get eventsAtOnce(): boolean {
    return this.env.adapter?.eventsAtOnce === true;
  }

  /** Whether the adapter has a capability. */
  can(capability: AdapterCapability): boolean {
    return typeof this.env.adapter?.[capability] === 'function';
  }

  /**
   * Calls an adapter capability and records the call. In assert mode a refusal propagates (an
   * {@link AdapterError}: the sequence cannot set up its state, a harness error); in observe mode
   * it is recorded and answered undefined.
   * @throws AdapterError in assert mode; Error when the adapter lacks the capability (a family that did not declare it)
   */
  async adapterCall<K extends AdapterCapability>(capability: K, ...args: Parameters<NonNullable<TargetAdapter[K]>>): Promise<Awaited<ReturnType<NonNullable<TargetAdapter[K]>>> | undefined> {
    const fn = this.env.adapter?.[capability] as ((...a: unknown[]) => Promise<unknown>) | undefined;
    if (typeof fn !== 'function') throw new Error(`the adapter has no capability ${capability}`);
    const observation: Observation = { what: `adapter.${capability}`, adapter: { capability } };
    this.step.observations.push(observation);
    try {
      const result = await fn.apply(this.env.adapter, args);
      observation.adapter!.result = result;
      return result as Awaited<ReturnType<NonNullable<TargetAdapter[K]>>>;
    } catch (error) {
      if (this.mode === 'assert' || !(error instanceof AdapterError)) throw error;
      observation.adapter!.refused = error.message;
      return undefined;
    }
  }

  /**
   * Calls an adapter capability without recording its answer (a read whose raw answer is too large
   * to compare, such as the whole event log); the command records what it derives with {@link note}.
   * Refusals are handled as in {@link adapterCall}.
   */
  async adapterRead<K extends AdapterCapability>(capability: K, ...args: Parameters<NonNullable<TargetAdapter[K]>>): Promise<Awaited<ReturnType<NonNullable<TargetAdapter[K]>>> | undefined> {
    const fn = this.env.adapter?.[capability] as ((...a: unknown[]) => Promise<unknown>) | undefined;
    if (typeof fn !== 'function') throw new Error(`the adapter has no capability ${capability}`);
    try {
      return (await fn.apply(this.env.adapter, args)) as Awaited<ReturnType<NonNullable<TargetAdapter[K]>>>;
    } catch (error) {
      if (this.mode === 'assert' || !(error instanceof AdapterError)) throw error;
      this.note(`adapter.${capability} refused`, error.message);
      return undefined;
    }
  }

  /** Records a value the command derived, as an observation of the current step. */
  note(what: string, value: unknown): void {
    this.step.observations.push({ what, value });
  }

  /**
   * The target's id of a model label; undefined (and noted) when the command that made it got none
   * (observe mode: the adapter refused).
   */
  idOf(label: string): string | undefined {
    const id = this.ids.get(label);
    if (id === undefined) this.note(`no id for ${label}`, null);
    return id;
  }

  /**
   * Judges a step against the model: in assert mode a false `condition` throws a
   * {@link ModelMismatch} with the finding; in observe mode nothing is judged.
   * @param exchange the exchange that shows it; default the latest of the step
   * @returns `condition`, so that a command can stop building on a step that went wrong
   */
  expect(condition: boolean, finding: ModelFinding, exchange?: Exchange): boolean {
    if (condition || this.mode === 'observe') return condition;
    throw new ModelMismatch(finding, exchange ?? [...this.step.observations].reverse().find((o) => o.exchange)?.exchange);
  }

  /** Records a state-machine edge the target was seen to take (`machine`, `from`, `to` as the transition tables name them). */
  transition(machine: string, from: string, to: string): void {
    this.transitions.add(edge(machine, from, to));
  }
}

/** `a → b → c`: the readable command list of steps (the set-up and tear-down steps left out). */
export function commandList(steps: readonly Step[]): string {
  return steps.filter((s) => s.command !== 'setup' && s.command !== 'teardown').map((s) => s.command).join(' → ');
}
