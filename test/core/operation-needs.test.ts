import { beforeAll, describe, expect, test } from 'vitest';
import { acceptsOrganizationToken, fixtureName, missingFixtures, roleFor } from '../../core/operation-needs.js';
import { loadSpec, type LoadedSpec } from '../../core/spec/load.js';
import type { Target } from '../../core/target.js';

let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadSpec();
});

const target = (fixtures: Record<string, string>): Target => ({ baseUrl: 'http://127.0.0.1:1', kind: 'remote', roles: {}, fixtures, requestsPerSecond: null, timeoutMs: 1000, readOnly: false });

describe('what an operation needs of a target', () => {
  test.each([
    ['products:list', 'admin', true],
    ['customer_portal:orders:get', 'customer_session', false],
    ['customer_seats:claim', null, false],
  ] as const)('%s: role %s, organization token %s', (operationId, role, organizationToken) => {
    const operation = spec.operation(operationId);
    expect(roleFor(operation)).toBe(role);
    expect(acceptsOrganizationToken(operation)).toBe(organizationToken);
  });

  test.each([
    ['orders:get_receipt', 'id', 'order_id'],
    // The document's x-fixture names it where the segment rule would not.
    ['customers:delete_external', 'external_id', 'customer_external_id'],
    ['products:update_benefits', 'id', 'product_id'],
  ])('%s: the path parameter %s is filled from the fixture %s', (operationId, name, fixture) => {
    const operation = spec.operation(operationId);
    expect(fixtureName(operation, operation.parameters.find((p) => p.name === name)!)).toBe(fixture);
  });

  test('missingFixtures names what the target lacks, nothing for an operation without path parameters', () => {
    expect(missingFixtures(spec.operation('orders:get_receipt'), target({}))).toEqual(['order_id']);
    expect(missingFixtures(spec.operation('orders:get_receipt'), target({ order_id: 'o1' }))).toEqual([]);
    expect(missingFixtures(spec.operation('products:list'), target({}))).toEqual([]);
  });
});
