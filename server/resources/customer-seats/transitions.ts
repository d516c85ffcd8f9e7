/**
 * The transition table of a seat (data only): read by the reference's state machine
 * (./machine.ts) and by the harness's stateful suites and transition coverage
 * (engine/stateful/transitions.ts), which must not load the server's runtime to read it.
 * @see docs/design.md (Reference server: explicit transition tables per resource)
 */
import type { TransitionTable } from '../../machine.js';
import type { SeatStatus } from '../../records.js';

/** Transitions of a seat. */
export const SEAT_TRANSITIONS = {
  claim: { from: ['pending'], to: 'claimed', events: ['customer_seat.claimed'] },
  revoke: { from: ['pending', 'claimed'], to: 'revoked', events: ['customer_seat.revoked'] },
} as const satisfies TransitionTable<SeatStatus, 'claim' | 'revoke'>;

/** A transition name of {@link SEAT_TRANSITIONS}. */
export type SeatTransition = keyof typeof SEAT_TRANSITIONS;
