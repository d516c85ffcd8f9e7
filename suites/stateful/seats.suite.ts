// Customer seats: an invitation token (sent through the adapter: the API shows no invitation
// endpoint) claims its seat once, with no credentials, and opens a customer session for that
// seat's customer only; a used, expired or unknown token is refused with 422.
import { randomBytes } from 'node:crypto';
import type { SeatInvitation } from '../../core/adapter.js';
import { answerText, bodyOf, defineScenario, millisBetween, statefulSuite, statusOf, type ScenarioRun } from '../../engine/stateful/scenario.js';

const suite = await statefulSuite();

/** Sends an invitation through the adapter and hides its token from reproducers. */
async function invite(s: ScenarioRun): Promise<SeatInvitation> {
  const invitation = await s.adapter('createSeatInvitation')({});
  s.secret(invitation.invitationToken, 'INVITATION_TOKEN');
  return invitation;
}

/** Claims with a token that must be refused, and checks the 422. */
async function refusedClaim(s: ScenarioRun, token: string, what: string, kind: string): Promise<void> {
  const claim = await s.send('customer_seats:claim', { json: { invitation_token: token } });
  s.check(statusOf(claim) === 422, {
    kind,
    title: `A seat claim with ${what} was not refused with 422`,
    message: `POST /v1/customer-seats/claim with ${what} answered ${answerText(claim)}.`,
    expected: 422,
    actual: statusOf(claim),
  }, claim);
}

defineScenario(suite, 'seat_claim_single_use', async (s) => {
  const { seat, invitationToken } = await invite(s);
  const claim = await s.send('customer_seats:claim', { json: { invitation_token: invitationToken } });
  const body = bodyOf(claim);
  if (statusOf(claim) !== 200 || !body) {
    return s.stop({ kind: 'claim_refused', title: 'A valid invitation token did not claim its seat', message: `POST /v1/customer-seats/claim, without credentials, with a new invitation token answered ${answerText(claim)}.`, expected: 200, actual: statusOf(claim) }, claim);
  }
  const claimed = (typeof body.seat === 'object' && body.seat !== null ? body.seat : {}) as Record<string, unknown>;
  const token = typeof body.customer_session_token === 'string' ? body.customer_session_token : undefined;
  if (s.check(claimed.id === seat.id && claimed.claimed_at != null, {
    kind: 'claimed_seat_wrong',
    title: 'The claim does not answer the invited seat, claimed',
    message: `The claim answered seat ${JSON.stringify(claimed.id)} with claimed_at ${JSON.stringify(claimed.claimed_at)}; the invitation was for seat ${JSON.stringify(seat.id)}.`,
    expected: { id: seat.id, claimed_at: 'a date-time' },
    actual: { id: claimed.id, claimed_at: claimed.claimed_at },
  }, claim) && seat.status === 'pending') s.transition('seat', 'pending', 'claimed');
  s.check(token !== undefined && token !== '', {
    kind: 'claim_without_session',
    title: 'The claim answers no customer_session_token',
    message: 'POST /v1/customer-seats/claim answered 200 without a customer_session_token string.',
    expected: 'a string',
    actual: body.customer_session_token,
  }, claim);

  await refusedClaim(s, invitationToken, 'an invitation token already used', 'invitation_token_reused');
  await refusedClaim(s, `cnf_unknown_invitation_${randomBytes(12).toString('hex')}`, 'an unknown invitation token', 'unknown_invitation_accepted');

  if (!token) return;
  s.secret(token, 'CUSTOMER_SESSION_TOKEN');
  const keys = await s.send('customer_portal:license_keys:list', { bearer: token, query: { limit: '100' } });
  const items = bodyOf(keys)?.items;
  if (!s.check(statusOf(keys) === 200 && Array.isArray(items), {
    kind: 'claim_session_refused',
    title: 'The customer session of a claim does not work on the customer portal',
    message: `GET /v1/customer-portal/license-keys/ with the claim's customer_session_token answered ${answerText(keys)}.`,
    expected: 200,
    actual: statusOf(keys),
  }, keys)) return;
  const owners = [...new Set((items as Record<string, unknown>[]).map((key) => key.customer_id))];
  s.check(owners.every((owner) => owner === claimed.customer_id), {
    kind: 'claim_session_sees_others',
    title: "The claim's customer session lists other customers' license keys",
    message: `The session of seat customer ${JSON.stringify(claimed.customer_id)} lists license keys of ${JSON.stringify(owners)}.`,
    expected: [claimed.customer_id],
    actual: owners,
  }, keys);
});

defineScenario(suite, 'seat_claim_expired', async (s) => {
  const { seat, invitationToken } = await invite(s);
  const validity = millisBetween(seat.created_at, seat.invitation_token_expires_at);
  if (validity === undefined) return s.skip('the invited seat has no created_at and invitation_token_expires_at to tell when its token expires');
  await s.adapter('advanceClock')(Math.max(0, validity) + 1000);
  await refusedClaim(s, invitationToken, 'an expired invitation token', 'expired_invitation_accepted');
});
