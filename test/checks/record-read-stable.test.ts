// record_read_stable on hand-made pairs (a record read, then read again with the same request):
// the same record passes, and so do other fields once modified_at says it changed; a field changed
// under the same modified_at, a changed id or created_at, and a modified_at going back fail with
// the exact kind; error reads and a missing first read are not judged; and its applicability.
import { describe, expect, test } from 'vitest';
import { recordReadStable } from '../../checks/record-read-stable.js';
import type { Exchange } from '../../core/types.js';
import { testApplicability } from './cases.js';
import { context, exchange } from './fixtures.js';

const CUSTOMER = '65b8b1a7-20a6-460d-96d3-860d2989dd9b';
const DIFFERS = ['record_differs_between_reads'];
const LATER = '2026-03-01T10:00:00.000000Z';

/** A customer as read; `fields` override. */
const customer = (fields: Record<string, unknown> = {}) => ({ id: CUSTOMER, created_at: '2025-04-11T22:13:34.641050Z', modified_at: '2026-02-23T12:41:49.753724Z', name: 'Kelvin Bergnaum', email: 'kelvin@example.org', tax_id: ['MK716672110', 'eu_vat'], metadata: { segment: 'consumer' }, ...fields });

/** A read of CUSTOMER answered `status` with `answered`. */
function read(answered: unknown, status = 200): Exchange {
  const made = exchange({ operationId: 'customers:get', status, body: answered });
  return { ...made, case: { ...made.case, pathParams: { id: CUSTOMER } }, request: { method: 'GET', url: `http://127.0.0.1:1/v1/customers/${CUSTOMER}`, headers: {} } };
}

describe('record_read_stable', () => {
  // [name, first read, second read, expected kinds ([] = passes)]
  test.each<[string, Exchange, Exchange, string[]]>([
    ['the same record passes', read(customer()), read(customer()), []],
    ['a field the second read leaves out is not compared', read(customer()), read(customer({ metadata: undefined })), []],
    ['a name changed with a later modified_at passes', read(customer()), read(customer({ name: null, modified_at: LATER })), []],
    ['a first modification (null, then an instant) allows changes', read(customer({ modified_at: null })), read(customer({ name: 'K. Bergnaum', modified_at: LATER })), []],
    ['a name changed under the same modified_at fails', read(customer()), read(customer({ name: null })), DIFFERS],
    ['a name changed, modified_at null in both, fails', read(customer({ modified_at: null })), read(customer({ modified_at: null, name: null })), DIFFERS],
    ['a list in another order under the same modified_at fails', read(customer()), read(customer({ tax_id: ['eu_vat', 'MK716672110'] })), DIFFERS],
    ['"3" for 3 under the same modified_at fails', read(customer({ seats: 3 })), read(customer({ seats: '3' })), DIFFERS],
    ['modified_at going back fails', read(customer()), read(customer({ modified_at: '2026-01-01T00:00:00Z' })), DIFFERS],
    ['modified_at going back to null (never modified) fails', read(customer()), read(customer({ modified_at: null, name: null })), DIFFERS],
    ['a nested object with its keys in another order passes', read(customer({ billing_address: { country: 'FR', city: 'Paris' } })), read(customer({ billing_address: { city: 'Paris', country: 'FR' } })), []],
    ['created_at changed fails, whatever modified_at says', read(customer()), read(customer({ created_at: '2025-04-12T00:00:00Z', modified_at: LATER })), DIFFERS],
    ['another id fails, whatever modified_at says', read(customer()), read(customer({ id: 'another', modified_at: LATER })), DIFFERS],
    ['a record without id is not judged', read(customer({ id: undefined })), read(customer({ id: undefined, name: null })), []],
    ['a first read that failed is not judged', read({ error: 'ResourceNotFound', detail: 'x' }, 404), read(customer()), []],
    ['a second read that failed is not judged', read(customer()), read({ error: 'ResourceNotFound', detail: 'x' }, 404), []],
    ['a read that is no object is not judged', read([customer()]), read([customer({ name: null })]), []],
  ])('%s', async (_name, first, second, expected) => {
    const findings = recordReadStable.run(await context('customers:get'), second, [first]);
    expect(findings.map((f) => f.kind)).toEqual(expected);
    for (const f of findings) expect(f.message).toContain(CUSTOMER);
  });

  test('the finding gives the field read first, then second', async () => {
    const [finding] = recordReadStable.run(await context('customers:get'), read(customer({ name: null })), [read(customer())]);
    expect(finding).toMatchObject({ expected: { name: 'Kelvin Bergnaum' }, actual: { name: null } });
  });

  test('a read without a first one is not judged', async () => {
    expect(recordReadStable.run(await context('customers:get'), read(customer()), [])).toEqual([]);
  });
});

describe('applicability', () => {
  testApplicability([
    [recordReadStable, 'customers:get', true],
    [recordReadStable, 'orders:get', true],
    [recordReadStable, 'products:list', 'not a read of one record'],
    [recordReadStable, 'orders:update', 'not a read of one record'],
    [recordReadStable, 'orders:get_receipt', 'its answer is no record (an object with id and created_at)'],
  ]);
});
