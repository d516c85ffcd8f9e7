// read_scope_accepted and write_scope_required on hand-made exchanges (a passing case, failing ones with
// the exact finding kind), and the operations each applies to.
import { describe, expect, test } from 'vitest';
import { readScopeAccepted, writeScopeRequired } from '../../checks/scope-matrix.js';
import { type ExchangeCase, testExchangeCases } from './cases.js';
import { context, list } from './fixtures.js';

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: ExchangeCase[] = [
  ['read scope: 200 passes', readScopeAccepted, 'products:list', { role: 'reader', status: 200, body: list([]) }, []],
  ['read scope: 404 is not judged', readScopeAccepted, 'orders:get_receipt', { role: 'reader', status: 404, body: { error: 'ResourceNotFound', detail: 'x' } }, []],
  ['read scope: 403 fails', readScopeAccepted, 'products:list', { role: 'reader', status: 403, body: { error: 'NotPermitted', detail: 'x' } }, ['read_scope_refused']],
  ['write-only: 403 passes', writeScopeRequired, 'products:update_benefits', { role: 'reader', status: 403, body: { error: 'NotPermitted', detail: 'x' } }, []],
  ['write-only: 200 fails', writeScopeRequired, 'products:update_benefits', { role: 'reader', status: 200, body: {} }, ['write_scope_ignored']],
];

describe('read_scope_accepted and write_scope_required', () => {
  testExchangeCases(cases);
});

describe('scope matrix applicability', () => {
  test.each([
    [readScopeAccepted, 'products:list', true],
    [readScopeAccepted, 'products:update_benefits', 'the operation lists no read scope'],
    [readScopeAccepted, 'orders:get_invoice', 'the API description shows no scope for the operation'],
    [readScopeAccepted, 'customer_portal:license_keys:list', 'the reader role holds an organization token, which the operation does not accept'],
    [readScopeAccepted, 'oauth2:token', 'the operation names no scopes'],
    [writeScopeRequired, 'products:update_benefits', true],
    [writeScopeRequired, 'customers:delete_external', true],
    [writeScopeRequired, 'products:list', 'the operation lists a read scope'],
    [writeScopeRequired, 'orders:update', 'the API description shows no scope for the operation'],
  ] as const)('%o on %s', async (check, operationId, expected) => {
    expect(check.appliesTo?.(await context(operationId))).toBe(expected);
  });
});
