// Contract tests of the generators' schema predicate: the document dialect, formats, caching.
import { describe, expect, test } from 'vitest';
import { acyclic, MAX_RECURSION, MAX_UNROLLED_NODES, schemaValidator } from '../../../core/spec/schema-validator.js';

describe('schemaValidator', () => {
  test.each([
    ['type array with null', { type: ['string', 'null'] }, [['a', true], [null, true], [1, false]]],
    ['nullable of OpenAPI 3.0', { type: 'string', nullable: true }, [[null, true], ['a', true], [2, false]]],
    ['uuid format', { type: 'string', format: 'uuid' }, [['0b8a0f36-0d1c-4c39-9d3e-6b1f6a1e7c11', true], ['not-a-uuid', false]]],
    ['date-time format', { type: 'string', format: 'date-time' }, [['2026-02-28T02:21:09.482823Z', true], ['2026-13-45T25:61:00Z', false]]],
    ['an unknown format is an annotation', { type: 'string', format: 'x-thing' }, [['anything', true]]],
    ['extensions and discriminator are annotations', { type: 'object', 'x-known-values': ['a'], discriminator: { propertyName: 'k' } }, [[{}, true]]],
    ['if/then', { if: { properties: { legacy: { const: true } }, required: ['legacy'] }, then: { required: ['type'] } }, [[{ legacy: true }, false], [{ legacy: false }, true], [{ legacy: true, type: 'x' }, true]]],
    ['boolean schemas', true, [[1, true]]],
    ['false', false, [[1, false]]],
  ] as [string, object | boolean, [unknown, boolean][]][])('%s', (_name, schema, cases) => {
    const valid = schemaValidator(schema as never);
    for (const [value, want] of cases) expect(valid(value), JSON.stringify(value)).toBe(want);
  });

  test('one compiled predicate per schema object and per schema text', () => {
    const schema = { type: 'integer', minimum: 3 };
    expect(schemaValidator(schema)).toBe(schemaValidator(schema));
    expect(schemaValidator({ type: 'integer', minimum: 3 })).toBe(schemaValidator(schema));
    expect(schemaValidator({ type: 'integer', minimum: 4 })).not.toBe(schemaValidator(schema));
  });

  test('a circular schema is checked to MAX_RECURSION levels, any value below', () => {
    const node: Record<string, any> = { type: 'object', properties: { n: { type: 'integer' } } };
    node.properties.next = node;
    const valid = schemaValidator(node);
    let deep: Record<string, unknown> = { n: 'not checked this deep' };
    for (let i = 0; i < MAX_RECURSION; i++) deep = { n: i, next: deep };
    expect(valid({ n: 1, next: { n: 2 } })).toBe(true);
    expect(valid({ n: 1, next: { n: 'two' } })).toBe(false);
    expect(valid(deep)).toBe(true);
  });

  test('a schema whose cycles cross each other is unrolled to fewer levels, within MAX_UNROLLED_NODES objects', () => {
    // Six schemas that each link to all six, with a few fields each: unrolled to MAX_RECURSION
    // levels per schema, the copy would hold millions of objects (the product of the cycles).
    const nodes = Array.from({ length: 6 }, (_, i): Record<string, any> => ({ type: 'object', properties: { [`field${i}`]: { type: 'integer' } } }));
    for (const node of nodes) nodes.forEach((other, j) => (node.properties[`link${j}`] = other));
    const count = (node: unknown): number => (!node || typeof node !== 'object' ? 0 : 1 + Object.values(node).reduce((sum: number, value) => sum + count(value), 0));
    const copy = acyclic(nodes[0]!);
    expect(count(copy)).toBeLessThanOrEqual(MAX_UNROLLED_NODES);
    // Still checked at its first levels: a wrong field one link down is refused.
    const valid = schemaValidator(nodes[0]!);
    expect(valid({ field0: 1, link1: { field1: 2 } })).toBe(true);
    expect(valid({ field0: 1, link1: { field1: 'two' } })).toBe(false);
  });

  test('a circular schema small enough keeps every level (the copy is the same as before the bound)', () => {
    const node: Record<string, any> = { type: 'object', properties: { n: { type: 'integer' } } };
    node.properties.next = node;
    let depth = 0;
    for (let at: any = acyclic(node); at !== true; at = at.properties.next) depth++;
    expect(depth).toBe(MAX_RECURSION);
  });
});
