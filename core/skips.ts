/**
 * Why a cell cannot run against a target, made where the decision is taken: the reason a person
 * reads, what the run lacks (`SkipKind`) and how to provide it. Every skipped cell carries all
 * three from the start, so no report reads a kind back from a reason's words.
 * @see docs/design.md (Targets, roles and verdicts)
 */
import { defaultTokenEnv, type Target } from './target.js';
import type { Role, SkipKind } from './types.js';

/** Why a cell is skipped: the reason, what the run lacks and the fix. */
export interface Skip {
  reason: string;
  kind: SkipKind;
  fix: string;
}

/** A role the target lacks; the fix names the variable the run reads its token from (the config's, or `CONFORMANCE_<ROLE>_TOKEN`). */
export function needsRole(role: Role, target: Pick<Target, 'roleEnv'>): Skip {
  return { reason: `needs role ${role}`, kind: 'role', fix: `export ${target.roleEnv?.[role] ?? defaultTokenEnv(role)}=…` };
}

/** Fixtures the target's configuration does not name. */
export function needsFixture(names: readonly string[]): Skip {
  return { reason: `needs fixture ${names.join(', ')}`, kind: 'fixture', fix: `name ${names.join(', ')} under "fixtures" in the config file` };
}

/** An adapter capability the run's adapter lacks (or no adapter at all). */
export function needsCapability(capability: string, hasAdapter: boolean): Skip {
  return {
    reason: `needs adapter capability ${capability}${hasAdapter ? '' : ' (no adapter: pass --adapter FILE)'}`,
    kind: 'adapter',
    fix: '--adapter FILE (a module exporting createAdapter), or --adapter reference for a served reference',
  };
}

/** A read-only run (`--read-only`) and a cell that would change state. */
export function readOnlyRun(what: string): Skip {
  return { reason: `read-only run: ${what}`, kind: 'option', fix: 'run without --read-only to send writes (each on a fixture made for it)' };
}
