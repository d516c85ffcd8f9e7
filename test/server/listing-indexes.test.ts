import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Collection, type IndexKeys, type IndexValue } from '../../server/collection.js';
import { emitEvent, notifyStoreChanged } from '../../server/events.js';
import type { FaultId } from '../../server/faults.js';
import { listRecords, listReply, parseSorting, serializedListReply, type IndexCondition, type ListSpec } from '../../server/listing.js';
import type { BaseRecord } from '../../server/records.js';
import { serializeProduct } from '../../server/resources/products/serializer.js';
import { serializeSubscription } from '../../server/resources/subscriptions/serializer.js';
import { createStore } from '../../server/store.js';
import { expectedCompare, type Expected } from './sorting-support.js';
import { testServer, type TestServer } from './support.js';

/** A record with fields of small domains, so that filters and sort ties are common. */
type Row = BaseRecord & { color: string; size: number | null; tags: string[]; name: string; flag: boolean };

const ORGANIZATIONS = ['o1', 'o2', 'o3'];
const INDEX_KEYS: IndexKeys<Row> = { color: (r) => [r.color], flag: (r) => [r.flag], tags: (r) => r.tags, size: (r) => [r.size] };
const SORT_KEYS = { created_at: (r: Row) => r.created_at, size: (r: Row) => r.size, name: (r: Row) => r.name };
const faults = (...ids: FaultId[]) => new Set<FaultId>(ids);

const rowArbitrary = fc.record({
  organization_id: fc.constantFrom(...ORGANIZATIONS),
  color: fc.constantFrom('red', 'green', 'blue'),
  size: fc.option(fc.integer({ min: 0, max: 4 }), { nil: null }),
  tags: fc.subarray(['a', 'b', 'c']),
  name: fc.constantFrom('Ab', 'ab', 'B', 'b', 'é', ''),
  flag: fc.boolean(),
  created_at: fc.constantFrom('2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04'),
});

const conditionArbitrary: fc.Arbitrary<IndexCondition> = fc.oneof(
  fc.record({ index: fc.constant('color'), values: fc.subarray(['red', 'green', 'blue', 'pink'], { minLength: 1 }) }),
  fc.record({ index: fc.constant('flag'), values: fc.subarray([true, false], { minLength: 1 }) }),
  fc.record({ index: fc.constant('tags'), values: fc.subarray(['a', 'b', 'c'], { minLength: 1 }) }),
  fc.record({ index: fc.constant('size'), values: fc.subarray<IndexValue>([0, 1, 2, 3, null], { minLength: 1 }) }),
  fc.record({ index: fc.constant('id'), values: fc.array(fc.integer({ min: 0, max: 60 }).map((n) => `r${String(n).padStart(3, '0')}`), { minLength: 1, maxLength: 4 }) }),
);

const queryArbitrary = fc.record({
  organizationIds: fc.subarray(ORGANIZATIONS, { minLength: 0 }),
  conditions: fc.array(conditionArbitrary, { maxLength: 3 }),
  /** A record-by-record filter: names starting with a letter in this set. */
  nameStarts: fc.option(fc.subarray(['A', 'a', 'B', 'b']), { nil: undefined }),
  sorting: fc.array(fc.constantFrom('created_at', '-created_at', 'size', '-size', 'name', '-name'), { maxLength: 2 }),
  page: fc.integer({ min: 1, max: 6 }),
  limit: fc.constantFrom(1, 2, 3, 10, 100),
});

