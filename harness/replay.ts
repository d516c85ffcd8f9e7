/**
 * `conformance replay REPORT.json`: sends the failed cases of a JSON report again, to the same
 * target or another one, and re-runs their checks, so that a developer can see a fix land
 * without a whole run.
 * @see design.md, Command line
 */
import { readFile } from 'node:fs/promises';
import { CHECKS } from '../checks/index.js';
import { API_VERSIONS, loadSpec, specPath, type ApiVersion } from '../spec/load.js';
import { gatherEvidence } from './cell.js';
import { createClient } from './client.js';
import { probeTarget, readConfigFile, resolveRemoteTarget } from './config.js';
import { HarnessError } from './errors.js';
import type { Failure, Finding } from './types.js';

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
  /** Where credentials are read from; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  out?: NodeJS.WritableStream;
}

/** The outcome of replaying one failure. */
export interface ReplayedFailure {
  checkId: string;
  operationId: string;
  kind: string;
  caseId: string;
  /** Whether the check still finds something on the replayed case. */
  stillFailing: boolean;
  findings: Finding[];
}

/** What a replay ends with: exit 1 when any failure still fails, 0 when all are fixed. */
export interface ReplayOutcome {
  exitCode: 0 | 1;
  replayed: ReplayedFailure[];
}

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
  const config = options.config ? await readConfigFile(options.config) : undefined;
  const target = resolveRemoteTarget({
    url: options.target ?? report.target,
    ...(config ? { config } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
  try {
    await probeTarget(target);
  } catch (error) {
    if (error instanceof HarnessError && !options.target) {
      throw new HarnessError(error.code, `${error.message}; the report's target may have been the embedded reference, which stops with its run: pass --target URL`, { cause: error });
    }
    throw error;
  }
  const client = createClient(target);
  const out = options.out ?? process.stdout;
  const replayed: ReplayedFailure[] = [];
  try {
    for (const failure of report.cells.flatMap((cell) => cell.failures ?? [])) {
      const check = CHECKS.find((c) => c.id === failure.checkId);
      if (check?.needs === 'burst') {
        out.write(`– not replayed     ${failure.checkId} on ${failure.operationId}: a rate-limit burst; run \`conformance run --checks ${failure.checkId}\` (with --rate-limit-check for a remote target)\n`);
        continue;
      }
      if (!check) {
        // A stateful scenario is a sequence of steps, not one case: it is replayed by running it again.
        out.write(`– not replayed     ${failure.checkId} on ${failure.operationId}: a stateful scenario; run \`conformance run --checks ${failure.checkId} --seed ${failure.reproduce.seed}\`\n`);
        continue;
      }
      const operation = spec.operation(failure.operationId);
      const ctx = { spec, operation };
      const { exchange, history } = await gatherEvidence(client, operation, check, failure.case);
      const findings = check.run(ctx, exchange, history);
      const result: ReplayedFailure = {
        checkId: failure.checkId,
        operationId: failure.operationId,
        kind: failure.kind,
        caseId: failure.caseId,
        stillFailing: findings.length > 0,
        findings,
      };
      replayed.push(result);
      out.write(`${result.stillFailing ? '✗ still failing' : '✓ fixed         '}  ${failure.checkId} on ${failure.operationId} (${failure.kind}, ${failure.caseId})\n`);
      if (result.stillFailing) for (const f of findings) out.write(`    ${f.title}: ${f.message}\n`);
    }
  } finally {
    await client.close();
  }
  const still = replayed.filter((r) => r.stillFailing).length;
  out.write(`replay: ${still} still failing, ${replayed.length - still} fixed (${target.baseUrl})\n`);
  return { exitCode: still > 0 ? 1 : 0, replayed };
}
