/**
 * Whether a stateful scenario or a model family can run against a target: one decision for both,
 * taken before either sends anything. Not of this document (its rules, or an operation it lacks):
 * not applicable; otherwise what the run lacks (a read-only run, an adapter capability, a role, a
 * fixture, a target on this machine), as a skip with its kind and fix.
 * @see docs/stateful.md; core/skips.ts
 */
import type { AdapterCapability, TargetAdapter } from '../../core/adapter.js';
import { needsCapability, needsFixture, needsRole, readOnlyRun, type Skip } from '../../core/skips.js';
import { API_RULES_EXTENSION, type LoadedSpec } from '../../core/spec/load.js';
import { isLoopback, type Target } from '../../core/target.js';
import type { Role } from '../../core/types.js';

/** What a scenario or a family needs of the target. */
export interface StatefulNeeds {
  /** The operation its cell is reported under. */
  operationId: string;
  capabilities: readonly AdapterCapability[];
  roles: readonly Role[];
  fixtures: readonly string[];
  /** Needs a target on this machine (a webhook receiver on 127.0.0.1 must be reachable from it). */
  loopbackOnly?: boolean;
}

/** Why a scenario or family does not run: not applicable (with the reason), or skipped (with the reason, kind and fix). */
export type NotRunnable = { status: 'not_applicable'; reason: string } | { status: 'skipped'; skip: Skip };

/** Where it would run: the document, the target and the run's adapter. */
export interface StatefulPlace {
  spec: LoadedSpec;
  target: Target;
  adapter: TargetAdapter | undefined;
}

/**
 * Why `needs` cannot be met at `place`, or undefined when it can.
 * @param known the operationIds the document offers (a scenario's include webhooks and bundled routes)
 * @param what how the reasons name it: `scenario` or `model`
 */
export function notRunnable(needs: StatefulNeeds, place: StatefulPlace, known: ReadonlySet<string>, what: 'scenario' | 'model'): NotRunnable | undefined {
  const { spec, target, adapter } = place;
  if (!spec.apiRules) return { status: 'not_applicable', reason: notThisApi(what) };
  if (target.readOnly) return { status: 'skipped', skip: readOnlyRun(what === 'scenario' ? 'the scenario changes state' : 'the commands change state') };
  if (!known.has(needs.operationId)) return { status: 'not_applicable', reason: `the document has no operation ${needs.operationId}` };
  const capability = needs.capabilities.find((c) => typeof adapter?.[c] !== 'function');
  if (capability) return { status: 'skipped', skip: needsCapability(capability, adapter !== undefined) };
  const role = needs.roles.find((r) => !target.roles[r]);
  if (role) return { status: 'skipped', skip: needsRole(role, target) };
  const fixture = needs.fixtures.find((f) => !target.fixtures[f]);
  if (fixture) return { status: 'skipped', skip: needsFixture([fixture]) };
  if (needs.loopbackOnly && !isLoopback(new URL(target.baseUrl))) {
    return { status: 'skipped', skip: { reason: 'needs a target on this machine: the webhook receiver listens on 127.0.0.1', kind: 'option', fix: 'run the harness on the machine of the target' } };
  }
  return undefined;
}

/** Why a scenario or a family does not apply to a document without the bundled API's rules (spec/rules.yaml). */
export function notThisApi(what: 'scenario' | 'model'): string {
  return `a ${what} of the bundled API's rules (spec/rules.yaml), not of this document (opt in with ${API_RULES_EXTENSION})`;
}
