// member_session_acts_for_customer: a member session is served on the portal and sees its customer's records.
import { describe, expect, test } from 'vitest';
import { memberSessionActsForCustomer } from '../../checks/member-session-acts-for-customer.js';
import { context, exchange, items, list, type ExchangeShape } from './fixtures.js';

const LICENSE_KEYS = 'customer_portal:license_keys:list';
const INVOICE = 'customer_portal:orders:get_invoice';
const missing = { status: 404, body: { error: 'ResourceNotFound', detail: 'x' } };

describe('member_session_acts_for_customer', () => {
  // [name, operationId, customer session's exchange, member session's exchange, expected kinds]
  test.each<[string, string, ExchangeShape, ExchangeShape, string[]]>([
    ['the same records pass', LICENSE_KEYS, { body: list(items(3)) }, { body: list(items(3)) }, []],
    ['the same status passes', INVOICE, missing, missing, []],
    ['403 to the member fails', LICENSE_KEYS, { body: list(items(3)) }, { status: 403, body: { error: 'NotPermitted', detail: 'x' } }, ['member_session_refused']],
    ['401 to the member fails', INVOICE, missing, { status: 401, body: { error: 'Unauthorized', detail: 'x' } }, ['member_session_refused']],
    ['other records fail', LICENSE_KEYS, { body: list(items(3)) }, { body: list(items(3, 10)) }, ['member_session_other_records']],
    ['another total_count fails', LICENSE_KEYS, { body: list(items(3)) }, { body: list(items(5)) }, ['member_session_other_records']],
    ['a success to one and a 404 to the other fails', INVOICE, { status: 200, body: {} }, missing, ['member_session_other_records']],
    ['partial pages with the same count are not compared by id', LICENSE_KEYS, { body: list(items(2), 150) }, { body: list(items(2, 5), 150) }, []],
    ['a refused customer session leaves nothing to compare', INVOICE, { status: 401, body: { error: 'Unauthorized', detail: 'x' } }, missing, []],
  ])('%s', async (_name, operationId, customer, member, kinds) => {
    const ctx = await context(operationId);
    const findings = memberSessionActsForCustomer.run(ctx, exchange({ operationId, role: 'member_session', ...member }), [exchange({ operationId, role: 'customer_session', ...customer })]);
    expect(findings.map((f) => f.kind)).toEqual(kinds);
  });

  test.each([
    [LICENSE_KEYS, true],
    ['customer_portal:orders:update', true],
    ['products:list', 'the operation does not accept both customer and member sessions'],
  ])('applies to %s: %s', async (operationId, expected) => {
    expect(memberSessionActsForCustomer.appliesTo?.(await context(operationId))).toBe(expected);
  });
});
