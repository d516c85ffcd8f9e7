// Matching observed requests to operations: concrete paths before templated ones, the servers' and
// the target's base paths stripped, path parameters decoded; anything else matches nothing.
import { beforeAll, describe, expect, test } from 'vitest';
import { loadSpec, specPath, type LoadedSpec } from '../../../core/spec/load.js';
import { OperationMatcher, queryValuesOf, serverBasePaths } from '../../../engine/observed/match.js';

let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadSpec(specPath('2026-10'));
});

describe('OperationMatcher', () => {
  test.each([
    ['GET', '/v1/products/', 'products:list', {}],
    ['get', '/v1/products/abc', 'products:get', { id: 'abc' }],
    ['POST', '/v1/products/a%20b/benefits', 'products:update_benefits', { id: 'a b' }],
    ['DELETE', '/v1/customers/external/cus_1', 'customers:delete_external', { external_id: 'cus_1' }],
    ['GET', '/v1/customers/c1/payment-methods', 'customers:list_payment_methods', { id: 'c1' }],
    ['POST', '/v1/customer-seats/claim', 'customer_seats:claim', {}],
    ['GET', '/sandbox/v1/orders/o1/receipt', 'orders:get_receipt', { id: 'o1' }],
  ])('%s %s is %s', (method, path, operationId, pathParams) => {
    const found = new OperationMatcher(spec, ['/sandbox/']).match(method, path);
    expect(found && { operationId: found.operation.operationId, pathParams: found.pathParams }).toEqual({ operationId, pathParams });
  });

  test.each([
    ['GET', '/v1/products'],
    ['PUT', '/v1/products/abc'],
    ['GET', '/v1/products/abc/extra'],
    ['GET', '/other/v1/products/'],
    ['GET', '/'],
  ])('%s %s matches no operation', (method, path) => {
    expect(new OperationMatcher(spec, ['/sandbox']).match(method, path)).toBeUndefined();
  });

  test('base paths of the servers, variables at their defaults', () => {
    expect(serverBasePaths({ servers: [{ url: 'https://api.example.com/{stage}/api/', variables: { stage: { default: 'v2' } } }, { url: '/relative' }, { url: '{base_url}', variables: { base_url: { default: 'https://x.example' } } }] })).toEqual(['/v2/api', '/relative']);
  });

  test('repeated query parameters become arrays', () => {
    expect(queryValuesOf(new URL('http://h/p?a=1&b=2&a=3&metadata[k]=v'))).toEqual({ a: ['1', '3'], b: '2', 'metadata[k]': 'v' });
  });
});
