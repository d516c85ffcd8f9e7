import type { Check, Exchange, Finding } from '../core/types.js';
import { brief, listBody } from './support.js';

const refused = (status: number) => status === 401 || status === 403;
const success = (status: number) => status >= 200 && status < 300;

/** A list's item ids, and whether the page holds the whole list. */
function listed(exchange: Exchange): { ids: Set<string>; total: number; complete: boolean } | undefined {
  const body = exchange.response && success(exchange.response.status) ? listBody(exchange) : undefined;
  if (!body) return undefined;
  const ids = new Set(body.items.map((item) => item.id).filter((id): id is string => typeof id === 'string'));
  return { ids, total: body.pagination.total_count, complete: body.pagination.total_count <= body.items.length };
}

/**
 * Customer portal endpoints accept member sessions and act for the session's customer: the same
 * request sent with the `customer_session` role and then with the `member_session` role (a member
 * of that same customer) is not refused (401 or 403) to the member, is answered with the same
 * class of status, and a list holds the same records (the same `total_count`; the same ids when
 * the page holds the whole list).
 * @see spec/rules.yaml auth.customer_portal_sessions (customer_session and member_session: customer portal endpoints)
 */
export const memberSessionActsForCustomer: Check = {
  id: 'member_session_acts_for_customer',
  title: 'A member session does not act for its customer',
  severity: 'high',
  rule: 'auth.customer_portal_sessions',
  layer: 'api',
  evidence: 'probe',
  conformanceClass: 'auth',
  level: 'must',
  needs: 'roles',
  roles: ['customer_session', 'member_session'],
  appliesTo: ({ operation }) =>
    (operation.security.some((alternative) => 'member_session' in alternative) && operation.security.some((alternative) => 'customer_session' in alternative))
    || 'the operation does not accept both customer and member sessions',
  run(ctx, exchange, history): Finding[] {
    const member = exchange.response;
    const customer = history[0]?.response;
    if (!member || !customer) return [];
    if (refused(member.status)) {
      return [{
        kind: 'member_session_refused',
        title: 'Member session refused',
        message: `A member session got ${member.status} ${brief(member.json ?? member.body, 100)} from ${ctx.operation.operationId}, a customer portal endpoint, which accepts member sessions.`,
        expected: 'not 401 or 403',
        actual: member.status,
      }];
    }
    // A customer session that is refused itself leaves nothing to compare the member with.
    if (refused(customer.status)) return [];
    const different = (why: string, expected: unknown, actual: unknown): Finding[] => [{
      kind: 'member_session_other_records',
      title: 'A member session sees other records than its customer',
      message: `The same request to ${ctx.operation.operationId} ${why}; a member session acts for its customer.`,
      expected,
      actual,
    }];
    if (success(customer.status) !== success(member.status)) {
      return different(`got ${customer.status} with the customer session and ${member.status} with the member session`, customer.status, member.status);
    }
    const own = listed(history[0]!);
    const members = listed(exchange);
    if (!own || !members) return [];
    if (own.total !== members.total) return different(`listed ${own.total} records to the customer session and ${members.total} to the member session`, own.total, members.total);
    if (!own.complete || !members.complete) return [];
    const extra = [...members.ids].filter((id) => !own.ids.has(id));
    const lacking = [...own.ids].filter((id) => !members.ids.has(id));
    if (extra.length === 0 && lacking.length === 0) return [];
    return different(`listed other records to the member session (not the customer's: ${extra.slice(0, 3).join(', ') || 'none'}; the customer's left out: ${lacking.slice(0, 3).join(', ') || 'none'})`, [...own.ids].sort(), [...members.ids].sort());
  },
};
