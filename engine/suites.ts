/**
 * The suites by name: the check-driven ones, each a file of suites/ that runs the checks whose
 * evidence (`Check.needs`) it gathers, and the stateful one (the files of suites/stateful/). Kept
 * apart from run.ts so that the suites, in vitest's workers, import nothing heavier than this table.
 */
import type { CheckNeeds } from '../core/types.js';

/**
 * The check-driven suites by name (`--suites`), each a file of suites/, with the kinds of evidence
 * (`Check.needs`) whose checks it runs; `writes` runs them on the operations that change state,
 * the others on the operations that do not.
 */
export const SUITE_NEEDS = {
  exchange: ['exchange', 'repeat'],
  pagination: ['walk', 'defaults', 'two_shapes'],
  negative: ['negative', 'not_found'],
  auth: ['anonymous', 'invalid_credentials', 'no_scope', 'reader', 'other_org', 'roles'],
  'rate-limit': ['burst'],
  // Operations that change state, with every kind of evidence that can apply to them (the
  // suites above take only the operations that change no state).
  // A page walk, the defaults, two shapes, a repeated read and the burst apply to reads only: their cells here say so.
  writes: ['exchange', 'walk', 'defaults', 'two_shapes', 'repeat', 'negative', 'not_found', 'anonymous', 'invalid_credentials', 'no_scope', 'reader', 'other_org', 'roles', 'burst'],
} as const satisfies Record<string, readonly CheckNeeds[]>;

/** The suite of the stateful scenarios (engine/stateful/registry.ts): the files of suites/stateful/. */
export const STATEFUL_SUITE = 'stateful';

/** Suites by name (`--suites`): each check-driven suite, a file of suites/, and the stateful one. */
export const SUITES = [...Object.keys(SUITE_NEEDS), STATEFUL_SUITE] as (keyof typeof SUITE_NEEDS | typeof STATEFUL_SUITE)[];
