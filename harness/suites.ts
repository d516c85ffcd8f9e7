/**
 * The check-driven suites: each is a file of suites/ that runs the checks whose evidence
 * (`Check.needs`) it gathers. Kept apart from run.ts so that the suites, in vitest's workers,
 * import nothing heavier than this table.
 */
import type { CheckNeeds } from './types.js';

/**
 * The check-driven suites by name (`--suites`), each a file of suites/, with the kinds of evidence
 * (`Check.needs`) whose checks it runs.
 */
export const SUITE_NEEDS = {
  exchange: ['exchange'],
  pagination: ['walk', 'defaults'],
  negative: ['negative'],
  auth: ['anonymous', 'invalid_credentials', 'no_scope', 'reader', 'other_org'],
} as const satisfies Record<string, readonly CheckNeeds[]>;

/** Suites by name (`--suites`), each a file of suites/. */
export const SUITES = Object.keys(SUITE_NEEDS) as (keyof typeof SUITE_NEEDS)[];
