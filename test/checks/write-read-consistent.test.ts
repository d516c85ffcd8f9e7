// write_read_consistent on hand-made pairs (a write whose answer is the record it changed, then its
// client's next read of that record): the same record passes, fields only one of them holds aside;
// a field with another value or JSON type fails with the exact kind; another record, an error read
// and a missing read are not judged; differingFields; and its applicability.
import { describe, expect, test } from 'vitest';
import { differingFields, sameJson, writeReadConsistent } from '../../checks/write-read-consistent.js';
import type { Exchange } from '../../core/types.js';
import { testApplicability } from './cases.js';
import { context, exchange } from './fixtures.js';

const ORDER = '0b7f3c1e-5a2d-4c8e-9f10-2b3c4d5e6f70';
const DIFFERS = ['read_back_differs_from_write_answer'];
const PARIS = { country: 'FR', line1: '1 rue de Rivoli', line2: null, postal_code: '75001', city: 'Paris', state: null };

/** An order as the update answered it; `fields` override. */
const order = (fields: Record<string, unknown> = {}) => ({ id: ORDER, created_at: '2026-01-02T03:04:05.123456Z', modified_at: '2026-11-29T07:14:37.012000Z', status: 'paid', paid: true, seats: 3, billing_name: 'Rivoli SARL', billing_address: PARIS, metadata: { source: 'web' }, ...fields });

/** The billing update of ORDER answered `status` with `answered`. */
function written(answered: unknown, status = 200): Exchange {
  const made = exchange({ operationId: 'orders:update', status, body: answered });
  return { ...made, case: { ...made.case, pathParams: { id: ORDER } }, request: { method: 'PATCH', url: `http://127.0.0.1:1/v1/orders/${ORDER}`, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ billing_name: 'Rivoli SARL', billing_address: PARIS }) } };
}

/** The read of ORDER answered `status` with `answered`. */
function read(answered: unknown, status = 200): Exchange {
  const made = exchange({ operationId: 'orders:get', status, body: answered });
  return { ...made, case: { ...made.case, pathParams: { id: ORDER } }, request: { method: 'GET', url: `http://127.0.0.1:1/v1/orders/${ORDER}`, headers: {} } };
}

describe('write_read_consistent', () => {
  // [name, write, read, expected kinds ([] = passes)]
  test.each<[string, Exchange, Exchange, string[]]>([
    ['the same record passes', written(order()), read(order()), []],
    ['a field the write answer leaves out is not compared', written(order({ paid: undefined })), read(order()), []],
    ['a field the read leaves out is not compared', written(order()), read(order({ metadata: undefined })), []],
    ['a modified_at not kept fails', written(order()), read(order({ modified_at: null })), DIFFERS],
    ['an older modified_at fails', written(order()), read(order({ modified_at: '2026-01-02T03:04:05.123456Z' })), DIFFERS],
    ['a name not kept fails', written(order()), read(order({ billing_name: 'ACME GmbH' })), DIFFERS],
    ['an address answered but not kept (null read) fails', written(order()), read(order({ billing_address: null })), DIFFERS],
    ['an address read that the answer showed null fails', written(order({ billing_address: null })), read(order()), DIFFERS],
    ['one nested field other fails', written(order()), read(order({ billing_address: { ...PARIS, city: 'Lyon' } })), DIFFERS],
    ['3 answered, "3" read, fails', written(order()), read(order({ seats: '3' })), DIFFERS],
    ['true answered, "true" read, fails', written(order()), read(order({ paid: 'true' })), DIFFERS],
    ['several fields other are one finding', written(order()), read(order({ billing_name: 'x', seats: 4, modified_at: null })), DIFFERS],
    ['another record read is not judged', written(order()), read(order({ id: 'another', billing_name: 'x' })), []],
    ['a record without id is not judged', written(order({ id: undefined })), read(order({ id: undefined, billing_name: 'x' })), []],
    ['a read that failed is not judged', written(order()), read({ error: 'ResourceNotFound', detail: 'x' }, 404), []],
    ['a refused write is not judged', written({ detail: [] }, 422), read(order()), []],
    ['a read that is no object is not judged', written(order()), read([order({ billing_name: 'x' })]), []],
  ])('%s', async (_name, write, readBack, expected) => {
    const findings = writeReadConsistent.run(await context('orders:update'), write, [readBack]);
    expect(findings.map((f) => f.kind)).toEqual(expected);
    for (const f of findings) expect(f.message).toContain(ORDER);
  });

  test('a write without its read is not judged', async () => {
    expect(writeReadConsistent.run(await context('orders:update'), written(order()), [])).toEqual([]);
  });

  test('the finding names each differing field with both values', async () => {
    const [finding] = writeReadConsistent.run(await context('orders:update'), written(order()), [read(order({ seats: '3', modified_at: null }))]);
    expect(finding).toMatchObject({ expected: { seats: 3, modified_at: '2026-11-29T07:14:37.012000Z' }, actual: { seats: '3', modified_at: null } });
  });
});

describe('differingFields', () => {
  // [name, a, b, fields]
  test.each<[string, Record<string, unknown>, Record<string, unknown>, string[]]>([
    ['equal objects', { a: 1, b: [1, 2], c: { d: null } }, { a: 1, b: [1, 2], c: { d: null } }, []],
    ['a number and its string', { a: 3 }, { a: '3' }, ['a']],
    ['null and an object', { a: null }, { a: {} }, ['a']],
    ['an array in another order', { a: [1, 2] }, { a: [2, 1] }, ['a']],
    ['keys only one holds are left out', { a: 1, b: 2 }, { a: 1, c: 3 }, []],
    ['in the first object\'s key order', { b: 1, a: 1 }, { a: 2, b: 2 }, ['b', 'a']],
  ])('%s', (_name, a, b, expected) => {
    expect(differingFields(a, b)).toEqual(expected);
  });
});

describe('applicability', () => {
  testApplicability([
    [writeReadConsistent, 'orders:update', true],
    [writeReadConsistent, 'customer_portal:orders:update', true],
    [writeReadConsistent, 'products:update_benefits', true],
    [writeReadConsistent, 'orders:get', 'not a write whose answer is the record it changed (the billing details of an order, the benefits of a product)'],
  ]);
});

describe('sameJson and differingFields: JSON objects are unordered, types and array order count', () => {
  test.each<[string, unknown, unknown, boolean]>([
    ['keys in another order', { country: 'FR', city: 'Paris' }, { city: 'Paris', country: 'FR' }, true],
    ['nested keys in another order', { a: { x: 1, y: [1, { p: 1, q: 2 }] } }, { a: { y: [1, { q: 2, p: 1 }], x: 1 } }, true],
    ['3 and "3"', 3, '3', false],
    ['arrays in another order', [1, 2], [2, 1], false],
    ['a missing key', { a: 1, b: 2 }, { a: 1 }, false],
    ['null and an empty object', null, {}, false],
  ])('%s', (_name, a, b, same) => {
    expect(sameJson(a, b)).toBe(same);
  });

  test('differingFields ignores the order of keys', () => {
    expect(differingFields({ id: 'o', billing_address: { country: 'FR', city: 'Paris' } }, { id: 'o', billing_address: { city: 'Paris', country: 'FR' } })).toEqual([]);
  });
});
