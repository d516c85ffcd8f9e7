/**
 * Model-based commands of customer seats: invitations sent through the adapter (the API shows no
 * invitation endpoint), claimed with their token and no credentials, claimed again, claimed after
 * the target's clock passed their expiry, claimed with a token nobody was given, and the customer
 * session a claim opens used on the customer portal. The model (SEAT_TRANSITIONS) says which claim
 * succeeds: a pending seat's token, once, before it expires; every other claim is a 422.
 * @see spec/rules.yaml seats.claim, seats.invitation_single_use, seats.invitation_expires, auth.seat_claim_without_credentials;
 *   operation customer_seats:claim; spec/openapi.yaml, schema CustomerSeat
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { AdapterError, type TargetAdapter } from '../../core/adapter.js';
import { ModelCommand } from './command.js';
import type { Family } from './family.js';
import { familyInfo } from './registry.js';
import { claimedStatus, claimOutcome, invitationExpired, MAX_SEATS, pick, type ClaimOutcome, type SeatModel, type SeatsModel } from './model.js';
import { answerText, bodyOf, statusOf, type Real } from './real.js';

/** How far `passTime` moves the clock: an hour, far less than an invitation's validity, enough to end a claim's session. */
export const PASS_TIME_MS = 60 * 60 * 1000;

/** What the sequence keeps of a seat: its id, its token, and the session and customer of its claim. */
interface SeatData {
  token: string;
  session?: string;
  customerId?: unknown;
}

