/**
 * The transition table of a customer (data only): read by the reference's state machine
 * (./machine.ts) and by the harness's stateful suites and transition coverage
 * (engine/stateful/transitions.ts), which must not load the server's runtime to read it.
 * @see docs/design.md (Reference server: explicit transition tables per resource)
 */
import type { TransitionTable } from '../../machine.js';

/** A customer's state: `deleted` once deleted_at is set. */
export type CustomerState = 'active' | 'deleted';

/** Transitions of a customer. */
export const CUSTOMER_TRANSITIONS = {
  delete: { from: ['active'], to: 'deleted', events: ['customer.deleted'] },
} as const satisfies TransitionTable<CustomerState, 'delete'>;

/** A transition name of {@link CUSTOMER_TRANSITIONS}. */
export type CustomerTransition = keyof typeof CUSTOMER_TRANSITIONS;
