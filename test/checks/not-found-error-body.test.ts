// not_found_error_body: a path naming a resource that does not exist gets 404 with the documented body.
import { describe, expect, test } from 'vitest';
import { notFoundErrorBody } from '../../checks/not-found-error-body.js';
import type { Exchange } from '../../core/types.js';
import { context, exchange, type ExchangeShape } from './fixtures.js';

function probe(operationId: string, shape: ExchangeShape, body?: string): Exchange {
  const made = exchange({ operationId, ...shape });
  return body ? { ...made, case: { ...made.case, body: { contentType: 'application/json', text: body } } } : made;
}

describe('not_found_error_body', () => {
  // [name, operationId, exchange, body sent, expected kinds]
  test.each<[string, string, ExchangeShape, string | undefined, string[]]>([
    ['404 ResourceNotFound passes', 'orders:get_receipt', { status: 404, body: { error: 'ResourceNotFound', detail: 'Order x not found.' } }, undefined, []],
    ['404 with another error value fails', 'orders:get_receipt', { status: 404, body: { error: 'NotFound', detail: 'x' } }, undefined, ['wrong_error_body']],
    ['404 without detail fails', 'customers:list_payment_methods', { status: 404, body: { error: 'ResourceNotFound' } }, undefined, ['wrong_error_body']],
    ['404 without a JSON body fails', 'customers:delete_external', { status: 404, contentType: 'text/plain', rawBody: 'not found' }, undefined, ['wrong_error_body']],
    ['200 fails', 'orders:get_receipt', { status: 200, body: { url: 'https://x' } }, undefined, ['missing_resource_served']],
    ['403 fails', 'orders:get_receipt', { status: 403, body: { error: 'NotPermitted', detail: 'x' } }, undefined, ['wrong_status_for_missing_resource']],
    ['422 without a body sent fails', 'orders:get_receipt', { status: 422, body: { detail: [] } }, undefined, ['wrong_status_for_missing_resource']],
    ['422 to a body sent passes (the body may be validated first)', 'products:update_benefits', { status: 422, body: { detail: [] } }, '{"benefits":[]}', []],
  ])('%s', async (_name, operationId, shape, body, kinds) => {
    const findings = notFoundErrorBody.run(await context(operationId), probe(operationId, shape, body), []);
    expect(findings.map((f) => f.kind)).toEqual(kinds);
  });

  test.each([
    ['orders:get_receipt', true],
    ['customer_portal:orders:get_invoice', true],
    ['products:list', 'no path parameter naming a resource'],
  ])('applies to %s: %s', async (operationId, expected) => {
    expect(notFoundErrorBody.appliesTo?.(await context(operationId))).toBe(expected);
  });

  test('does not apply to an operation that documents no 404', async () => {
    const ctx = await context('orders:get_receipt');
    const bare = { ...ctx.operation, responseStatuses: ctx.operation.responseStatuses.filter((s) => s !== '404') };
    expect(notFoundErrorBody.appliesTo?.({ ...ctx, operation: bare })).toBe('the operation documents no 404');
  });
});