/** Milliseconds from one ISO 8601 date-time to another, or undefined when either is not one. */
function millisBetween(from: unknown, to: unknown): number | undefined {
  if (typeof from !== 'string' || typeof to !== 'string') return undefined;
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Where the sequence keeps the id of the seat-based subscription it created (when the adapter can create one). */
const SUBSCRIPTION = 'seat-subscription';

// Adapters that have sent an invitation in this process: a later refusal means the target has run
// out of free seats (each sequence uses some), not that it cannot invite at all.
const invitedBefore = new WeakSet<TargetAdapter>();

/** inviteSeat: a new pending seat and its invitation token, through the adapter. */
export class InviteSeat extends ModelCommand<SeatsModel> {
  protected get name(): string {
    return 'inviteSeat';
  }
  check(model: Readonly<SeatsModel>): boolean {
    return model.seats.length < MAX_SEATS;
  }
  describe(): string {
    return 'inviteSeat';
  }
  protected async execute(model: SeatsModel, real: Real): Promise<void> {
    const seat: SeatModel = { label: `s${model.seats.length + 1}`, status: 'pending', expiresAtMs: null, sessionAtMs: null };
    model.seats.push(seat);
    const subscriptionId = real.data.get(SUBSCRIPTION) as string | undefined;
    let invitation;
    try {
      invitation = await real.adapterCall('createSeatInvitation', subscriptionId ? { subscriptionId } : {});
    } catch (error) {
      // Out of free seats after earlier sequences: this sequence cannot be set up, which says nothing of the API.
      if (error instanceof AdapterError && real.env.adapter && invitedBefore.has(real.env.adapter)) fc.pre(false);
      throw error;
    }
    if (!invitation) return;
    if (real.env.adapter) invitedBefore.add(real.env.adapter);
    real.secret(invitation.invitationToken, 'INVITATION_TOKEN');
    real.data.set(seat.label, { token: invitation.invitationToken } satisfies SeatData);
    if (typeof invitation.seat.id === 'string') real.ids.set(seat.label, invitation.seat.id);
    const validity = millisBetween(invitation.seat.created_at, invitation.seat.invitation_token_expires_at);
    if (validity !== undefined) seat.expiresAtMs = model.clockMs + Math.max(0, validity);
  }
}

/** The rule a refused claim breaks, by why it must be refused. */
const REFUSAL_RULES: Record<Exclude<ClaimOutcome, 'claimed'>, { rule: string; what: string; kind: string }> = {
  reused: { rule: 'seats.invitation_single_use', what: 'an invitation token already used', kind: 'invitation_token_reused' },
  expired: { rule: 'seats.invitation_expires', what: 'an expired invitation token', kind: 'expired_invitation_accepted' },
  revoked: { rule: 'seats.invitation_single_use', what: 'the invitation token of a revoked seat', kind: 'revoked_invitation_accepted' },
};

/** claimSeat(s): the seat's token, without credentials: the claim while the model allows it, else 422. */
export class ClaimSeat extends ModelCommand<SeatsModel> {
  readonly index: number;
  constructor(index: number) {
    super();
    this.index = index;
  }
  protected get name(): string {
    return `claimSeat(#${this.index})`;
  }
  check(model: Readonly<SeatsModel>): boolean {
    return model.seats.length > 0;
  }
  describe(model: Readonly<SeatsModel>): string {
    const seat = pick(model.seats, this.index)!;
    const outcome = claimOutcome(seat, model.clockMs);
    return `claimSeat(${seat.label})${outcome === 'claimed' ? '' : `[${outcome}]`}`;
  }
  protected async execute(model: SeatsModel, real: Real): Promise<void> {
    const seat = pick(model.seats, this.index)!;
    const outcome = claimOutcome(seat, model.clockMs);
    const from = seat.status;
    if (outcome === 'claimed') {
      seat.status = claimedStatus(seat)!;
      seat.sessionAtMs = model.clockMs;
    }
    const data = real.data.get(seat.label) as SeatData | undefined;
    if (!data) return real.note(`no invitation token for ${seat.label}`, null);
    const claim = await real.send('customer_seats:claim', { json: { invitation_token: data.token } });
    if (outcome !== 'claimed') {
      const refusal = REFUSAL_RULES[outcome];
      real.expect(statusOf(claim) === 422, {
        rule: refusal.rule,
        kind: refusal.kind,
        title: `A seat claim with ${refusal.what} was not refused with 422`,
        message: `POST /v1/customer-seats/claim with ${refusal.what} (seat ${seat.label}) answered ${answerText(claim)}.`,
        expected: 422,
        actual: statusOf(claim),
      }, claim);
      return;
    }
    const body = bodyOf(claim);
    const claimed = (typeof body?.seat === 'object' && body.seat !== null ? body.seat : {}) as Record<string, unknown>;
    const session = typeof body?.customer_session_token === 'string' && body.customer_session_token !== '' ? body.customer_session_token : undefined;
    const seatId = real.ids.get(seat.label);
    if (!real.expect(statusOf(claim) === 200 && (seatId === undefined || claimed.id === seatId) && claimed.claimed_at != null && session !== undefined, {
      rule: 'seats.claim',
      kind: 'claim_refused',
      title: 'A valid invitation token did not claim its seat',
      message: `POST /v1/customer-seats/claim with the new invitation token of seat ${seat.label} answered ${answerText(claim)}; a claim answers the seat, claimed, and a customer_session_token.`,
      expected: { status: 200, seat: { id: seatId ?? 'the invited seat', claimed_at: 'a date-time' }, customer_session_token: 'a string' },
      actual: { status: statusOf(claim), seat: { id: claimed.id, claimed_at: claimed.claimed_at }, customer_session_token: body?.customer_session_token },
    }, claim)) return;
    real.transition('seat', from, seat.status);
    real.secret(session!, 'CUSTOMER_SESSION_TOKEN');
    real.data.set(seat.label, { ...data, session, customerId: claimed.customer_id } satisfies SeatData);
  }
}

/** claimUnknownToken: a token no invitation gave is a 422. */
export class ClaimUnknownToken extends ModelCommand<SeatsModel> {
  protected get name(): string {
    return 'claimUnknownToken';
  }
  check(): boolean {
    return true;
  }
  describe(): string {
    return 'claimUnknownToken';
  }
  protected async execute(_model: SeatsModel, real: Real): Promise<void> {
    const claim = await real.send('customer_seats:claim', { json: { invitation_token: `cnf_unknown_invitation_${randomBytes(12).toString('hex')}` } });
    real.expect(statusOf(claim) === 422, {
      rule: 'seats.claim',
      kind: 'unknown_invitation_accepted',
      title: 'A seat claim with an unknown invitation token was not refused with 422',
      message: `POST /v1/customer-seats/claim with a token no invitation gave answered ${answerText(claim)}.`,
      expected: 422,
      actual: statusOf(claim),
    }, claim);
  }
}

/** Moves the target's clock and the model's: every claim's session is then of the past (its lifetime is not stated). */
async function advance(model: SeatsModel, real: Real, ms: number): Promise<void> {
  model.clockMs += ms;
  for (const seat of model.seats) seat.sessionAtMs = null;
  await real.adapterCall('advanceClock', ms);
}

/** expireInvitation(s): the clock passes a pending seat's invitation_token_expires_at (by a second). */
export class ExpireInvitation extends ModelCommand<SeatsModel> {
  readonly index: number;
  constructor(index: number) {
    super();
    this.index = index;
  }
  protected get name(): string {
    return `expireInvitation(#${this.index})`;
  }
  #seat(model: Readonly<SeatsModel>): SeatModel | undefined {
    return pick(model.seats.filter((s) => s.status === 'pending' && s.expiresAtMs !== null && !invitationExpired(s, model.clockMs)), this.index);
  }
  check(model: Readonly<SeatsModel>): boolean {
    return this.#seat(model) !== undefined;
  }
  describe(model: Readonly<SeatsModel>): string {
    return `advanceClock(past ${this.#seat(model)!.label}'s expiry)`;
  }
  protected async execute(model: SeatsModel, real: Real): Promise<void> {
    const seat = this.#seat(model)!;
    await advance(model, real, seat.expiresAtMs! - model.clockMs + 1000);
  }
}

