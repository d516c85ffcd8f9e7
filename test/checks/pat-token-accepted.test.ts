// pat_token_accepted: a personal access token is served by every management endpoint.
import { describe, expect, test } from 'vitest';
import { patTokenAccepted } from '../../checks/pat-token-accepted.js';
import { context, exchange, list, type ExchangeShape } from './fixtures.js';

describe('pat_token_accepted', () => {
  // [name, operationId, the pat's exchange, expected kinds]
  test.each<[string, string, ExchangeShape, string[]]>([
    ['200 passes', 'products:list', { status: 200, body: list([]) }, []],
    ['a 404 of an invoice not generated is not judged', 'orders:get_invoice', { status: 404, body: { error: 'ResourceNotFound', detail: 'x' } }, []],
    ['403 fails', 'subscriptions:list', { status: 403, body: { error: 'NotPermitted', detail: 'x' } }, ['pat_refused']],
    ['401 fails', 'orders:get_receipt', { status: 401, body: { error: 'Unauthorized', detail: 'x' } }, ['pat_refused']],
  ])('%s', async (_name, operationId, shape, kinds) => {
    const findings = patTokenAccepted.run(await context(operationId), exchange({ operationId, role: 'pat', ...shape }), []);
    expect(findings.map((f) => f.kind)).toEqual(kinds);
  });

  test.each([
    ['products:list', true],
    ['orders:update', true],
    ['customer_portal:license_keys:list', 'the operation does not accept personal access tokens'],
    ['customer_seats:claim', 'the operation does not accept personal access tokens'],
  ])('applies to %s: %s', async (operationId, expected) => {
    expect(patTokenAccepted.appliesTo?.(await context(operationId))).toBe(expected);
  });
});
