/**
 * `conformance replay REPORT.json`: sends the failed cases of a JSON report again, to the same
 * target or another one, and re-runs their checks, so that a developer can see a fix land
 * without a whole run.
 * @see docs/design.md (Command line); docs/decisions.md (Harness: "Replay rebuilds the case, not the curl line")
 */
import { readFile } from 'node:fs/promises';
import { CHECKS } from '../checks/index.js';
import { SCENARIO_IDS } from '../engine/stateful/registry.js';
import { MODEL_CHECK_IDS } from '../engine/stateful/registry.js';
import { API_VERSIONS, loadSpec, specPath, type ApiVersion, type Operation } from '../core/spec/load.js';
import { gatherEvidence } from '../engine/cell/evidence.js';
import { createRunBreaker, DEFAULT_UNRESPONSIVE_AFTER } from '../core/breaker.js';
import { createClient, documentHeaders } from '../engine/client.js';
import type { Client } from '../engine/client.js';
import { probeTarget, readConfigFile, resolveRemoteTarget } from './config.js';
import { defaultTokenEnv } from '../core/target.js';
import { HarnessError } from '../core/errors.js';
import { knownFixtureNames } from '../engine/fixture-names.js';
import { replayCommand } from '../core/reproducer.js';
import { fixtureName, SAFE_METHODS } from '../core/operation-needs.js';
import type { Target } from '../core/target.js';
import type { Check, CheckNeeds, Exchange, Failure, Finding, Role, TestCase } from '../core/types.js';