/** The list semantics stated naively: every record, filtered one by one, sorted, sliced. */
function naiveList(rows: Row[], query: QueryValue): { ids: string[]; total: number } {
  const matching = rows.filter(
    (r) =>
      query.organizationIds.includes(r.organization_id) &&
      query.conditions.every((c) => (c.index === 'id' ? c.values.includes(r.id) : INDEX_KEYS[c.index]!(r).some((value) => c.values.includes(value)))) &&
      (query.nameStarts === undefined || query.nameStarts.some((start) => r.name.startsWith(start))),
  );
  const criteria: Expected[] = (query.sorting.length > 0 ? parseSorting(query.sorting) : [{ key: 'created_at', descending: true }]).map(({ key, descending }) => ({
    value: SORT_KEYS[key as keyof typeof SORT_KEYS],
    descending,
  }));
  const sorted = [...matching].sort(expectedCompare(criteria));
  const start = (query.page - 1) * query.limit;
  return { ids: sorted.slice(start, start + query.limit).map((r) => r.id), total: matching.length };
}

type QueryValue = typeof queryArbitrary extends fc.Arbitrary<infer Q> ? Q : never;

function specOf(collection: Collection<Row>, query: QueryValue): ListSpec<Row> {
  const starts = query.nameStarts;
  return {
    collection,
    organizationIds: query.organizationIds,
    keys: SORT_KEYS,
    defaultSorting: [{ key: 'created_at', descending: true }],
    conditions: query.conditions,
    filter: starts === undefined ? undefined : (r) => starts.some((start) => r.name.startsWith(start)),
  };
}

