// objectsIn: the objects of a body the data-invariant checks judge, each with its JSON path.
import { describe, expect, test } from 'vitest';
import { objectsIn } from '../../checks/response-objects.js';

describe('objectsIn', () => {
  test('walks arrays and objects, the body first, and skips free-form maps', () => {
    const body = { items: [{ id: 'a', customer: { id: 'c' }, metadata: { nested: { x: 1 } }, custom_field_data: { f: {} }, seat_metadata: { y: {} } }] };
    expect(objectsIn(body).map((o) => o.path)).toEqual(['', 'items[0]', 'items[0].customer']);
  });
});
