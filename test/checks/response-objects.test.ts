// objectsIn: the objects of a body the data-invariant checks judge, each with its JSON path;
// timestampFieldsIn: their `*_at` strings, found in the same walk.
import { describe, expect, test } from 'vitest';
import { objectsIn, timestampFieldsIn } from '../../checks/response-objects.js';

describe('objectsIn', () => {
  test('walks arrays and objects, the body first, and skips free-form maps', () => {
    const body = { items: [{ id: 'a', customer: { id: 'c' }, metadata: { nested: { x: 1 } }, custom_field_data: { f: {} }, seat_metadata: { y: {} } }] };
    expect(objectsIn(body).map((o) => o.path)).toEqual(['', 'items[0]', 'items[0].customer']);
  });
});

describe('timestampFieldsIn', () => {
  test('gives every *_at string object by object, each object\'s keys in order, and none of a free-form map', () => {
    const body = {
      items: [
        { created_at: 'a', customer: { modified_at: 'b' }, ends_at: 'c', started_at: null, count_at: 3, metadata: { paid_at: 'x' }, method_metadata: { seen_at: 'y' } },
        { created_at: 'd', rows: [[{ due_at: 'e' }]] },
      ],
      fetched_at: 'f',
    };
    expect(timestampFieldsIn(body).map(({ place, key, value }) => [place.path, key, value])).toEqual([
      ['', 'fetched_at', 'f'],
      ['items[0]', 'created_at', 'a'],
      ['items[0]', 'ends_at', 'c'],
      ['items[0].customer', 'modified_at', 'b'],
      ['items[1]', 'created_at', 'd'],
      ['items[1].rows[0][0]', 'due_at', 'e'],
    ]);
    expect(timestampFieldsIn(body)).toBe(timestampFieldsIn(body));
    expect([null, 'text', 3].map(timestampFieldsIn)).toEqual([[], [], []]);
  });
});
