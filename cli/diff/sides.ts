/**
 * The two sides of a diff: the target (its client judged by the response checks, clients for other
 * origins, its adapter, reset through the control API of a reference served by `conformance
 * serve`) and the embedded reference (its own roles and fixtures, reset in-process).
 * @see docs/usage.md (Differential testing against the reference); docs/decisions.md (Harness: "One judging path for every exchange")
 */
import { answerText, type CommandEnv } from '../../engine/stateful/real.js';
import type { RunningReference } from '../../server/index.js';
import type { LoadedSpec } from '../../core/spec/load.js';
import { AdapterError, outsideOperation, type TargetAdapter } from '../../core/adapter.js';
import { guardAdapter } from '../../engine/adapters/load.js';
import { createReferenceAdapter } from '../../engine/adapters/reference.js';
import type { RunBreaker } from '../../core/breaker.js';
import { createClient, type Client } from '../../engine/client.js';
import { secretsOf } from '../../core/curl.js';
import { judgingClient, type JudgedCells } from '../../engine/judge.js';
import { defaultTokenEnv } from '../../core/target.js';
import type { Target } from '../../core/target.js';
import type { Role } from '../../core/types.js';

/** Both sides' models and reals in one sequence. */
export interface Pair<T> {
  target: T;
  reference: T;
}

/** One side of the comparison: a target, its clients and adapter, and how to give it fresh state. */
export interface Side {
  env: CommandEnv;
  /** Restores fresh state before a sequence; undefined when the side cannot be reset. */
  reset: (() => Promise<void>) | undefined;
  /** Requests so far that got no answer. */
  unanswered(): number;
  close(): Promise<void>;
}

/** A side's env over a target: its client, clients for other origins, its adapter. */
export function sideEnv(spec: LoadedSpec, target: Target, adapter: TargetAdapter | undefined, seed: number, judged?: JudgedCells, breaker?: RunBreaker): { env: CommandEnv; unanswered: () => number; close: () => Promise<void> } {
  const plain = createClient(target, breaker ? { breaker } : {});
  // The target's exchanges go through the one judging path; the reference is the oracle.
  const judging = judged ? judgingClient(plain, judged, () => ({ seed, secrets: secretsOf(target) })) : plain;
  let unanswered = 0;
  const client: Client = {
    async send(operation, testCase) {
      const exchange = await judging.send(operation, testCase);
      if (!exchange.response) unanswered++;
      return exchange;
    },
    close: () => judging.close(),
  };
  const others = new Map<string, Client>();
  const env: CommandEnv = {
    spec,
    target,
    client,
    adapter,
    seed,
    clientFor(origin) {
      if (origin === new URL(target.baseUrl).origin) return client;
      let other = others.get(origin);
      if (!other) {
        other = createClient({ ...target, baseUrl: origin, roles: {} });
        others.set(origin, other);
      }
      return other;
    },
  };
  return {
    env,
    unanswered: () => unanswered,
    async close() {
      await client.close();
      for (const other of others.values()) await other.close();
      await adapter?.close?.();
    },
  };
}

/** The embedded reference's side: its own roles, fixtures and control functions, reset in-process. */
export function referenceSide(spec: LoadedSpec, running: RunningReference, seed: number, timeoutMs: number): Side {
  const roles: Target['roles'] = {};
  for (const [role, token] of Object.entries(running.credentials)) roles[role as Role] = { token, env: defaultTokenEnv(role as Role) };
  if (running.fixtures.oauth_client_secret) roles.oauth_client = { token: running.fixtures.oauth_client_secret, env: defaultTokenEnv('oauth_client') };
  const target: Target = { baseUrl: running.url, kind: 'embedded', roles, fixtures: running.fixtures, requestsPerSecond: null, timeoutMs, readOnly: false };
  const adapter = guardAdapter(createReferenceAdapter(target), 'reference adapter');
  const { env, unanswered, close } = sideEnv(spec, target, adapter, seed);
  return {
    env,
    async reset() {
      running.control.reset();
    },
    unanswered,
    close,
  };
}

/**
 * Resets a reference started with `conformance serve` through its control API and takes the
 * fixtures it answers (the ids of its demo data).
 * @throws AdapterError when the control API refuses
 */
export async function resetOverHttp(client: Client, target: Target): Promise<void> {
  const exchange = await client.send(outsideOperation('POST', '/__control/reset', 'control:reset'), { id: 'control:reset', operationId: 'control:reset', pathParams: {}, query: {}, headers: {}, role: null });
  const json = exchange.response?.json as { fixtures?: Record<string, string> } | undefined;
  if (exchange.response?.status !== 200 || typeof json?.fixtures !== 'object') {
    throw new AdapterError('reset', `the target's control API did not reset it: POST /__control/reset answered ${answerText(exchange)}`);
  }
  Object.assign(target.fixtures, json.fixtures);
}
