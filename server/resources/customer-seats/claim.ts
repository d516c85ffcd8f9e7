/**
 * Seat invitations and claims. An invitation token is a random secret of which only the sha256 is
 * kept; claiming with it (once, before it expires, while the seat is pending) claims the seat for
 * a new member of the seat's customer and opens a customer session for that customer.
 * @see operationId customer_seats:claim; spec/rules.yaml seats.claim, seats.invitation_single_use, seats.invitation_expires,
 *   auth.seat_claim_without_credentials (the invitation_token is the credential)
 */
import { createHash, randomBytes } from 'node:crypto';
import { issueToken, PORTAL_SCOPES } from '../../auth.js';
import type { MachineContext } from '../../events.js';
import type { SeatRecord, SubscriptionRecord } from '../../records.js';
import { fail, ok, type Result } from '../../result.js';
import { newId, nowTimestamp } from '../../store.js';
import { formatTimestamp, parseTimestamp } from '../../timestamps.js';
import { fireSeatTransition } from './machine.js';

/** How long the customer session of a claim lasts, in milliseconds. */
export const CLAIM_SESSION_TTL_MS = 60 * 60 * 1000;

/** How long an invitation is valid by default, in milliseconds. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Why a claim is refused: no seat has this token (unknown or already used), or it expired. */
export type ClaimRefusal = { code: 'INVITATION_UNKNOWN' } | { code: 'INVITATION_EXPIRED' };

/** What a claim gives: the claimed seat and a customer session token for its customer's portal. */
export interface ClaimedSeat {
  seat: SeatRecord;
  customerSessionToken: string;
}

function tokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Claims the seat an invitation token names: the seat becomes claimed with a new member (the
 * invited email, role `member`), and a customer session (1 hour) is opened for its customer.
 * @param faults `invitation_token_reusable` lets a claimed seat be claimed again with the same token
 * @returns the claim, or why it is refused; nothing changes on refusal
 */
export function claimSeat(ctx: MachineContext, token: string): Result<ClaimedSeat, ClaimRefusal> {
  const digest = tokenDigest(token);
  // Seats are found by the digest of the token, so the time taken does not depend on the secret.
  const seat = [...ctx.store.seats.all()].find((candidate) => candidate.invitation_token_digest === digest);
  if (!seat || seat.customer_id === null) return fail({ code: 'INVITATION_UNKNOWN' });
  const now = ctx.store.clock().getTime();
  if (seat.invitation_token_expires_at !== null && parseTimestamp(seat.invitation_token_expires_at)! / 1000 <= now) return fail({ code: 'INVITATION_EXPIRED' });
  const reused = seat.status === 'claimed' && ctx.faults.has('invitation_token_reusable');
  if (seat.status !== 'pending' && !reused) return fail({ code: 'INVITATION_UNKNOWN' });
  if (!reused) {
    const at = nowTimestamp(ctx.store);
    const member = ctx.store.members.insert({
      id: newId(ctx.store),
      organization_id: seat.organization_id,
      created_at: at,
      modified_at: null,
      customer_id: seat.customer_id,
      email: seat.email ?? ctx.store.customers.get(seat.customer_id)!.email,
      name: null,
      external_id: null,
      role: 'member',
    });
    const claimed = fireSeatTransition(ctx, seat, 'claim', member.id);
    if (!claimed.ok) return fail({ code: 'INVITATION_UNKNOWN' });
  }
  const { token: customerSessionToken } = issueToken(
    ctx.store,
    'polar_cst',
    { kind: 'customer_session', subject: seat.customer_id, organizationIds: [seat.organization_id], scopes: new Set(PORTAL_SCOPES), customerId: seat.customer_id },
    { issuedAtMs: now, expiresAtMs: now + CLAIM_SESSION_TTL_MS },
  );
  return ok({ seat, customerSessionToken });
}

/** What a new invitation needs; every field has a default. */
export interface SeatInvitationInput {
  /** A seat-based subscription (default: the first active one of the store with a free seat). */
  subscription_id?: string;
  /** The invited email (default: `invitee-<n>@example.com`). */
  email?: string;
  /** Validity in seconds (default 7 days). */
  expires_in_seconds?: number;
}

/** Why an invitation cannot be created. */
export type InvitationRefusal = { code: 'NOT_FOUND'; message: string } | { code: 'INVALID'; message: string } | { code: 'CONFLICT'; message: string };

function freeSeats(ctx: MachineContext, subscription: SubscriptionRecord): number {
  const taken = ctx.store.seats.lookup('subscription_id', subscription.id).filter((seat) => seat.status !== 'revoked').length;
  return (subscription.seats ?? 0) - taken;
}

/**
 * Creates a pending seat on a seat-based subscription with a new invitation token (the control
 * API's "an invitation being sent").
 * @returns the seat and the token (the only time it exists in clear), or why not
 */
export function createSeatInvitation(ctx: MachineContext, input: SeatInvitationInput): Result<{ seat: SeatRecord; invitationToken: string }, InvitationRefusal> {
  const live = (s: SubscriptionRecord) => s.status === 'active' || s.status === 'trialing';
  const subscription =
    input.subscription_id !== undefined
      ? ctx.store.subscriptions.get(input.subscription_id)
      : [...ctx.store.subscriptions.all()].find((s) => s.seats !== null && live(s) && freeSeats(ctx, s) > 0);
  if (!subscription) return fail({ code: 'NOT_FOUND', message: input.subscription_id === undefined ? 'No active seat-based subscription has a free seat.' : `Subscription ${input.subscription_id} not found.` });
  if (subscription.seats === null) return fail({ code: 'INVALID', message: `Subscription ${subscription.id} is not seat-based.` });
  if (!live(subscription)) return fail({ code: 'INVALID', message: `Subscription ${subscription.id} is ${subscription.status}.` });
  if (freeSeats(ctx, subscription) <= 0) return fail({ code: 'CONFLICT', message: `Subscription ${subscription.id} has no free seat.` });
  const ttl = input.expires_in_seconds ?? INVITATION_TTL_MS / 1000;
  if (!Number.isFinite(ttl) || ttl <= 0) return fail({ code: 'INVALID', message: 'expires_in_seconds must be a positive number.' });
  const invitationToken = `polar_cst_inv_${randomBytes(24).toString('base64url')}`;
  const now = ctx.store.clock().getTime();
  const at = nowTimestamp(ctx.store);
  const id = newId(ctx.store);
  const seat = ctx.store.seats.insert({
    id,
    organization_id: subscription.organization_id,
    created_at: at,
    modified_at: null,
    subscription_id: subscription.id,
    order_id: ctx.store.orders.lookup('customer_id', subscription.customer_id).find((o) => o.subscription_id === subscription.id)?.id ?? null,
    status: 'pending',
    customer_id: subscription.customer_id,
    member_id: null,
    email: input.email ?? `invitee-${id.slice(0, 8)}@example.com`,
    invitation_token_digest: tokenDigest(invitationToken),
    invitation_token_expires_at: formatTimestamp(Math.round((now + ttl * 1000) * 1000)),
    claimed_at: null,
    revoked_at: null,
    seat_metadata: {},
  });
  return ok({ seat, invitationToken });
}
