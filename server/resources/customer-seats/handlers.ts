/**
 * Handlers of the customer seat operations.
 * @see operationId customer_seats:claim
 */
import type { OperationHandler } from '../../handler-types.js';
import { validationReply } from '../../replies.js';
import { claimSeat } from './claim.js';
import { serializeSeat } from './serializer.js';

/**
 * `customer_seats:claim` (no credentials: the invitation token is one): 200 `{seat,
 * customer_session_token}`; 422 at `["body", "invitation_token"]` for an unknown, used or expired token.
 */
export const claimSeatHandler: OperationHandler = (ctx) => {
  const { invitation_token: token } = ctx.body as { invitation_token: string };
  const claimed = claimSeat(ctx, token);
  if (!claimed.ok) {
    const expired = claimed.error.code === 'INVITATION_EXPIRED';
    // The token is a secret: it is not echoed back as the entry's input.
    return validationReply([{
      loc: ['body', 'invitation_token'],
      msg: expired ? 'The invitation has expired.' : 'The invitation token is invalid or has already been used.',
      type: expired ? 'invitation_expired' : 'invitation_invalid',
    }]);
  }
  const seat = serializeSeat(ctx, claimed.value.seat);
  // The fault claim_answer_seat_pending answers the seat as it was before the claim's status change (stored claimed).
  if (ctx.faults.has('claim_answer_seat_pending')) seat.status = 'pending';
  return { status: 200, body: { seat, customer_session_token: claimed.value.customerSessionToken } };
};
