/**
 * Baselines: deviations a team has accepted for now. A failure matching an entry is reported as
 * accepted and does not fail the run; every entry must say why.
 */
import { readFile } from 'node:fs/promises';
import { HarnessError } from './errors.js';
import type { Failure } from './types.js';

/** One accepted deviation; `operationId` and `kind` narrow it, and absent match any. */
export interface BaselineEntry {
  checkId: string;
  operationId?: string;
  kind?: string;
  /** Why it is accepted (a ticket, a decision); shown in every report. */
  reason: string;
}

/**
 * Reads a baseline file: `{ "accepted": [{ "checkId", "operationId"?, "kind"?, "reason" }] }`.
 * @throws HarnessError CNF_ERR_CONFIG_INVALID when it cannot be read or an entry is malformed
 */
export async function readBaseline(file: string): Promise<BaselineEntry[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `cannot read baseline ${file}: ${(error as Error).message}`, { cause: error });
  }
  const accepted = (parsed as { accepted?: unknown })?.accepted;
  if (!Array.isArray(accepted)) throw new HarnessError('CNF_ERR_CONFIG_INVALID', `baseline ${file} must be {"accepted": [...]}`);
  return accepted.map((entry, i) => {
    const e = entry as Partial<BaselineEntry>;
    const bad = (why: string): never => {
      throw new HarnessError('CNF_ERR_CONFIG_INVALID', `baseline ${file}, entry ${i}: ${why}`);
    };
    if (typeof e.checkId !== 'string' || !e.checkId) bad('"checkId" is required');
    if (typeof e.reason !== 'string' || !e.reason.trim()) bad('"reason" is required: say why the deviation is accepted');
    for (const key of ['operationId', 'kind'] as const) if (e[key] !== undefined && typeof e[key] !== 'string') bad(`"${key}" must be a string`);
    return { checkId: e.checkId!, reason: e.reason!, ...(e.operationId ? { operationId: e.operationId } : {}), ...(e.kind ? { kind: e.kind } : {}) };
  });
}

/** The baseline entry that accepts a failure, or undefined. */
export function acceptedBy(failure: Pick<Failure, 'checkId' | 'operationId' | 'kind'>, baseline: readonly BaselineEntry[]): BaselineEntry | undefined {
  return baseline.find(
    (e) => e.checkId === failure.checkId && (!e.operationId || e.operationId === failure.operationId) && (!e.kind || e.kind === failure.kind),
  );
}