describe('listRecords over indexes', () => {
  it('equals a naive filter, sort and slice for any query, with changes to the records in between', () => {
    const change = fc.record({ pick: fc.nat(), fields: rowArbitrary.map(({ organization_id: _o, ...fields }) => fields), remove: fc.boolean() });
    fc.assert(
      fc.property(fc.array(rowArbitrary, { maxLength: 60 }), fc.array(fc.tuple(queryArbitrary, fc.option(change, { nil: undefined })), { minLength: 1, maxLength: 8 }), (rows, steps) => {
        const collection = new Collection<Row>(INDEX_KEYS);
        const records: Row[] = rows.map((fields, i) => collection.insert({ id: `r${String(i).padStart(3, '0')}`, modified_at: null, ...fields, tags: [...fields.tags] }));
        for (const [query, changed] of steps) {
          const page = listRecords(specOf(collection, query), { page: query.page, limit: query.limit, sorting: parseSorting(query.sorting) }, faults(), 1);
          const expected = naiveList(records, query);
          expect({ ids: page.items.map((r) => r.id), total: page.totalCount }).toEqual(expected);
          if (changed && records.length > 0) {
            const target = records[changed.pick % records.length]!;
            if (changed.remove) {
              collection.delete(target.id);
              records.splice(records.indexOf(target), 1);
            } else {
              collection.update(target, { ...changed.fields, tags: [...changed.fields.tags] });
            }
          }
        }
      }),
      { seed: 4242, numRuns: 400 },
    );
  });

  it('counts a single indexed filter from the size of its set, whatever the page', () => {
    const collection = new Collection<Row>(INDEX_KEYS);
    for (let i = 0; i < 1000; i++) {
      collection.insert({ id: `r${String(i).padStart(4, '0')}`, organization_id: 'o1', created_at: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}`, modified_at: null, color: ['red', 'green', 'blue'][i % 3]!, size: i % 7, tags: [], name: `n${i}`, flag: i % 2 === 0 });
    }
    const spec: ListSpec<Row> = { collection, organizationIds: ['o1'], keys: SORT_KEYS, defaultSorting: [{ key: 'created_at', descending: true }], conditions: [{ index: 'color', values: ['red'] }], filter: undefined };
    const last = listRecords(spec, { page: 34, limit: 10, sorting: parseSorting(['name']) }, faults(), 1);
    expect(last.totalCount).toBe(334);
    expect(last.items.map((r) => r.name)).toEqual(
      [...collection.all()].filter((r) => r.color === 'red').map((r) => r.name).sort().slice(330, 340),
    );
  });

  it('with pages_overlap, still lists every match of the filters, in the sorting order up to ties', () => {
    const collection = new Collection<Row>(INDEX_KEYS);
    for (let i = 0; i < 30; i++) collection.insert({ id: `r${i}`, organization_id: 'o1', created_at: '2026-01-01', modified_at: null, color: i % 2 ? 'red' : 'blue', size: i % 3, tags: [], name: '', flag: true });
    const spec: ListSpec<Row> = { collection, organizationIds: ['o1'], keys: SORT_KEYS, defaultSorting: [{ key: 'created_at', descending: true }], conditions: [{ index: 'color', values: ['red'] }], filter: undefined };
    const page = listRecords(spec, { page: 1, limit: 100, sorting: parseSorting(['size']) }, faults('pages_overlap'), 7);
    expect(page.totalCount).toBe(15);
    expect(page.items.every((r) => r.color === 'red')).toBe(true);
    expect(page.items.map((r) => r.size)).toEqual([...page.items.map((r) => r.size)].sort());
  });
});

describe('serializedListReply', () => {
  const store = createStore();
  const rows = [1, 2, 3].map((n) => store.organizations.insert({ id: `org${n}`, organization_id: `org${n}`, created_at: '', modified_at: null, name: `Org ${n} "é\u2028"`, slug: `o${n}` }));
  let serializations = 0;
  const serialize = (record: { id: string; name: string }) => {
    serializations++;
    return { id: record.id, name: record.name, nested: { list: [1, null, 'x'] } };
  };
  const body = (reply: { body?: unknown }) => (reply.body as Buffer).toString('utf8');

  it.each<[string, FaultId[]]>([
    ['no fault', []],
    ['total_count_off_by_one', ['total_count_off_by_one']],
  ])('writes what JSON.stringify makes of listReply\'s body (%s)', (_name, ids) => {
    const reply = serializedListReply(store, rows, 7, 2, faults(...ids), serialize, 'v');
    expect(reply.status).toBe(200);
    expect(reply.headers).toEqual({ 'content-type': 'application/json; charset=utf-8' });
    expect(body(reply)).toBe(JSON.stringify(listReply(rows.map(serialize), 7, 2, faults(...ids)).body));
  });

  it('answers an empty page as listReply does, and writes the wrong_content_type fault from objects', () => {
    expect(body(serializedListReply(store, [], 0, 10, faults(), serialize, 'v'))).toBe('{"items":[],"pagination":{"total_count":0,"max_page":0}}');
    expect(serializedListReply(store, [], 0, 10, faults('undocumented_status'), serialize, 'v')).toEqual({ status: 204 });
    expect(serializedListReply(store, rows, 3, 10, faults('wrong_content_type'), serialize, 'v')).toEqual(listReply(rows.map(serialize), 3, 10, faults()));
  });

  it('serializes a record again only after something it read changes, or for another variant', () => {
    serializedListReply(store, rows, 3, 10, faults(), serialize, 'v');
    const count = () => {
      const before = serializations;
      serializedListReply(store, rows, 3, 10, faults(), serialize, 'v');
      return serializations - before;
    };
    expect(count()).toBe(0);
    // A change elsewhere in the store, or a notice of one, leaves these serializations as they are.
    store.customers.insert({ id: 'c1', organization_id: 'org1' } as never);
    notifyStoreChanged(store);
    expect(count()).toBe(0);
    store.organizations.update(rows[0]!, { name: 'Renamed' });
    expect(count()).toBe(1);
    expect(body(serializedListReply(store, rows, 3, 10, faults(), serialize, 'v'))).toContain('"name":"Renamed"');
    expect(count()).toBe(0);
    const before = serializations;
    serializedListReply(store, rows, 3, 10, faults(), serialize, 'other');
    expect(serializations - before).toBe(3);
  });

  it('serializes a record again when a record it looked up changes or is deleted, and only then', () => {
    const local = createStore();
    const owner = local.organizations.insert({ id: 'o1', organization_id: 'o1', created_at: '', modified_at: null, name: 'Owner', slug: 'o' });
    const items = [1, 2].map((n) => local.customers.insert({ id: `c${n}`, organization_id: 'o1', name: `Customer ${n}` } as never) as { id: string; organization_id: string; name: string });
    let made = 0;
    const withOwner = (record: { id: string; organization_id: string; name: string }) => {
      made++;
      return { id: record.id, name: record.name, owner: local.organizations.get(record.organization_id)?.name ?? null };
    };
    const page = () => (serializedListReply(local, items, 2, 10, faults(), withOwner, 'v').body as Buffer).toString('utf8');
    const count = () => {
      const before = made;
      page();
      return made - before;
    };
    page();
    expect(count()).toBe(0);
    local.organizations.update(owner, { name: 'Renamed owner' });
    expect(count()).toBe(2);
    expect(page()).toContain('"owner":"Renamed owner"');
    // An event names records but changes none of them: nothing is made again.
    emitEvent(local, 'organization.updated', { id: owner.id });
    expect(count()).toBe(0);
    local.organizations.delete(owner.id);
    expect(page()).toContain('"owner":null');
  });
});

describe('kept list state after state changes through the API', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await testServer();
  });

  afterAll(async () => {
    await server.app.close();
  });

  /** Every item of a list as served, and as the serializer makes it from the store now. */
  async function servedAndFresh(path: '/v1/products/' | '/v1/subscriptions/', query: Record<string, string>) {
    const { items, totalCount } = await server.all(path, query);
    const ctx = { store: server.store, apiVersion: '2026-10' as const };
    const fresh = items.map((item: { id: string }) =>
      path === '/v1/products/' ? serializeProduct(ctx, server.store.products.get(item.id)!) : serializeSubscription(ctx, server.store.subscriptions.get(item.id)!),
    );
    return { items, fresh, totalCount };
  }

  it('serves fresh items, orders and counts after a customer is deleted and a product\'s benefits change', async () => {
    const lists = [
      ['/v1/products/', {}],
      ['/v1/products/', { sorting: 'name' }],
      ['/v1/subscriptions/', {}],
      ['/v1/subscriptions/', { sorting: 'status' }],
      ['/v1/subscriptions/', { sorting: '-ended_at' }],
    ] as const;
    for (const [path, query] of lists) await servedAndFresh(path, query);
    const activeBefore = (await server.get('/v1/subscriptions/', { active: 'true', limit: 1 })).json().pagination.total_count;
    await server.all('/v1/subscriptions/', { sorting: 'customer' });

    const deleted = await server.send('DELETE', `/v1/customers/external/${server.fixtures.customer_external_id}`, { query: { anonymize: 'true' } });
    expect(deleted.statusCode).toBeLessThan(300);
    const product = server.store.products.inOrganization(server.fixtures.organization_id!)[0]!;
    const benefit = server.store.benefits.inOrganization(server.fixtures.organization_id!).find((b) => !b.is_deleted && !product.benefit_ids.includes(b.id))!;
    expect((await server.send('POST', `/v1/products/${product.id}/benefits`, { json: { benefits: [benefit.id] } })).statusCode).toBe(200);

    for (const [path, query] of lists) {
      const { items, fresh } = await servedAndFresh(path, query);
      expect(JSON.stringify(items)).toBe(JSON.stringify(fresh));
    }
    const byStatus = (await server.all('/v1/subscriptions/', { sorting: 'status' })).items.map((s: { status: string }) => s.status);
    expect(byStatus).toEqual([...byStatus].sort());
    const activeAfter = (await server.get('/v1/subscriptions/', { active: 'true', limit: 1 })).json().pagination.total_count;
    expect(activeAfter).toBeLessThan(activeBefore);
    const withBenefit = await server.all('/v1/products/', { benefit_id: benefit.id });
    expect(withBenefit.items.map((p: { id: string }) => p.id)).toContain(product.id);
    const anonymized = await server.all('/v1/subscriptions/', { sorting: 'customer' });
    const emails = anonymized.items.map((s: { customer: { email: string } }) => s.customer.email);
    expect(emails).toEqual([...emails].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });
});
