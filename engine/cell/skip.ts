/**
 * Skip rules of a cell: why the generic cases of a check cannot be sent to an operation
 * ({@link notCallable}: a read-only run, a missing fixture, a write without a fixture made for it)
 * and which of the roles its evidence needs the target lacks. A skipped cell says what the run
 * lacks (role, fixture, adapter, option) and how to provide it.
 * @see docs/design.md (Targets, roles and verdicts: skipped, with the fix); docs/decisions.md (Harness: "Five verdicts")
 */
import type { Operation } from '../../core/spec/load.js';
import type { Target } from '../../core/target.js';
import type { Check, Role } from '../../core/types.js';
import { missingFixtures, SAFE_METHODS } from '../../core/operation-needs.js';
import { needsFixture, readOnlyRun, type Skip } from '../../core/skips.js';
import type { WriteCaseMaker } from '../write-cases.js';

/** The roles a check's evidence is sent with that the target lacks. */
export function missingRoles(check: Check, role: Role | null, target: Target): Role[] {
  const wanted = check.needs === 'roles' ? (check.roles ?? []) : role ? [role] : [];
  return wanted.filter((r) => !target.roles[r]);
}

/** Why a cell cannot run, what the run lacks, and how to provide it (core/skips.ts). */
export type SkipReason = Skip;

/**
 * Why the generic cases of a check cannot be sent to an operation, or undefined when they can.
 * Valid requests of safe methods carry the target's fixtures; an operation that changes state gets
 * a fixture made for each case (`writes`), without which its valid cases cannot be sent. Refused
 * probes (`anonymous`, `no_scope`, `invalid_credentials`, `negative`, `not_found`) go to every
 * method unless the run is read-only.
 */
export function notCallable(operation: Operation, target: Target, needs: Check['needs'], writes?: WriteCaseMaker): SkipReason | undefined {
  const safe = SAFE_METHODS.has(operation.method);
  if (target.readOnly && !safe) return readOnlyRun('the operation may change state');
  if (!safe) {
    if (WRITE_NEEDS.has(needs)) return writes?.unavailable ?? (writes ? undefined : { reason: 'no fixture can be made for a write of this operation', kind: 'fixture', fix: 'name its path values under "fixtures" in the config file' });
    return undefined;
  }
  if (needs === 'exchange' || needs === 'walk' || needs === 'negative' || needs === 'other_org' || needs === 'defaults' || needs === 'burst' || needs === 'roles') {
    const missing = missingFixtures(operation, target);
    if (missing.length) return needsFixture(missing);
  }
  return undefined;
}

/** Evidence that, on an operation that changes state, needs a fixture made for each case (a valid request, or one that must change nothing). */
export const WRITE_NEEDS: ReadonlySet<Check['needs']> = new Set(['exchange', 'roles', 'other_org', 'reader']);
