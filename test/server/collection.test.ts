import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChangeCounter, Collection, type Comparator, type IndexKeys } from '../../server/collection.js';
import type { BaseRecord } from '../../server/records.js';

/** A record with fields of small domains, so that index sets and sort ties are common. */
type Row = BaseRecord & { color: string; size: number | null; tags: string[] };

const ORGANIZATIONS = ['o1', 'o2', 'o3'];
const COLORS = ['red', 'green', 'blue'];
const TAGS = ['a', 'b', 'c'];
const INDEX_KEYS: IndexKeys<Row> = { color: (r) => [r.color], size: (r) => [r.size], tags: (r) => r.tags };

/** Nulls last, then the id: the reference's order, stated independently of listing.ts. */
const bySize: Comparator<Row> = (a, b) => {
  if (a.size !== b.size) {
    if (a.size === null) return 1;
    if (b.size === null) return -1;
    return a.size - b.size;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
};
const byCreatedDescending: Comparator<Row> = (a, b) => (a.created_at !== b.created_at ? (a.created_at < b.created_at ? 1 : -1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const ORDERS: Record<string, Comparator<Row>> = { size: bySize, '-created_at': byCreatedDescending };

const fieldsArbitrary = fc.record({
  color: fc.constantFrom(...COLORS),
  size: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
  tags: fc.subarray(TAGS),
  created_at: fc.constantFrom('2026-01-01', '2026-01-02', '2026-01-03'),
});

/** One change to a collection: the model is the list of live records in insertion order. */
type Command =
  | { kind: 'insert'; organization: string; fields: Omit<Row, 'id' | 'organization_id' | 'modified_at'> }
  | { kind: 'update'; pick: number; fields: Partial<Row> }
  | { kind: 'delete'; pick: number }
  | { kind: 'read'; organization: string; order: string };

const commandArbitrary: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('insert' as const), organization: fc.constantFrom(...ORGANIZATIONS), fields: fieldsArbitrary }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), fields: fieldsArbitrary.chain((f) => fc.subarray(Object.keys(f) as (keyof typeof f)[]).map((keys) => Object.fromEntries(keys.map((k) => [k, f[k]])) as Partial<Row>)) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('read' as const), organization: fc.constantFrom(...ORGANIZATIONS), order: fc.constantFrom(...Object.keys(ORDERS)) }) },
);

/** Asserts that every index, order and organization list of the collection describes exactly the model's records. */
function expectConsistent(collection: Collection<Row>, model: Row[]): void {
  expect(collection.size).toBe(model.length);
  expect([...collection.all()]).toEqual(model);
  for (const organization of ORGANIZATIONS) {
    const own = model.filter((r) => r.organization_id === organization);
    expect(collection.inOrganization(organization)).toEqual(own);
    for (const [name, keys] of Object.entries(INDEX_KEYS)) {
      for (const value of [...COLORS, ...TAGS, 0, 1, 2, 3, null]) {
        const expected = own.filter((r) => keys(r).includes(value));
        expect(new Set(collection.filedUnder(name, organization, value))).toEqual(new Set(expected));
      }
      const present = new Set(own.flatMap((r) => keys(r)));
      expect(new Set(collection.valuesInOrganization(name, organization))).toEqual(present);
    }
    for (const [name, compare] of Object.entries(ORDERS)) expect(collection.sorted(organization, name, compare)).toEqual([...own].sort(compare));
  }
  for (const color of COLORS) {
    expect(new Set(collection.lookup('color', color))).toEqual(new Set(model.filter((r) => r.color === color)));
    expect(collection.count('color', color)).toBe(model.filter((r) => r.color === color).length);
  }
}

