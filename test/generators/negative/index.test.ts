// Contract tests of the negative cases of an operation: every query case of both documents fails
// its parameter schema (after the coercion a server applies), path cases break the format, and
// the arbitrary over them is deterministic.
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { negativeCaseArbitrary, negativeCases } from '../../../generators/negative/index.js';
import type { ApiVersion, LoadedSpec, Operation } from '../../../core/spec/load.js';
import { loadBoth } from '../documents.js';
import { queryAjv } from './support.js';

describe('negativeCases', () => {
  let specs: [ApiVersion, LoadedSpec][];
  beforeAll(async () => {
    specs = await loadBoth();
  });

  test('every negative query case of both documents fails its parameter schema', () => {
    const kinds = new Set<string>();
    for (const [version, spec] of specs) {
      let count = 0;
      for (const operation of spec.operations) {
        for (const c of negativeCases(operation).filter((n) => n.location === 'query')) {
          const schema = operation.parameters.find((p) => p.name === c.parameter)!.schema;
          expect(queryAjv.validate(schema, c.query[c.parameter]), `${version} ${operation.operationId} ${c.parameter}=${c.query[c.parameter]}`).toBe(false);
          kinds.add(c.mutation);
          count++;
        }
      }
      expect(count).toBeGreaterThan(20);
    }
    expect([...kinds].sort()).toEqual(['below_minimum', 'enum_violation', 'format_violation', 'type_mismatch']);
  });

  test('a deepObject parameter gets no negative case', () => {
    const [, spec] = specs[0]!;
    const op = spec.operation('products:list');
    const deep = op.parameters.filter((p) => p.style === 'deepObject').map((p) => p.name);
    expect(deep.length).toBeGreaterThan(0);
    expect(negativeCases(op).filter((c) => deep.includes(c.parameter))).toEqual([]);
  });

  test('a uuid path parameter gets a malformed value', () => {
    const [, spec] = specs[0]!;
    expect(negativeCases(spec.operation('orders:get_receipt')).filter((c) => c.location === 'path')).toEqual([
      { query: {}, path: { id: 'not-a-uuid' }, location: 'path', parameter: 'id', mutation: 'format_violation', reason: 'id must be a uuid' },
    ]);
  });

  test('the arbitrary draws every case, the same ones for the same seed', () => {
    const [, spec] = specs[0]!;
    const op = spec.operation('products:list');
    const arb = negativeCaseArbitrary(op)!;
    const drawn = fc.sample(arb, { seed: 8, numRuns: 300 });
    expect(fc.sample(arb, { seed: 8, numRuns: 300 })).toEqual(drawn);
    expect(new Set(drawn.map((c) => `${c.parameter} ${c.mutation}`)).size).toBe(negativeCases(op).length);
  });

  test('an operation with nothing to break has no arbitrary', () => {
    const plain: Operation = {
      operationId: 'x:list', method: 'GET', path: '/x', tags: [], responseStatuses: ['200'], responseMediaTypes: {}, security: [], scopes: [], paginated: false, raw: {},
      parameters: [{ name: 'query', in: 'query', required: false, style: 'form', explode: true, schema: { type: 'string' } }],
    };
    expect(negativeCases(plain)).toEqual([]);
    expect(negativeCaseArbitrary(plain)).toBeUndefined();
  });
});
