/**
 * The customer seat state machine: a seat is pending with an invitation until it is claimed with
 * the invitation token; a pending or claimed seat can be revoked (when its subscription ends).
 * The invitation token stops working at either transition.
 * @see spec/openapi.yaml, schema CustomerSeat; operationId customer_seats:claim; spec/rules.yaml seats.invitation_single_use
 */
import { emitEvent, type MachineContext } from '../../events.js';
import { planTransition, type TransitionRefused } from '../../machine.js';
import type { SeatRecord, SeatStatus } from '../../records.js';
import { fail, ok, type Result } from '../../result.js';
import { nowTimestamp } from '../../store.js';
import { serializeSeat } from './serializer.js';
import { SEAT_TRANSITIONS, type SeatTransition } from './transitions.js';

export { SEAT_TRANSITIONS, type SeatTransition };

/**
 * Fires a seat transition: `claim` sets claimed_at and the member, `revoke` sets revoked_at; both
 * void the invitation token.
 * @param memberId the member claiming the seat (`claim` only)
 * @param faults `invitation_token_reusable` keeps the token valid after a claim
 * @returns the seat, or the refusal when its status does not allow the transition
 */
export function fireSeatTransition(ctx: MachineContext, seat: SeatRecord, name: SeatTransition, memberId?: string): Result<SeatRecord, TransitionRefused<SeatStatus>> {
  const planned = planTransition<SeatStatus, SeatTransition>(SEAT_TRANSITIONS, name, seat.status);
  if (!planned.ok) return fail(planned.error);
  const at = nowTimestamp(ctx.store);
  // Through the collection, like every stored change, so that its indexes and the change counter follow.
  ctx.store.seats.update(seat, name === 'claim'
    ? {
        status: planned.value.to,
        modified_at: at,
        claimed_at: at,
        member_id: memberId ?? null,
        ...(ctx.faults.has('invitation_token_reusable') ? {} : { invitation_token_digest: null }),
      }
    : { status: planned.value.to, modified_at: at, revoked_at: at, invitation_token_digest: null });
  const data = serializeSeat(ctx, seat);
  for (const type of planned.value.events) emitEvent(ctx.store, type, data);
  return ok(seat);
}