/** passTime: the clock moves an hour, well within an invitation's validity. */
export class PassTime extends ModelCommand<SeatsModel> {
  protected get name(): string {
    return 'advanceClock(1h)';
  }
  check(): boolean {
    return true;
  }
  describe(): string {
    return 'advanceClock(1h)';
  }
  protected async execute(model: SeatsModel, real: Real): Promise<void> {
    await advance(model, real, PASS_TIME_MS);
  }
}

/** usePortalSession(s): the session a claim opened works on the customer portal and shows only its customer's license keys. */
export class UsePortalSession extends ModelCommand<SeatsModel> {
  readonly index: number;
  constructor(index: number) {
    super();
    this.index = index;
  }
  protected get name(): string {
    return `usePortalSession(#${this.index})`;
  }
  // Only right after the claim: how long a customer session lasts is not stated.
  #seat(model: Readonly<SeatsModel>): SeatModel | undefined {
    return pick(model.seats.filter((s) => s.sessionAtMs === model.clockMs), this.index);
  }
  check(model: Readonly<SeatsModel>): boolean {
    return this.#seat(model) !== undefined;
  }
  describe(model: Readonly<SeatsModel>): string {
    return `usePortalSession(${this.#seat(model)!.label})`;
  }
  protected async execute(model: SeatsModel, real: Real): Promise<void> {
    const seat = this.#seat(model)!;
    const data = real.data.get(seat.label) as SeatData | undefined;
    if (!data?.session) return real.note(`no customer session for ${seat.label}`, null);
    const keys = await real.send('customer_portal:license_keys:list', { bearer: data.session, query: { limit: '100' } });
    const items = bodyOf(keys)?.items;
    if (!real.expect(statusOf(keys) === 200 && Array.isArray(items), {
      rule: 'seats.claim',
      kind: 'claim_session_refused',
      title: 'The customer session of a claim does not work on the customer portal',
      message: `GET /v1/customer-portal/license-keys/ with the customer_session_token of seat ${seat.label}'s claim answered ${answerText(keys)}.`,
      expected: 200,
      actual: statusOf(keys),
    }, keys)) return;
    const owners = [...new Set((items as Record<string, unknown>[]).map((key) => key.customer_id))];
    real.expect(owners.every((owner) => owner === data.customerId), {
      rule: 'seats.claim',
      kind: 'claim_session_sees_others',
      title: "The claim's customer session lists other customers' license keys",
      message: `The session of seat ${seat.label}'s customer ${JSON.stringify(data.customerId)} lists license keys of ${JSON.stringify(owners)}.`,
      expected: [data.customerId],
      actual: owners,
    }, keys);
  }
}

/** The seats family. */
export const seatsFamily: Family<SeatsModel> = {
  ...familyInfo('seats'),
  // Without a subscription of its own, each sequence takes up to MAX_SEATS free seats of the target's.
  maxSequences: 10,
  commands(env) {
    const index = fc.nat({ max: MAX_SEATS - 1 });
    const clock = typeof env.adapter?.advanceClock === 'function';
    const invite = fc.constant(null).map(() => new InviteSeat());
    const claim = index.map((i) => new ClaimSeat(i));
    // fc.commands draws its arbitraries alike: inviting and claiming, listed more than once, come up more often.
    return [
      invite,
      invite,
      claim,
      claim,
      claim,
      fc.constant(null).map(() => new ClaimUnknownToken()),
      index.map((i) => new UsePortalSession(i)),
      ...(clock ? [index.map((i) => new ExpireInvitation(i)), fc.constant(null).map(() => new PassTime())] : []),
    ];
  },
  // With an adapter that creates customers and subscriptions, each sequence invites to a
  // seat-based subscription of its own; otherwise to whichever the adapter chooses.
  async setup(real) {
    if (real.can('createCustomer') && real.can('createSubscription')) {
      const customer = await real.adapterCall('createCustomer', {});
      const subscription = typeof customer?.id === 'string' ? await real.adapterCall('createSubscription', { customerId: customer.id, status: 'active', seats: MAX_SEATS }) : undefined;
      if (typeof subscription?.id === 'string') real.data.set(SUBSCRIPTION, subscription.id);
    }
    return { seats: [], clockMs: 0 };
  },
};
