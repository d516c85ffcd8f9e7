/**
 * Runs one cell of the operation x check matrix: a fast-check property over generated cases of
 * the operation, each sent to the target and judged by the check; a failing case is shrunk and
 * becomes a {@link Failure} with its reproducer.
 */
import fc from 'fast-check';
import type { LoadedSpec, Operation } from '../spec/load.js';
import { boundaryExamples, queryCaseArbitrary, type Harvest } from '../generators/query-case.js';
import { listBody } from '../checks/support.js';
import type { Client } from './client.js';
import { toCurl, type SecretRef } from './curl.js';
import type { Target } from './target.js';
import type { CellMeta, Check, Exchange, Failure, Finding, QueryValues, Role, TestCase } from './types.js';
import { HarnessError } from './errors.js';

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
}

const ROLE_OF_NEEDS: Record<Check['needs'], Role | null> = { exchange: 'admin', walk: 'admin', anonymous: null, no_scope: 'no_scope' };

/** The secrets of a target with the variable that holds each, for reproducers. */
export function secretsOf(target: Target): SecretRef[] {
  return Object.entries(target.roles).map(([role, cred]) => ({
    value: cred!.token,
    env: cred!.env ?? `CONFORMANCE_${role.toUpperCase()}_TOKEN`,
  }));
}

/** Why an operation cannot be called by the generic cases, or undefined when it can. */
export function notCallable(operation: Operation, target: Target): string | undefined {
  if (target.readOnly && !['GET', 'HEAD', 'OPTIONS'].includes(operation.method)) return 'read-only run: the operation may change state';
  if (operation.raw.requestBody) return 'request bodies are not generated yet';
  const missing = operation.parameters.filter((p) => p.required && p.in !== 'query' && !target.fixtures[p.name]);
  if (missing.length) return `needs fixture ${missing.map((p) => p.name).join(', ')}`;
  return undefined;
}

function testCase(operation: Operation, target: Target, query: QueryValues, role: Role | null, n: number): TestCase {
  const pathParams: Record<string, string> = {};
  for (const p of operation.parameters) if (p.in === 'path') pathParams[p.name] = target.fixtures[p.name] ?? '';
  return { id: `${operation.operationId}#${n}`, operationId: operation.operationId, pathParams, query, headers: {}, role };
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
  const role = ROLE_OF_NEEDS[check.needs];
  const skipReason =
    applies !== true ? applies : notCallable(operation, target) ?? (role && !target.roles[role] ? `needs role ${role}` : undefined);
  if (skipReason) return { ...cell, status: 'skipped', skipReason };

  const isWalk = check.needs === 'walk';
  const queries = queryCaseArbitrary(operation, { harvest: input.harvest, omit: isWalk ? ['page'] : [] });
  let n = 0;
  const evaluate = async (query: QueryValues): Promise<{ findings: Finding[]; exchange: Exchange }> => {
    const base = testCase(operation, target, query, role, n++);
    cell.cases++;
    if (isWalk) {
      const pages = await walk(client, operation, base);
      const last = pages[pages.length - 1]!;
      return { findings: check.run(ctx, last, pages.slice(0, -1)), exchange: last };
    }
    const exchange = await client.send(operation, base);
    return { findings: check.run(ctx, exchange, []), exchange };
  };

  const numRuns = isWalk ? Math.max(3, Math.round(input.runs / 10)) : input.runs;
  const examples = boundaryExamples(operation, { invalid: check.needs === 'exchange', page: !isWalk, ...(input.harvest ? { harvest: input.harvest } : {}) }).map((q) => [q] as [QueryValues]);
  const details = await fc.check(
    fc.asyncProperty(queries, async (query) => (await evaluate(query)).findings.length === 0),
    { seed: input.seed, numRuns: numRuns + examples.length, examples },
  );
  if (!details.failed) return cell;
  if (!details.counterexample) {
    throw new HarnessError('CNF_ERR_RUNNER', `check ${check.id} threw on ${operation.operationId}: ${String(details.errorInstance)}`, { cause: details.errorInstance });
  }
  const [query] = details.counterexample;
  const { findings, exchange } = await evaluate(query);
  const secrets = secretsOf(target);
  cell.status = 'failed';
  cell.failures = findings.map((finding): Failure => ({
    ...finding,
    checkId: check.id,
    severity: check.severity,
    rule: check.rule,
    operationId: operation.operationId,
    caseId: exchange.case.id,
    request: exchange.request,
    ...(exchange.response ? { response: exchange.response } : {}),
    reproduce: { curl: toCurl(exchange.request, secrets), seed: input.runSeed, path: details.counterexamplePath ?? undefined },
  }));
  return cell;
}
