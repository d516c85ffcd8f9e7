// `conformance diff`: the normalization that makes two targets' answers comparable (ids mapped in
// order of appearance, timestamps and free text by type), and the differences it reports.
import { describe, expect, test } from 'vitest';
import { compareStep, IdMap, normalize } from '../../../cli/diff/normalize.js';
import type { Observation } from '../../../engine/stateful/real.js';
import type { Exchange } from '../../../core/types.js';

/** An observation of a request answered `status` with `json`. */
function answered(what: string, status: number, json: unknown): Observation {
  const exchange = { response: { status, headers: {}, body: JSON.stringify(json), json, elapsedMs: 1 } } as unknown as Exchange;
  return { what, exchange };
}

const compare = (target: Observation[], reference: Observation[]) => compareStep(target, reference, { target: new IdMap(), reference: new IdMap() });

describe('normalization', () => {
  test('paths carry JSON types, uuids and date-times as such; booleans, states and mapped ids as values', () => {
    const normalized = normalize({ id: '9b2f6a52-9d1c-4a0e-8d2e-0c6a1c1e2f3a', status: 'paid', paid: true, created_at: '2026-11-22T10:00:00.123456Z', name: 'x', items: [{ amount: 5 }] }, new IdMap());
    expect(Object.fromEntries(normalized)).toEqual({
      body: { type: 'object' },
      'body.created_at': { type: 'date-time' },
      'body.id': { type: 'uuid', value: '#1' },
      'body.items': { type: 'array', value: 1 },
      'body.items[0]': { type: 'object' },
      'body.items[0].amount': { type: 'integer' },
      'body.name': { type: 'string' },
      'body.paid': { type: 'boolean', value: true },
      'body.status': { type: 'string', value: 'paid' },
    });
  });

  test.each([
    ['ids differ but appear in the same order', { id: 'aaaaaaaa-0000-4000-8000-000000000001', order_id: 'aaaaaaaa-0000-4000-8000-000000000002' }, { id: 'bbbbbbbb-0000-4000-8000-000000000009', order_id: 'bbbbbbbb-0000-4000-8000-000000000008' }],
    ['timestamps differ in value, not in format', { created_at: '2026-11-22T10:00:00.000001Z' }, { created_at: '2027-01-01T00:00:00.999999Z' }],
    ['free text differs', { detail: 'The token is invalid.' }, { detail: 'Invitation unknown.' }],
  ])('no difference when %s', (_name, target, reference) => {
    expect(compare([answered('GET /x', 200, target)], [answered('GET /x', 200, reference)])).toEqual([]);
  });

  test.each([
    ['the status', answered('POST /c', 200, {}), answered('POST /c', 422, {}), [{ where: 'POST /c', kind: 'status', target: '200', reference: '422' }]],
    ['a status field', answered('GET /o', 200, { status: 'paid' }), answered('GET /o', 200, { status: 'pending' }), [{ where: 'GET /o body.status', kind: 'value', target: 'paid', reference: 'pending' }]],
    ['a timestamp that is null on one side', answered('GET /s', 200, { ended_at: null }), answered('GET /s', 200, { ended_at: '2026-11-22T10:00:00Z' }), [{ where: 'GET /s body.ended_at', kind: 'shape', target: 'null', reference: 'date-time' }]],
    ['an object absent on one side, reported once, not per field', answered('POST /c', 200, { seat: { id: 'x', status: 'claimed' } }), answered('POST /c', 200, {}), [{ where: 'POST /c body.seat', kind: 'shape', target: 'object', reference: 'absent' }]],
    ['ids in another order', answered('GET /l', 200, { a_id: 'aaaaaaaa-0000-4000-8000-000000000001', b_id: 'aaaaaaaa-0000-4000-8000-000000000002' }), answered('GET /l', 200, { a_id: 'aaaaaaaa-0000-4000-8000-000000000001', b_id: 'aaaaaaaa-0000-4000-8000-000000000001' }), [{ where: 'GET /l body.b_id', kind: 'value', target: '#2', reference: '#1' }]],
    ['a noted count', { what: 'events about o1', value: { 'order.paid': 1 } }, { what: 'events about o1', value: { 'order.paid': 0 } }, [{ where: 'events about o1 value.order.paid', kind: 'value', target: 1, reference: 0 }]],
    ['another request', answered('GET /a', 200, {}), answered('GET /b', 200, {}), [{ where: 'observation 1', kind: 'request', target: 'GET /a', reference: 'GET /b' }]],
  ])('a difference in %s', (_name, target, reference, want) => {
    expect(compare([target as Observation], [reference as Observation])).toEqual(want);
  });

  test('an adapter refusal on one side is a difference of status', () => {
    const done: Observation = { what: 'adapter.completeOrder', adapter: { capability: 'completeOrder', result: { status: 'paid' } } };
    const refused: Observation = { what: 'adapter.completeOrder', adapter: { capability: 'completeOrder', refused: 'answered 409' } };
    expect(compare([done], [refused])).toEqual([
      { where: 'adapter.completeOrder', kind: 'status', target: 'done', reference: 'refused' },
      { where: 'adapter.completeOrder result', kind: 'shape', target: 'object', reference: 'absent' },
    ]);
  });
});
