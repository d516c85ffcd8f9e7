// write_scope_accepted: a token with write scopes only is served where a write scope is listed
// (beside a read scope, or alone on a write).
import { describe, expect, test } from 'vitest';
import { writeScopeAccepted } from '../../checks/write-scope-accepted.js';
import { context, exchange, list, type ExchangeShape } from './fixtures.js';

describe('write_scope_accepted', () => {
  // [name, operationId, writer's exchange, expected kinds]
  test.each<[string, string, ExchangeShape, string[]]>([
    ['200 passes', 'products:list', { status: 200, body: list([]) }, []],
    ['404 is not judged', 'customers:list_payment_methods', { status: 404, body: { error: 'ResourceNotFound', detail: 'x' } }, []],
    ['422 is not judged', 'files:list', { status: 422, body: { detail: [] } }, []],
    ['403 fails', 'products:list', { status: 403, body: { error: 'NotPermitted', detail: 'x' } }, ['write_scope_refused']],
    ['401 fails', 'refunds:list', { status: 401, body: { error: 'Unauthorized', detail: 'x' } }, ['write_scope_refused']],
    ['a write refused with 403 fails', 'files:create', { status: 403, body: { error: 'NotPermitted', detail: 'x' } }, ['write_scope_refused']],
  ])('%s', async (_name, operationId, shape, kinds) => {
    const findings = writeScopeAccepted.run(await context(operationId), exchange({ operationId, role: 'writer', ...shape }), []);
    expect(findings.map((f) => f.kind)).toEqual(kinds);
  });

  test.each([
    ['products:list', true],
    ['webhooks:list_endpoints', true],
    // A write-only operation: its write scope suffices, judged on a fixture made for the case.
    ['products:update_benefits', true],
    ['files:create', true],
    ['orders:get_receipt', 'the operation lists no write scope'],
    ['orders:get_invoice', 'the API description shows no scope for the operation'],
    ['customer_portal:license_keys:list', 'the writer role holds an organization token, which the operation does not accept'],
    ['oauth2:token', 'the operation names no scopes'],
  ])('applies to %s: %s', async (operationId, expected) => {
    expect(writeScopeAccepted.appliesTo?.(await context(operationId))).toBe(expected);
  });
});
