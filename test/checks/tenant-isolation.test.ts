// tenant_isolation on hand-made exchanges: passing cases and failing ones with the exact finding
// kind, and the operations it does not apply to, with the reason.
import { describe, expect, test } from 'vitest';
import { tenantIsolation } from '../../checks/tenant-isolation.js';
import { type ExchangeCase, testExchangeCases } from './cases.js';
import { context } from './fixtures.js';

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: ExchangeCase[] = [
  ['tenant: 404 ResourceNotFound passes', tenantIsolation, 'orders:get_receipt', { role: 'other_org', status: 404, body: { error: 'ResourceNotFound', detail: 'no such order' } }, []],
  ['tenant: 200 fails', tenantIsolation, 'orders:get_receipt', { role: 'other_org', status: 200, body: { url: 'https://x' } }, ['tenant_leak']],
  ['tenant: 403 leaks existence', tenantIsolation, 'orders:get_receipt', { role: 'other_org', status: 403, body: { error: 'NotPermitted', detail: 'x' } }, ['existence_leaked']],
  ['tenant: 404 with another body fails', tenantIsolation, 'orders:get_receipt', { role: 'other_org', status: 404, body: { message: 'nope' } }, ['wrong_error_body']],
];

describe('tenant_isolation', () => {
  testExchangeCases(cases);
});

describe('tenant_isolation applicability', () => {
  test.each([
    ['orders:get_receipt', true],
    ['products:list', 'no path parameter naming a resource'],
    ['customer_portal:orders:get_invoice', 'the operation does not accept organization tokens'],
  ] as const)('%s', async (operationId, expected) => {
    expect(tenantIsolation.appliesTo?.(await context(operationId))).toBe(expected);
  });
});
