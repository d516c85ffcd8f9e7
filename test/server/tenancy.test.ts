// Tenancy across every operation that names a resource in its path: another organization's token
// gets exactly what a missing resource gets (404 ResourceNotFound), and nothing changes.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Collection } from '../../server/collection.js';
import { resolveFaults } from '../../server/faults.js';
import type { BaseRecord } from '../../server/records.js';
import { errorReply } from '../../server/replies.js';
import { listedOrganizations, notFoundAsSent } from '../../server/tenancy.js';
import { expectConforms, testServer, type TestServer } from './support.js';

let server: TestServer;

beforeAll(async () => {
  server = await testServer();
});

/** The fixture of a path parameter, as the harness names it: `<singular of the segment before {id}>_id`. */
function fixtureOf(path: string, name: string): string {
  if (name === 'external_id') return 'customer_external_id';
  const segments = path.split('/');
  const before = segments[segments.indexOf(`{${name}}`) - 1]!.replace(/-/g, '_');
  return `${before.endsWith('s') ? before.slice(0, -1) : before}_id`;
}

function snapshot(): string {
  const { store } = server;
  return JSON.stringify([store.products, store.orders, store.customers, store.subscriptions, store.licenseKeys].map((c) => [...c.all()]));
}

describe('another organization\'s resource is answered like a missing one', () => {
  const operations = () => server.spec.operations.filter((o) => o.parameters.some((p) => p.in === 'path') && o.security.some((alt) => 'oat' in alt));
  it('covers every operation with a path parameter that takes organization tokens', () => {
    expect(operations().map((o) => o.operationId).sort()).toEqual([
      'customers:delete_external', 'customers:get', 'customers:list_payment_methods', 'orders:generate_invoice', 'orders:get', 'orders:get_invoice', 'orders:get_receipt', 'orders:update', 'products:get', 'products:update_benefits', 'subscriptions:get',
    ]);
  });

  it('for each of them', async () => {
    for (const operation of operations()) {
      const param = operation.parameters.find((p) => p.in === 'path')!;
      const value = server.fixtures[fixtureOf(operation.path, param.name)]!;
      expect(value, operation.operationId).toBeDefined();
      const url = operation.path.replace(`{${param.name}}`, encodeURIComponent(value));
      const body = operation.operationId === 'products:update_benefits' ? { json: { benefits: [] } } : operation.method === 'PATCH' ? { json: { billing_name: 'x' } } : {};
      const before = snapshot();
      const response = await server.send(operation.method as 'GET', url, { as: 'other_org', ...body });
      expect(response.statusCode, operation.operationId).toBe(404);
      expectConforms(server, operation.operationId, response);
      expect(response.json()).toEqual({ error: 'ResourceNotFound', detail: expect.stringContaining(value) });
      expect(snapshot(), operation.operationId).toBe(before);
    }
  });
});

describe('lists hold only the caller\'s organizations', () => {
  it.each(['/v1/products/', '/v1/subscriptions/', '/v1/files/', '/v1/refunds/', '/v1/webhooks/endpoints'])('%s to the other organization', async (path) => {
    const { items } = await server.all(path, {}, 'other_org');
    const own = (await server.all(path)).items;
    expect(items.length).toBeGreaterThan(0);
    const ownIds = new Set(own.map((item) => item.id));
    expect(items.filter((item) => ownIds.has(item.id))).toEqual([]);
  });
});

describe('tenancy faults', () => {
  it.each([
    ['no fault: the caller\'s organizations', [], ['a'], ['a']],
    ['list_leaks_other_org: every organization with records', ['list_leaks_other_org'], ['a'], ['a', 'b']],
  ] as const)('listedOrganizations, %s', (_name, faults, given, expected) => {
    const collection = { all: () => [{ organization_id: 'a' }, { organization_id: 'b' }, { organization_id: 'a' }].values() } as unknown as Collection<BaseRecord>;
    expect([...listedOrganizations(collection, given, resolveFaults([...faults]))].sort()).toEqual(expected);
  });

  it.each([
    ['a 404 without the fault', [], 404, 'ResourceNotFound'],
    ['a 404 with not_found_error_value_wrong', ['not_found_error_value_wrong'], 404, 'NotFound'],
    ['a 403 with not_found_error_value_wrong', ['not_found_error_value_wrong'], 403, 'NotPermitted'],
  ] as const)('notFoundAsSent, %s', (_name, faults, status, error) => {
    expect((notFoundAsSent(errorReply(status, 'x'), resolveFaults([...faults])).body as { error: string }).error).toBe(error);
  });
});