/** Options of {@link replayReport}. */
export interface ReplayOptions {
  /** Path of a `report.json` written by the json reporter. */
  report: string;
  /** Base URL to replay against; default the report's target. */
  target?: string;
  config?: string;
  /** OpenAPI document; default the bundled one of the report's spec version. */
  spec?: string;
  timeoutMs?: number;
  /** Requests per second to the target, 0 no pacing (`--rate`); default the config's `requestsPerSecond`, else 80, as `conformance run`. */
  rate?: number;
  /**
   * Consecutive requests without an answer after which the target is declared unresponsive and
   * the failures left are not asked again (core/breaker.ts); default 5, 0 never.
   */
  unresponsiveAfter?: number;
  /** Where credentials are read from; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  out?: NodeJS.WritableStream;
}

/**
 * How a replayed failure came out: `still_failing` (the check finds the same kind again),
 * `failing_differently` (it finds something of another kind, or the target answered with a server
 * error or not at all, which `not_a_server_error` finds), `fixed` (it finds nothing on an answer
 * that says something about the API), `not_replayable` (the replay could not put the
 * question again: a role the case needs has no token, the target refused the credentials, or the
 * resource the case names does not exist there). A 401 or 404 the replay caused itself is never `fixed`.
 */
export type ReplayVerdict = 'still_failing' | 'failing_differently' | 'fixed' | 'not_replayable';

/** The outcome of replaying one failure. */
export interface ReplayedFailure {
  checkId: string;
  operationId: string;
  kind: string;
  caseId: string;
  verdict: ReplayVerdict;
  /** `not_replayable`: why, and what to do (`role admin has no token: export CONFORMANCE_ADMIN_TOKEN=…`). */
  reason?: string;
  /** Whether the check still finds something on the replayed case (`still_failing` or `failing_differently`). */
  stillFailing: boolean;
  findings: Finding[];
}

/**
 * What a replay ends with: exit 1 when any failure still fails (the same kind or another), else 2
 * when any could not be replayed (nothing shown either way), else 0 (every one fixed).
 */
export interface ReplayOutcome {
  exitCode: 0 | 1 | 2;
  replayed: ReplayedFailure[];
}

/** Evidence sent with the credentials of a real role, so that a 401 or 403 means the token, not the API, is at fault. */
const CREDENTIALED_NEEDS: ReadonlySet<CheckNeeds> = new Set(['exchange', 'walk', 'defaults', 'roles', 'not_found', 'negative', 'other_org']);
/** Evidence whose case uses the target's fixtures in its path (engine/cell/cases.ts `testCase`). */
const PROBING_NEEDS: ReadonlySet<CheckNeeds> = new Set(['anonymous', 'invalid_credentials', 'no_scope', 'reader', 'negative']);

/** The roles a replayed case sends credentials of: the case's own, every role of a `roles` check. */
/** Evidence that, on an operation that changes state, is sent on a fixture made for the case (engine/cell/evidence.ts `sendWriteCases`). */
const WRITE_FIXTURE_NEEDS: ReadonlySet<Check['needs']> = new Set(['exchange', 'roles', 'other_org', 'reader', 'anonymous', 'invalid_credentials', 'no_scope']);

function rolesOfCase(check: Check, testCase: TestCase): Role[] {
  if (check.needs === 'roles') return [...(check.roles ?? [])];
  return testCase.role ? [testCase.role] : [];
}

/**
 * The case with the target's fixtures in its path, as the run would have built it against this
 * target: only parameters that took a fixture in the run (valid requests; probes of safe methods),
 * never a path value a negative case made invalid.
 */
export function withTargetFixtures(testCase: TestCase, operation: Operation, check: Check, target: Target): TestCase {
  const usesFixtures = check.needs !== 'not_found' && (!PROBING_NEEDS.has(check.needs) || SAFE_METHODS.has(operation.method));
  if (!usesFixtures) return testCase;
  const pathParams = { ...testCase.pathParams };
  for (const param of operation.parameters) {
    if (param.in !== 'path' || (testCase.negative?.location === 'path' && testCase.negative.parameter === param.name)) continue;
    const value = target.fixtures[fixtureName(operation, param)];
    if (value) pathParams[param.name] = value;
  }
  return { ...testCase, pathParams };
}

/**
 * Why the replayed answers cannot judge the failure, or undefined when they can: a 401 (or a 403
 * on evidence sent with full credentials) the run did not get means the target refused the token;
 * a 404 the run did not get, on a case that names a resource, means the resource is gone (for
 * `other_org` evidence, whose 404 is the right answer, when the owner's `admin` token gets a 404 too).
 */
async function unjudgeable(client: Client, operation: Operation, check: Check, failure: Failure, testCase: TestCase, exchanges: readonly Exchange[], target: Target): Promise<string | undefined> {
  const before = failure.response?.status;
  for (const exchange of exchanges) {
    const status = exchange.response?.status;
    const role = exchange.case.role ?? 'none';
    if (status === 401 && before !== 401 && check.needs !== 'anonymous' && check.needs !== 'invalid_credentials') {
      return `the target refused the token of role ${role} (401): is ${target.roles[role as Role]?.env ?? 'its variable'} a token of this target?`;
    }
    if (status === 403 && before !== 403 && CREDENTIALED_NEEDS.has(check.needs)) {
      return `the target refused role ${role} (403): does ${target.roles[role as Role]?.env ?? 'its token'} carry every scope?`;
    }
  }
  const namesResource = operation.parameters.some((p) => p.in === 'path');
  const first = exchanges[0]?.response?.status;
  if (first !== 404 || before === 404 || !namesResource || check.needs === 'not_found') return undefined;
  const ids = Object.values(testCase.pathParams).join(', ');
  if (check.needs !== 'other_org') return `the resource is gone: ${ids} does not exist on ${target.baseUrl} (404); name existing ones with "fixtures" in --config`;
  if (!SAFE_METHODS.has(operation.method) || !target.roles.admin) return `cannot tell a refusal from a missing resource: ${ids} (404), and no admin token to ask its owner`;
  const owner = await client.send(operation, { ...testCase, id: `${testCase.id}/owner`, role: 'admin' });
  if (owner.response?.status === 404) return `the resource is gone: ${ids} does not exist on ${target.baseUrl} for its owner either (404); name existing ones with "fixtures" in --config`;
  return undefined;
}

const LABEL: Record<ReplayVerdict, string> = {
  still_failing: '✗ still failing   ',
  failing_differently: '✗ failing differently',
  fixed: '✓ fixed           ',
  not_replayable: '? not replayable  ',
};

interface ReportShape {
  target: string;
  specVersion?: string;
  cells: { failures?: Failure[] }[];
}

async function readReport(file: string): Promise<ReportShape> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `cannot read report ${file}: ${(error as Error).message}`, { cause: error });
  }
  const report = parsed as Partial<ReportShape>;
  if (!report || typeof report.target !== 'string' || !Array.isArray(report.cells)) {
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `${file} is not a report.json of \`conformance run --reporter json\``);
  }
  return report as ReportShape;
}

/**
 * Replays every failure of a report.
 * @throws HarnessError for an unreadable report or config, an unreachable target or an invalid document
 */
