// Contract tests of the query-case arbitrary: determinism, validity against the parameter
// schemas, boundaries of page and limit, harvested values, shrinking.
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { limitArbitrary, queryCaseArbitrary } from '../../generators/query-case.js';
import { loadSpec } from '../../core/spec/load.js';
import { loadBoth } from './documents.js';

// Query values arrive as text: a server coerces them to the schema's types before validating.
const queryAjv = (ajvFormats.default as unknown as (a: Ajv2020) => Ajv2020)(new Ajv2020({ strict: false, coerceTypes: 'array' }));

describe('queryCaseArbitrary', () => {
  test('same seed, same cases', async () => {
    const op = (await loadSpec()).operation('subscriptions:list');
    const arb = queryCaseArbitrary(op);
    expect(fc.sample(arb, { seed: 11, numRuns: 30 })).toEqual(fc.sample(arb, { seed: 11, numRuns: 30 }));
  });

  test('limit covers the bounds, the default and values above the maximum', () => {
    const values = new Set(fc.sample(limitArbitrary({ minimum: 1, maximum: 100, default: 10 }), { seed: 1, numRuns: 2000 }));
    for (const v of [1, 2, 10, 99, 100, 101, 1000]) expect(values.has(v), `limit ${v}`).toBe(true);
    expect([...values].every((v) => v >= 1 && (v <= 100 || v === 101 || v === 1000))).toBe(true);
  });

  test('harvested values are used for filters and metadata', async () => {
    const op = (await loadSpec()).operation('products:list');
    const harvest = { parameters: { organization_id: ['org-1'], visibility: ['draft'] }, metadata: { tier: ['gold'] } };
    const cases = fc.sample(queryCaseArbitrary(op, { harvest }), { seed: 2, numRuns: 500 });
    expect(cases.some((c) => c.organization_id === 'org-1')).toBe(true);
    expect(cases.some((c) => c['metadata[tier]'] === 'gold')).toBe(true);
    expect(cases.some((c) => c.visibility === 'draft' || (Array.isArray(c.visibility) && c.visibility.includes('draft')))).toBe(true);
  });

  test('omitted parameters never appear, and values are query strings', async () => {
    const op = (await loadSpec()).operation('products:list');
    for (const c of fc.sample(queryCaseArbitrary(op, { omit: ['page'] }), { seed: 3, numRuns: 300 })) {
      expect(c.page).toBeUndefined();
      for (const v of Object.values(c)) expect(typeof v === 'string' || (Array.isArray(v) && v.every((s) => typeof s === 'string'))).toBe(true);
    }
  });

  test('shrinking drops parameters first', async () => {
    const op = (await loadSpec()).operation('products:list');
    const details = fc.check(fc.property(queryCaseArbitrary(op), (q) => q.is_archived === undefined), { seed: 4 });
    expect(details.counterexample?.[0]).toEqual({ is_archived: expect.any(String) });
  });
});

describe('queryCaseArbitrary on both documents', () => {
  test('every operation: same seed, same cases; every value valid against its parameter (limit may exceed its maximum)', async () => {
    let checked = 0;
    for (const [version, spec] of await loadBoth()) {
      for (const op of spec.operations.filter((o) => o.parameters.some((p) => p.in === 'query'))) {
        const arb = queryCaseArbitrary(op);
        const cases = fc.sample(arb, { seed: 12, numRuns: 25 });
        expect(fc.sample(arb, { seed: 12, numRuns: 25 }), `${version} ${op.operationId}`).toEqual(cases);
        for (const query of cases) {
          for (const [name, value] of Object.entries(query)) {
            const param = op.parameters.find((p) => p.in === 'query' && p.name === name)!;
            const { maximum: _above, ...withoutMaximum } = param.schema;
            const schema = name === 'limit' ? withoutMaximum : param.schema;
            expect(queryAjv.validate(schema, structuredClone(value)), `${version} ${op.operationId} ${name}=${JSON.stringify(value)}`).toBe(true);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(200);
  });
});

describe('query values', () => {
  test('a nullable parameter is never sent as the text null', () => {
    const op = {
      operationId: 'x', method: 'GET', path: '/x', tags: [], responseStatuses: ['200'], responseMediaTypes: {}, security: [], scopes: [], paginated: false, raw: {},
      parameters: [{ name: 'benefit_id', in: 'query' as const, required: true, style: 'form', explode: true, schema: { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'null' }] } }],
    };
    for (const q of fc.sample(queryCaseArbitrary(op), { seed: 1, numRuns: 200 })) expect(q.benefit_id).not.toBe('null');
  });
});