describe('Collection indexes and kept orders', () => {
  it('stay equal to a naive filter and sort through any sequence of inserts, updates and deletes', () => {
    fc.assert(
      fc.property(fc.array(commandArbitrary, { maxLength: 60 }), (commands) => {
        const collection = new Collection<Row>(INDEX_KEYS);
        const model: Row[] = [];
        let next = 0;
        for (const command of commands) {
          if (command.kind === 'insert') {
            const record: Row = { id: `r${String(next++).padStart(3, '0')}`, organization_id: command.organization, modified_at: null, ...command.fields, tags: [...command.fields.tags] };
            collection.insert(record);
            model.push(record);
          } else if (command.kind === 'update' && model.length > 0) {
            collection.update(model[command.pick % model.length]!, command.fields);
          } else if (command.kind === 'delete' && model.length > 0) {
            const [removed] = model.splice(command.pick % model.length, 1);
            expect(collection.delete(removed!.id)).toBe(removed);
          } else if (command.kind === 'read') {
            // Builds the order now, so that later changes must keep it.
            collection.sorted(command.organization, command.order, ORDERS[command.order]!);
          }
        }
        expectConsistent(collection, model);
      }),
      { seed: 20261122, numRuns: 300 },
    );
  });

  it('answers an empty set for a value or organization it has never seen, and clears everything', () => {
    const collection = new Collection<Row>(INDEX_KEYS);
    collection.insert({ id: 'x', organization_id: 'o1', created_at: '2026-01-01', modified_at: null, color: 'red', size: 1, tags: ['a', 'b'] });
    expect(collection.filedUnder('color', 'o2', 'red').size).toBe(0);
    expect(collection.filedUnder('color', 'o1', 'pink').size).toBe(0);
    expect(collection.isMultiValued('tags')).toBe(true);
    expect(collection.isMultiValued('color')).toBe(false);
    collection.clear();
    expectConsistent(collection, []);
  });

  it('refuses what would leave it inconsistent: an unknown index, a record it does not hold, a new id or organization', () => {
    const collection = new Collection<Row>(INDEX_KEYS);
    const record = collection.insert({ id: 'x', organization_id: 'o1', created_at: '2026-01-01', modified_at: null, color: 'red', size: 1, tags: [] });
    expect(() => collection.lookup('nope', 'x')).toThrow('no index nope');
    expect(() => collection.insert({ ...record })).toThrow('duplicate id x');
    expect(() => collection.update({ ...record }, { color: 'blue' })).toThrow('not stored');
    expect(() => collection.update(record, { organization_id: 'o2' })).toThrow('never change');
    expect(() => collection.update(record, { id: 'y' })).toThrow('never change');
    expect(collection.delete('y')).toBeUndefined();
  });

  it('rebuilds an order that reads another collection after that collection changes, and keeps it otherwise', () => {
    const changes = new ChangeCounter();
    const labels = new Collection<Row>({}, changes);
    const rows = new Collection<Row>({}, changes);
    const label = labels.insert({ id: 'l', organization_id: 'o1', created_at: '', modified_at: null, color: 'zzz', size: null, tags: [] });
    const row = (id: string, labelled: boolean): Row => ({ id, organization_id: 'o1', created_at: '', modified_at: null, color: labelled ? 'l' : 'mmm', size: null, tags: [] });
    // Sorts by the label's color for rows that point at it, by their own color otherwise.
    const colorOf = (r: Row) => (r.color === 'l' ? labels.get('l')!.color : r.color);
    const compare: Comparator<Row> = (a, b) => (colorOf(a) < colorOf(b) ? -1 : colorOf(a) > colorOf(b) ? 1 : a.id < b.id ? -1 : 1);
    rows.insert(row('a', true));
    rows.insert(row('b', false));
    expect(rows.sorted('o1', 'label', compare, true).map((r) => r.id)).toEqual(['b', 'a']);
    rows.insert(row('c', false));
    expect(rows.sorted('o1', 'label', compare, true).map((r) => r.id)).toEqual(['b', 'c', 'a']);
    labels.update(label, { color: 'aaa' });
    expect(rows.sorted('o1', 'label', compare, true).map((r) => r.id)).toEqual(['a', 'b', 'c']);
  });
});
