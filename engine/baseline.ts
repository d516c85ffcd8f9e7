/**
 * Baselines: deviations a team has accepted for now. A failure matching an entry is reported as
 * accepted and does not fail the run; every entry must say why.
 */
import { readFile } from 'node:fs/promises';
import { HarnessError } from '../core/errors.js';
import { problemsMessage, schemaProblems } from '../core/input-schema.js';
import { didYouMean } from '../core/suggest.js';
import type { Failure } from '../core/types.js';

/** One accepted deviation; `operationId` and `kind` narrow it, and absent match any. */
export interface BaselineEntry {
  checkId: string;
  operationId?: string;
  kind?: string;
  /** Why it is accepted (a ticket, a decision); shown in every report. */
  reason: string;
}

/** What {@link readBaseline} checks beyond the schema; absent lists are not checked. */
export interface BaselineCheckOptions {
  /** Every check id of the run (checks, stateful scenarios, model families). */
  checkIds?: readonly string[];
  /** Every operationId of the document (webhook operationIds included). */
  operationIds?: readonly string[];
}

/**
 * Checks a parsed baseline against core/schemas/baseline.schema.json, and its check ids and
 * operationIds against the known ones.
 * @returns every problem as one readable line (`accepted[2].checkId: unknown check "x"; did you mean "y"?`); empty when valid
 */
export function baselineProblems(parsed: unknown, options: BaselineCheckOptions = {}): string[] {
  const problems = schemaProblems('baseline.schema.json', parsed);
  const accepted = (parsed as { accepted?: unknown } | null)?.accepted;
  if (!Array.isArray(accepted)) return problems;
  accepted.forEach((entry: Partial<BaselineEntry> | null, i) => {
    if (options.checkIds && typeof entry?.checkId === 'string' && entry.checkId && !options.checkIds.includes(entry.checkId)) {
      problems.push(`accepted[${i}].checkId: unknown check "${entry.checkId}"${didYouMean(entry.checkId, options.checkIds)}`);
    }
    if (options.operationIds && typeof entry?.operationId === 'string' && entry.operationId && !options.operationIds.includes(entry.operationId)) {
      problems.push(`accepted[${i}].operationId: the document has no operation "${entry.operationId}"${didYouMean(entry.operationId, options.operationIds)}`);
    }
  });
  return problems;
}

/**
 * Reads a baseline file: `{ "accepted": [{ "checkId", "operationId"?, "kind"?, "reason" }] }`.
 * @throws HarnessError CNF_ERR_CONFIG_INVALID when it cannot be read or has problems (all of them, one per line)
 */
export async function readBaseline(file: string, options: BaselineCheckOptions = {}): Promise<BaselineEntry[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `cannot read baseline ${file}: ${(error as Error).message}`, { cause: error });
  }
  const problems = baselineProblems(parsed, options);
  if (problems.length) throw new HarnessError('CNF_ERR_CONFIG_INVALID', problemsMessage(`baseline ${file}`, problems));
  return (parsed as { accepted: BaselineEntry[] }).accepted.map((e) => ({
    checkId: e.checkId,
    reason: e.reason,
    ...(e.operationId ? { operationId: e.operationId } : {}),
    ...(e.kind ? { kind: e.kind } : {}),
  }));
}

/** The baseline entry that accepts a failure, or undefined. */
export function acceptedBy(failure: Pick<Failure, 'checkId' | 'operationId' | 'kind'>, baseline: readonly BaselineEntry[]): BaselineEntry | undefined {
  return baseline.find(
    (e) => e.checkId === failure.checkId && (!e.operationId || e.operationId === failure.operationId) && (!e.kind || e.kind === failure.kind),
  );
}