export async function replayReport(options: ReplayOptions): Promise<ReplayOutcome> {
  const report = await readReport(options.report);
  const version = API_VERSIONS.find((v) => v === report.specVersion) as ApiVersion | undefined;
  const spec = await loadSpec(options.spec ?? specPath(version));
  const config = options.config ? await readConfigFile(options.config, { fixtureNames: knownFixtureNames(spec) }) : undefined;
  const configuredEnv: Partial<Record<Role, string>> = Object.fromEntries(Object.entries(config?.roles ?? {}).map(([role, r]) => [role, r.tokenEnv]));
  const target = resolveRemoteTarget({
    url: options.target ?? report.target,
    ...(config ? { config } : {}),
    ...(options.rate !== undefined ? { rate: options.rate } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
  target.headers = documentHeaders(spec);
  try {
    await probeTarget(target);
  } catch (error) {
    if (error instanceof HarnessError && !options.target) {
      throw new HarnessError(error.code, `${error.message}; the report's target may have been the embedded reference, which stops with its run: pass --target URL`, { cause: error });
    }
    throw error;
  }
  // A target that stops answering makes the replay fail fast, as a run does, rather than wait a timeout per failure.
  const breaker = createRunBreaker({ after: options.unresponsiveAfter ?? DEFAULT_UNRESPONSIVE_AFTER, timeoutMs: target.timeoutMs });
  const client = createClient(target, { breaker });
  const out = options.out ?? process.stdout;
  const replayed: ReplayedFailure[] = [];
  try {
    for (const failure of report.cells.flatMap((cell) => cell.failures ?? [])) {
      const check = CHECKS.find((c) => c.id === failure.checkId);
      // Against this replay's target, with its config: the line works as printed.
      const rerun = replayCommand(failure, { kind: 'remote', runBaseUrl: target.baseUrl, seed: failure.reproduce.seed, ...(options.config ? { config: options.config } : {}), ...(options.spec ? { spec: options.spec } : {}), pathChecks: MODEL_CHECK_IDS });
      if (check?.needs === 'burst') {
        out.write(`– not replayed     ${failure.checkId} on ${failure.operationId}: a rate-limit burst; run \`${rerun} --rate-limit-check\`\n`);
        continue;
      }
      if (!check) {
        // A stateful scenario is a sequence of steps, not one case: it is replayed by running it again.
        const adapter = failure.checkId.startsWith('model_') || SCENARIO_IDS.includes(failure.checkId) ? ' --adapter FILE (or reference for a served reference)' : '';
        out.write(`– not replayed     ${failure.checkId} on ${failure.operationId}: a stateful scenario; run \`${rerun}\`${adapter}\n`);
        continue;
      }
      const operation = spec.operation(failure.operationId);
      const base = { checkId: failure.checkId, operationId: failure.operationId, kind: failure.kind, caseId: failure.caseId };
      const record = (result: ReplayedFailure): void => {
        replayed.push(result);
        out.write(`${LABEL[result.verdict]}  ${failure.checkId} on ${failure.operationId} (${failure.kind}, ${failure.caseId})\n`);
        if (result.reason) out.write(`    ${result.reason}\n`);
        for (const f of result.findings) out.write(`    ${f.title}: ${f.message}\n`);
      };
      const missing = rolesOfCase(check, failure.case).filter((role) => !target.roles[role]);
      if (missing.length) {
        const fix = missing.map((role) => `export ${configuredEnv[role] ?? defaultTokenEnv(role)}=…`).join('; ');
        record({ ...base, verdict: 'not_replayable', reason: `missing role ${missing.join(', ')}: ${fix}`, stillFailing: false, findings: [] });
        continue;
      }
      // A write's case wrote on a fixture the run made for it (engine/write-cases.ts): the replay
      // cannot make it again, and re-sending the write would change whatever now has that id.
      if (!SAFE_METHODS.has(operation.method) && WRITE_FIXTURE_NEEDS.has(check.needs)) {
        const line = failure.reproduce.replay ? `: ${failure.reproduce.replay}` : '';
        record({ ...base, verdict: 'not_replayable', reason: `the case wrote on a fixture the run made for it (${Object.values(failure.case.pathParams).join(', ') || 'its body'}); run its cell again instead${line}`, stillFailing: false, findings: [] });
        continue;
      }
      const testCase = withTargetFixtures(failure.case, operation, check, target);
      const { exchange, history } = await gatherEvidence(client, operation, check, testCase);
      const reason = await unjudgeable(client, operation, check, failure, testCase, [...history, exchange], target);
      if (reason) {
        record({ ...base, verdict: 'not_replayable', reason, stillFailing: false, findings: [] });
        continue;
      }
      let findings = check.run({ spec, operation }, exchange, history);
      // An answer that is no answer (a 5xx, a reset, a timeout) leaves most checks nothing to judge;
      // the run's not_a_server_error would fail it, so the replay does not call it fixed either.
      const serverError = CHECKS.find((c) => c.id === 'not_a_server_error');
      if (findings.length === 0 && serverError && check.id !== serverError.id) {
        findings = [...history, exchange].flatMap((e) => serverError.run({ spec, operation }, e, [])).slice(0, 1);
      }
      const verdict: ReplayVerdict = findings.length === 0 ? 'fixed' : findings.some((f) => f.kind === failure.kind) ? 'still_failing' : 'failing_differently';
      record({ ...base, verdict, stillFailing: findings.length > 0, findings });
    }
  } finally {
    await client.close();
    breaker.close();
  }
  const unresponsive = breaker.unresponsiveReason();
  if (unresponsive) out.write(`replay: the target was declared unresponsive (${unresponsive}); the failures after that were not sent again\n`);
  const count = (verdict: ReplayVerdict) => replayed.filter((r) => r.verdict === verdict).length;
  const still = count('still_failing') + count('failing_differently');
  const unreplayable = count('not_replayable');
  out.write(`replay: ${count('still_failing')} still failing, ${count('failing_differently')} failing differently, ${count('fixed')} fixed, ${unreplayable} not replayable (${target.baseUrl})\n`);
  return { exitCode: still > 0 ? 1 : unreplayable > 0 ? 2 : 0, replayed };
}
