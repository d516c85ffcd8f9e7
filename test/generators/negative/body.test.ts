// Contract tests of the negative bodies: for every operation of both documents, each body fails
// the body schema and names a field of it, the body they start from is valid, and the same
// operation always gives the same bodies.
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { BODY_MUTATIONS, negativeBodies } from '../../../generators/negative/body.js';
import { schemaArbitrary } from '../../../generators/schema-value.js';
import type { ApiVersion, LoadedSpec, Operation } from '../../../core/spec/load.js';
import { loadBoth } from '../documents.js';
import { bodyAjv } from './support.js';

const parse = (media: string, text: string): Record<string, unknown> =>
  media === 'application/json' ? JSON.parse(text) : Object.fromEntries(new URLSearchParams(text));

describe('negativeBodies', () => {
  let specs: [ApiVersion, LoadedSpec][];
  beforeAll(async () => {
    specs = await loadBoth();
  });

  test('the operations with a body to break are the ones taking a JSON or form body with a required or typed field', () => {
    for (const [, spec] of specs) {
      const withBodies = spec.operations.filter((o) => negativeBodies(o).length > 0);
      expect(withBodies.map((o) => o.operationId).sort()).toEqual(
        // The order updates take only nullable, untyped-union fields with none required: nothing to break.
        ['customer_seats:claim', 'files:create', 'oauth2:introspect', 'oauth2:token', 'products:update_benefits'].sort(),
      );
    }
  });

  test('every negative body fails its body schema, names a top-level field, and keeps the media type', () => {
    let count = 0;
    for (const [version, spec] of specs) {
      for (const operation of spec.operations) {
        const bodies = negativeBodies(operation);
        if (bodies.length === 0) continue;
        const [media, content] = Object.entries(operation.raw.requestBody.content as Record<string, { schema: object }>)[0]!;
        const validate = bodyAjv.compile(content.schema);
        for (const body of bodies) {
          expect(body.contentType).toBe(media);
          expect(validate(parse(media, body.text)), `${version} ${operation.operationId} ${body.mutation} ${body.field}`).toBe(false);
          expect(JSON.stringify(content.schema)).toContain(`"${body.field}"`);
          count++;
        }
      }
    }
    expect(count).toBeGreaterThan(20);
  });

  test('the body each one starts from is valid and realistic: a claim carries a token, not an empty string', () => {
    const [, spec] = specs[0]!;
    const claim = spec.operation('customer_seats:claim');
    const schema = claim.raw.requestBody.content['application/json'].schema;
    const [base] = fc.sample(schemaArbitrary(schema, { direction: 'request', realistic: true }), { seed: 1, numRuns: 1 });
    expect(bodyAjv.validate(schema, base)).toBe(true);
    const wrong = negativeBodies(claim).find((b) => b.mutation === 'wrong_type')!;
    expect(JSON.parse(wrong.text)).toEqual({ ...(base as object), invitation_token: 12345 });
  });

  test('the same operation gives the same bodies, in mutation order', () => {
    const [, spec] = specs[0]!;
    const files: Operation = spec.operation('files:create');
    const bodies = negativeBodies(files);
    expect(negativeBodies(files)).toEqual(bodies);
    const order = bodies.map((b) => b.mutation);
    expect(order.indexOf('wrong_type')).toBeGreaterThan(order.lastIndexOf('missing_required'));
    expect(BODY_MUTATIONS).toHaveLength(2);
  });
});
