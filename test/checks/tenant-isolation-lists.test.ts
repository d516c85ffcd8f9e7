// tenant_isolation_lists: the other organization's list holds none of the first organization's records.
import { describe, expect, test } from 'vitest';
import { tenantIsolationLists } from '../../checks/tenant-isolation-lists.js';
import { context, exchange, list, type ExchangeShape } from './fixtures.js';

const A = '125686a3-e0a6-4823-9cf5-bee102e16f8b';
const B = '9d1e2b8f-7f6a-4c4d-8b3c-6a6e1d3f4a0c';
const own = [{ id: 'a1', organization_id: A }, { id: 'a2', organization_id: A }];

describe('tenant_isolation_lists', () => {
  // [name, admin's exchange, other organization's exchange, expected kinds]
  test.each<[string, ExchangeShape, ExchangeShape, string[]]>([
    ['disjoint lists pass', { body: list(own) }, { body: list([{ id: 'b1', organization_id: B }]) }, []],
    ['an empty list to the other organization passes', { body: list(own) }, { body: list([]) }, []],
    ['a shared id fails', { body: list(own) }, { body: list([{ id: 'b1', organization_id: B }, { id: 'a2' }]) }, ['list_leaks_other_organization']],
    ['a record of the first organization fails', { body: list(own) }, { body: list([{ id: 'a9', organization_id: A }]) }, ['list_leaks_other_organization']],
    ['items without organization_id compare by id', { body: list([{ id: 's1' }]) }, { body: list([{ id: 's1' }]) }, ['list_leaks_other_organization']],
    ['a refused other organization is not judged here', { body: list(own) }, { status: 403, body: { error: 'NotPermitted', detail: 'x' } }, []],
    ['a failed first list leaves nothing to compare', { status: 500, body: {} }, { body: list(own) }, []],
  ])('%s', async (_name, first, second, kinds) => {
    const ctx = await context('products:list');
    const findings = tenantIsolationLists.run(ctx, exchange({ role: 'other_org', ...second }), [exchange({ role: 'admin', ...first })]);
    expect(findings.map((f) => f.kind)).toEqual(kinds);
  });

  test.each([
    ['products:list', true],
    ['refunds:list', true],
    ['customers:list_payment_methods', 'a list named by a path parameter: tenant_isolation judges it'],
    ['customer_portal:license_keys:list', 'the operation does not accept organization tokens'],
    ['orders:get_receipt', 'not a paginated list'],
  ])('applies to %s: %s', async (operationId, expected) => {
    expect(tenantIsolationLists.appliesTo?.(await context(operationId))).toBe(expected);
  });
});
