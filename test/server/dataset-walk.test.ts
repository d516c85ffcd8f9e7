// The whole demo dataset, read through every read operation of the spec, in both API versions:
// every page of every list for each role that sees it, every order's receipt and invoice, every
// customer's payment methods. Every answer has a documented status and a body valid per that
// version's document; the pages of a list hold every record once; the version shows in the
// products (is_deletable) and in the timestamps (microseconds in 2026-10, whole seconds in 2026-04).
// @see docs/design.md (Reference server); docs/platform.md (Version per request);
// spec/rules.yaml versioning.is_deletable, versioning.timestamp_precision, pagination.walk
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_VERSIONS, loadSpec, specPath, type ApiVersion, type LoadedSpec, type Operation } from '../../core/spec/load.js';
import type { DemoTokenName } from '../../server/auth.js';
import { testServer, type TestServer } from './support.js';

const LIMIT = 100;
const MICROSECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
const WHOLE_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/** Every `*_at` string of a JSON value, with its path. */
function timestamps(value: unknown, path = ''): [string, string][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => timestamps(item, `${path}[${index}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => (key.endsWith('_at') && typeof item === 'string' ? [[`${path}.${key}`, item] as [string, string]] : timestamps(item, `${path}.${key}`)));
}

/** What one version's walk saw. */
interface Walk {
  /** operationId to the number of answers checked. */
  answers: Map<string, number>;
  /** operationId to the statuses seen. */
  statuses: Map<string, Set<number>>;
  /** Every product item of products:list, of every role. */
  products: Record<string, unknown>[];
  /** Every timestamp of every 2xx body, with where it was. */
  timestamps: [string, string][];
  /** Lists walked: `<operationId> <role> <id?>` to the items' count and total_count. */
  lists: Map<string, { items: number; unique: number; totalCount: number }>;
}

describe.each(API_VERSIONS.map((version) => [version]))('the demo dataset through every read operation of %s', (version: ApiVersion) => {
  let server: TestServer;
  let spec: LoadedSpec;
  const walk: Walk = { answers: new Map(), statuses: new Map(), products: [], timestamps: [], lists: new Map() };

  /** Asserts status documented, media type documented, body valid per this version's document; records it. */
  function expectDocumented(operation: Operation, response: LightMyRequestResponse, label: string): void {
    walk.answers.set(operation.operationId, (walk.answers.get(operation.operationId) ?? 0) + 1);
    const seen = walk.statuses.get(operation.operationId) ?? new Set<number>();
    walk.statuses.set(operation.operationId, seen.add(response.statusCode));
    const status = spec.matchStatus(operation, response.statusCode);
    expect(status, `${label}: ${response.statusCode} documented; ${response.body.slice(0, 300)}`).toBeDefined();
    if (response.statusCode === 204) return;
    const mediaType = String(response.headers['content-type']).split(';')[0]!;
    expect(operation.responseMediaTypes[status!], `${label}: media type`).toContain(mediaType);
    const body = response.json();
    const result = spec.validateResponse(operation, status!, mediaType, body);
    expect(result?.ok ? [] : result?.errors.slice(0, 3), `${label}: body valid for ${status}`).toEqual([]);
    if (response.statusCode < 300) walk.timestamps.push(...timestamps(body, label));
  }

  /** Walks every page of a list as `role` (limit 100, up to the first empty page) and asserts the pages hold every record once. */
  async function walkList(operation: Operation, path: string, role: DemoTokenName, key: string): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let totalCount = -1;
    for (let page = 1; page <= 1_000; page++) {
      const label = `${operation.operationId} as ${role} page ${page}`;
      const response = await server.get(path, { page, limit: LIMIT }, role);
      expectDocumented(operation, response, label);
      expect(response.statusCode, label).toBe(200);
      const body = response.json() as { items: Record<string, unknown>[]; pagination: { total_count: number; max_page: number } };
      if (page === 1) totalCount = body.pagination.total_count;
      expect(body.pagination.total_count, `${label}: total_count stable`).toBe(totalCount);
      expect(body.pagination.max_page, label).toBe(Math.ceil(totalCount / LIMIT));
      expect(body.items.length, label).toBeLessThanOrEqual(LIMIT);
      if (body.items.length === 0) {
        expect(page, `${label}: the first empty page is the one after max_page`).toBe(body.pagination.max_page + 1);
        break;
      }
      items.push(...body.items);
    }
    const unique = new Set(items.map((item) => item.id)).size;
    walk.lists.set(key, { items: items.length, unique, totalCount });
    expect(unique, `${key}: ids unique`).toBe(items.length);
    expect(items.length, `${key}: every record once`).toBe(totalCount);
    return items;
  }

  /** The demo roles that may call an operation: the two organizations' admins, or the portal sessions. */
  function rolesOf(operation: Operation): DemoTokenName[] {
    const kinds = new Set(operation.security.flatMap((alternative) => Object.keys(alternative)));
    if (kinds.has('oat')) return ['admin', 'other_org'];
    return kinds.has('customer_session') ? ['customer_session', 'member_session'] : [];
  }

  /** The ids a role's path parameter takes: the customers, orders, products or subscriptions it sees (the portal: its own customer's orders). */
  function idsFor(operation: Operation, role: DemoTokenName): string[] {
    const f = server.fixtures;
    const organization = role === 'other_org' ? f.other_organization_id! : f.organization_id!;
    if (/\/customers\/\{id\}/.test(operation.path)) return [...server.store.customers.all()].filter((c) => c.organization_id === organization).map((c) => c.id);
    if (/\/orders\/\{id\}/.test(operation.path)) {
      const portal = role === 'customer_session' || role === 'member_session';
      return [...server.store.orders.all()].filter((o) => o.organization_id === organization && (!portal || o.customer_id === f.customer_id)).map((o) => o.id);
    }
    if (/\/products\/\{id\}$/.test(operation.path)) return [...server.store.products.all()].filter((p) => p.organization_id === organization).map((p) => p.id);
    if (/\/subscriptions\/\{id\}$/.test(operation.path)) return [...server.store.subscriptions.all()].filter((x) => x.organization_id === organization).map((x) => x.id);
    throw new Error(`no ids known for ${operation.operationId}`);
  }

  beforeAll(async () => {
    server = await testServer({ apiVersion: version, rateLimit: false });
    spec = await loadSpec(specPath(version));
    for (const operation of spec.operations.filter((o) => o.method === 'GET')) {
      for (const role of rolesOf(operation)) {
        const hasId = operation.parameters.some((parameter) => parameter.in === 'path');
        const ids = hasId ? idsFor(operation, role) : [undefined];
        for (const id of ids) {
          const path = id === undefined ? operation.path : operation.path.replace(/\{[^}]+\}/, id);
          const key = `${operation.operationId} as ${role}${id ? ` ${id}` : ''}`;
          if (operation.paginated) {
            const items = await walkList(operation, path, role, key);
            if (operation.operationId === 'products:list') walk.products.push(...items);
          } else {
            expectDocumented(operation, await server.get(path, {}, role), key);
          }
        }
      }
    }
  }, 60_000);

  it('reads through every GET operation of the spec, with answers checked for each', () => {
    const gets = spec.operations.filter((operation) => operation.method === 'GET').map((operation) => operation.operationId);
    expect([...walk.answers.keys()].sort()).toEqual([...gets].sort());
    for (const operationId of gets) expect(walk.answers.get(operationId), operationId).toBeGreaterThan(0);
  });

  it('walks the lists of both organizations and of the portal, each holding every record once', () => {
    const lists = [...walk.lists.entries()];
    for (const [key, { items, unique, totalCount }] of lists) {
      expect(unique, key).toBe(items);
      expect(items, key).toBe(totalCount);
    }
    // Organization A holds more than a page of products and subscriptions, so the walk crossed pages.
    expect(walk.lists.get('products:list as admin')!.totalCount).toBeGreaterThan(LIMIT);
    expect(walk.lists.get('subscriptions:list as admin')!.totalCount).toBeGreaterThan(LIMIT);
    expect(walk.lists.get('customer_portal:license_keys:list as customer_session')!.totalCount).toBeGreaterThan(0);
    const paymentMethods = lists.filter(([key]) => key.startsWith('customers:list_payment_methods'));
    expect(paymentMethods.length).toBe([...server.store.customers.all()].length);
    expect(paymentMethods.reduce((sum, [, list]) => sum + list.totalCount, 0)).toBe([...server.store.paymentMethods.all()].length);
  });

  it('answers every order\'s receipt 200 when paid and 404 when pending, and its invoice 200 once generated and 404 before', () => {
    const orders = [...server.store.orders.all()];
    expect(walk.answers.get('orders:get_receipt')).toBe(orders.length);
    expect(walk.answers.get('orders:get_invoice')).toBe(orders.length);
    expect([...walk.statuses.get('orders:get_receipt')!].sort()).toEqual(orders.some((o) => o.status !== 'paid') ? [200, 404] : [200]);
    expect(walk.statuses.get('orders:get_invoice')!.has(200)).toBe(orders.some((o) => o.invoice_generated_at !== null));
    expect(walk.statuses.get('customer_portal:orders:get_invoice')!.size).toBeGreaterThan(0);
  });

  if (version === '2026-10') {
    it('shows is_deletable on every product and microseconds in every timestamp', () => {
      expect(walk.products.length).toBeGreaterThan(LIMIT);
      for (const product of walk.products) expect(typeof product.is_deletable, String(product.id)).toBe('boolean');
      expect(walk.timestamps.length).toBeGreaterThan(1_000);
      expect(walk.timestamps.filter(([, value]) => !MICROSECONDS.test(value)).slice(0, 5)).toEqual([]);
    });
  } else {
    it('shows no is_deletable on any product and no fractional seconds in any timestamp', () => {
      expect(walk.products.length).toBeGreaterThan(LIMIT);
      expect(walk.products.filter((product) => 'is_deletable' in product).map((product) => product.id).slice(0, 5)).toEqual([]);
      expect(walk.timestamps.length).toBeGreaterThan(1_000);
      expect(walk.timestamps.filter(([, value]) => !WHOLE_SECONDS.test(value)).slice(0, 5)).toEqual([]);
    });
  }
});
