/**
 * Customer seats and members as the API answers them; the invitation token itself is never shown.
 * @see spec/openapi.yaml, schemas CustomerSeat, Member
 */
import type { MemberRecord, SeatRecord } from '../../records.js';
import { renderNullableTimestamp as nullableTs, renderTimestamp as ts, type RenderContext } from '../../render.js';
import type { Json } from '../products/serializer.js';

/** A member of a customer. @see spec/openapi.yaml, schema Member */
export function serializeMember(ctx: RenderContext, member: MemberRecord): Json {
  return {
    id: member.id,
    created_at: ts(ctx, member.created_at),
    modified_at: nullableTs(ctx, member.modified_at),
    customer_id: member.customer_id,
    email: member.email,
    name: member.name,
    external_id: member.external_id,
    role: member.role,
  };
}

/** A seat with its member resolved. @see spec/openapi.yaml, schema CustomerSeat */
export function serializeSeat(ctx: RenderContext, seat: SeatRecord): Json {
  const member = seat.member_id === null ? undefined : ctx.store.members.get(seat.member_id);
  const customer = seat.customer_id === null ? undefined : ctx.store.customers.get(seat.customer_id);
  return {
    created_at: ts(ctx, seat.created_at),
    modified_at: nullableTs(ctx, seat.modified_at),
    id: seat.id,
    subscription_id: seat.subscription_id,
    order_id: seat.order_id,
    status: seat.status,
    customer_id: seat.customer_id,
    member_id: seat.member_id,
    member: member ? serializeMember(ctx, member) : null,
    email: seat.email,
    customer_email: customer?.email ?? null,
    invitation_token_expires_at: nullableTs(ctx, seat.invitation_token_expires_at),
    claimed_at: nullableTs(ctx, seat.claimed_at),
    revoked_at: nullableTs(ctx, seat.revoked_at),
    seat_metadata: seat.seat_metadata && structuredClone(seat.seat_metadata),
  };
}
