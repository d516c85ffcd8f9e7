// seat_claim_answer on hand-made claims: the seat answered claimed with a session token passes;
// each way of answering it otherwise fails with the exact kind; an answer without a seat or with
// an error is not judged; and its applicability.
import { describe } from 'vitest';
import { seatClaimAnswer } from '../../checks/seat-claim-answer.js';
import { testApplicability, testExchangeCases, type ExchangeCase } from './cases.js';

const CLAIM = 'customer_seats:claim';
const NOT_CLAIMED = ['claim_answer_not_claimed'];

/** A claim's answer: the seat claimed and a customer session token; `seat` overrides the seat's fields, `fields` the body's. */
function claimed(seat: Record<string, unknown> = {}, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    seat: { id: '5096fa3b-8cee-4ef1-a717-0b8fe77b5827', created_at: '2026-11-29T07:13:21.949000Z', modified_at: '2026-11-29T07:13:21.959000Z', status: 'claimed', claimed_at: '2026-11-29T07:13:21.959000Z', revoked_at: null, seat_metadata: {}, ...seat },
    customer_session_token: 'polar_cst__dikDHcVAgCv_uFu1Ox4',
    ...fields,
  };
}

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: ExchangeCase[] = [
  ['the seat claimed with a session token passes', seatClaimAnswer, CLAIM, { operationId: CLAIM, body: claimed() }, []],
  ['a seat without a status is not judged on it', seatClaimAnswer, CLAIM, { operationId: CLAIM, body: claimed({ status: undefined }) }, []],
  ['a seat without revoked_at is not judged on it', seatClaimAnswer, CLAIM, { operationId: CLAIM, body: claimed({ revoked_at: undefined }) }, []],
  ['status pending fails', seatClaimAnswer, CLAIM, { operationId: CLAIM, body: claimed({ status: 'pending' }) }, NOT_CLAIMED],
  ['status revoked fails', seatClaimAnswer, CLAIM, { operationId: CLAIM, body: claimed({ status: 'revoked', revoked_at: '2026-11-29T07:13:22Z' }) }, NOT_CLAIMED],
  ['claimed_at null fails', seatClaimAnswer, CLAIM, { operationId: CLAIM, body: claimed({ claimed_at: null }) }, NOT_CLAIMED],
  ['claimed_at missing fails', seatClaimAnswer, CLAIM, { operationId: CLAIM, body: claimed({ claimed_at: undefined }) }, NOT_CLAIMED],
  ['revoked_at set fails', seatClaimAnswer, CLAIM, { operationId: CLAIM, body: claimed({ revoked_at: '2026-11-29T07:13:22Z' }) }, NOT_CLAIMED],
  ['no session token fails', seatClaimAnswer, CLAIM, { operationId: CLAIM, body: claimed({}, { customer_session_token: undefined }) }, NOT_CLAIMED],
  ['an empty session token fails', seatClaimAnswer, CLAIM, { operationId: CLAIM, body: claimed({}, { customer_session_token: '' }) }, NOT_CLAIMED],
  ['every problem is one finding', seatClaimAnswer, CLAIM, { operationId: CLAIM, body: claimed({ status: 'pending', claimed_at: null }, { customer_session_token: null }) }, NOT_CLAIMED],
  ['an answer without a seat is not judged', seatClaimAnswer, CLAIM, { operationId: CLAIM, body: { customer_session_token: 'x' } }, []],
  ['a null seat is not judged', seatClaimAnswer, CLAIM, { operationId: CLAIM, body: { seat: null } }, []],
  ['a refused claim is not judged', seatClaimAnswer, CLAIM, { operationId: CLAIM, status: 422, body: { detail: [{ loc: ['body', 'invitation_token'], msg: 'x', type: 'invitation_invalid' }] } }, []],
];

describe('seat_claim_answer', () => {
  testExchangeCases(cases, { applies: true });
});

describe('applicability', () => {
  testApplicability([
    [seatClaimAnswer, CLAIM, true],
    [seatClaimAnswer, 'products:list', 'not the seat claim (POST /v1/customer-seats/claim)'],
  ]);
});
