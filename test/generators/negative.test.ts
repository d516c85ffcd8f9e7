// Contract tests of the negative mutations: every negative value fails the parameter's schema
// (after the query-string coercion a server applies), and limit above its maximum is never one.
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import { MUTATIONS, negativeCases } from '../../generators/negative/index.js';
import type { Parameter } from '../../spec/load.js';
import { loadSpec } from '../../spec/load.js';

// Query values arrive as text, so their validator coerces like a server would; bodies are JSON
// (or form text) and are validated as they are.
const ajv = new Ajv2020({ strict: false, coerceTypes: 'array' });
(ajvFormats.default as unknown as (a: unknown) => void)(ajv);
const bodyAjv = new Ajv2020({ strict: false });
(ajvFormats.default as unknown as (a: unknown) => void)(bodyAjv);

const param = (name: string, schema: Record<string, unknown>): Parameter => ({ name, in: 'query', required: false, schema, style: 'form', explode: true });

describe('mutations', () => {
  test.each([
    ['integer with bounds', param('page', { type: 'integer', minimum: 1 }), ['type_mismatch', 'below_minimum']],
    ['limit: above maximum is left out', param('limit', { type: 'integer', minimum: 1, maximum: 100 }), ['type_mismatch', 'below_minimum']],
    ['other maximum is kept', param('count', { type: 'integer', maximum: 5 }), ['type_mismatch', 'above_maximum']],
    ['boolean', param('is_archived', { type: 'boolean' }), ['type_mismatch']],
    ['closed enum array', param('visibility', { type: 'array', items: { type: 'string', enum: ['draft', 'public'] } }), ['enum_violation']],
    ['uuid or uuids', param('id', { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'array', items: { type: 'string', format: 'uuid' } }] }), ['format_violation']],
    ['date-time', param('started_after', { type: 'string', format: 'date-time' }), ['format_violation']],
    ['plain string: nothing is invalid', param('query', { type: 'string' }), []],
    ['open string: nothing is invalid', param('status', { type: 'string', 'x-known-values': ['granted'] }), []],
  ] as const)('%s', (_name, parameter, kinds) => {
    const values = MUTATIONS.flatMap((m) => m(parameter as Parameter));
    expect(values.map((v) => v.mutation)).toEqual(kinds);
    const validate = ajv.compile(parameter.schema);
    for (const v of values) expect(validate(v.value), `${v.mutation} ${v.value}`).toBe(false);
  });

  test('every negative case of the bundled spec fails its parameter schema', async () => {
    const spec = await loadSpec();
    let count = 0;
    for (const operation of spec.operations) {
      for (const c of negativeCases(operation).filter((n) => n.location === 'query')) {
        const schema = operation.parameters.find((p) => p.name === c.parameter)!.schema;
        expect(ajv.validate(schema, c.query[c.parameter]), `${operation.operationId} ${c.parameter}=${c.query[c.parameter]}`).toBe(false);
        count++;
      }
    }
    expect(count).toBeGreaterThan(20);
  });
});

describe('negative bodies and paths', () => {
  test('every negative body of the bundled spec fails its body schema, and names a field of it', async () => {
    const spec = await loadSpec();
    const withBodies = spec.operations.filter((o) => negativeCases(o).some((c) => c.location === 'body'));
    expect(withBodies.map((o) => o.operationId).sort()).toEqual(
      // The order updates take only nullable, untyped-union fields with none required: nothing to break.
      ['customer_seats:claim', 'files:create', 'oauth2:introspect', 'oauth2:token', 'products:update_benefits'].sort(),
    );
    for (const operation of withBodies) {
      const [media, content] = Object.entries(operation.raw.requestBody.content as Record<string, { schema: object }>)[0]!;
      const validate = bodyAjv.compile(content.schema);
      for (const c of negativeCases(operation).filter((n) => n.location === 'body')) {
        const body = media === 'application/json' ? JSON.parse(c.body!.text) : Object.fromEntries(new URLSearchParams(c.body!.text));
        expect(validate(body), `${operation.operationId} ${c.mutation} ${c.parameter}`).toBe(false);
        expect(c.body!.contentType).toBe(media);
      }
    }
  });

  test('a uuid path parameter gets a malformed value', async () => {
    const op = (await loadSpec()).operation('orders:get_receipt');
    expect(negativeCases(op).filter((c) => c.location === 'path')).toEqual([
      { query: {}, path: { id: 'not-a-uuid' }, location: 'path', parameter: 'id', mutation: 'format_violation', reason: 'id must be a uuid' },
    ]);
  });
});
