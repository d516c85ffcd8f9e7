/**
 * The transition table of a license key (data only): read by the reference's state machine
 * (./machine.ts) and by the harness's stateful suites and transition coverage
 * (engine/stateful/transitions.ts), which must not load the server's runtime to read it.
 * @see docs/design.md (Reference server: explicit transition tables per resource)
 */
import type { TransitionTable } from '../../machine.js';
import type { LicenseKeyStatus } from '../../records.js';

/** Transitions of a license key. */
export const LICENSE_KEY_TRANSITIONS = {
  revoke: { from: ['granted'], to: 'revoked', events: ['benefit_grant.revoked'] },
} as const satisfies TransitionTable<LicenseKeyStatus, 'revoke'>;

/** A transition name of {@link LICENSE_KEY_TRANSITIONS}. */
export type LicenseKeyTransition = keyof typeof LICENSE_KEY_TRANSITIONS;
