import type { Check, Finding } from '../core/types.js';
import { successJson } from './response-objects.js';

/**
 * Claiming a seat answers the seat as the claim left it: `claimed` (the platform's seat status;
 * the description shows `pending`, the status of a seat not claimed yet), with `claimed_at` set
 * and `revoked_at` null, and a `customer_session_token` to use on the customer portal.
 * @see spec/rules.yaml seats.claim; operation customer_seats:claim
 */
export const seatClaimAnswer: Check = {
  id: 'seat_claim_answer',
  title: 'A claim does not answer the seat claimed',
  severity: 'high',
  rule: 'seats.claim',
  layer: 'api',
  evidence: 'exchange',
  conformanceClass: 'state',
  level: 'must',
  needs: 'exchange',
  appliesTo: ({ operation }) => (operation.method === 'POST' && operation.path === '/v1/customer-seats/claim') || 'not the seat claim (POST /v1/customer-seats/claim)',
  run(_ctx, exchange) {
    const body = successJson(exchange) as { seat?: Record<string, unknown>; customer_session_token?: unknown } | undefined;
    if (!body || typeof body !== 'object' || typeof body.seat !== 'object' || body.seat === null) return [];
    const { seat } = body;
    const problems: string[] = [];
    if (seat.status !== undefined && seat.status !== 'claimed') problems.push(`status ${JSON.stringify(seat.status)}`);
    if (seat.claimed_at === null || seat.claimed_at === undefined) problems.push(`claimed_at ${JSON.stringify(seat.claimed_at ?? null)}`);
    if (seat.revoked_at !== undefined && seat.revoked_at !== null) problems.push(`revoked_at ${JSON.stringify(seat.revoked_at)}`);
    if (typeof body.customer_session_token !== 'string' || body.customer_session_token === '') problems.push(`customer_session_token ${JSON.stringify(body.customer_session_token ?? null)}`);
    if (!problems.length) return [];
    const finding: Finding = {
      kind: 'claim_answer_not_claimed',
      title: 'A claim does not answer the seat claimed',
      message: `POST /v1/customer-seats/claim answered 2xx with seat ${String(seat.id)} showing ${problems.join(', ')}: a claim answers the seat claimed (claimed_at set, not revoked) and a customer_session_token.`,
      expected: { status: 'claimed', claimed_at: 'a date-time', revoked_at: null, customer_session_token: 'a string' },
      actual: { status: seat.status, claimed_at: seat.claimed_at, revoked_at: seat.revoked_at, customer_session_token: typeof body.customer_session_token },
    };
    return [finding];
  },
};
