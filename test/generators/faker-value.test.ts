// Contract tests of the faker-backed values: each kind is a pure function of its seed, has the
// shape its name promises, is chosen by format and property name, and never breaks its schema.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { FAKER_KINDS, fakerArbitrary, fakerDraw, fakerKindFor, realisticArbitrary, type FakerHint, type FakerKind } from '../../generators/faker-value.js';
import { schemaArbitrary } from '../../generators/schema-value.js';
import { schemaValidator } from '../../core/spec/schema-validator.js';
import { loadSpec } from '../../core/spec/load.js';

// The shape of each kind's values: [kind, predicate].
const shapes: Record<FakerKind, (v: string | number) => boolean> = {
  full_name: (v) => typeof v === 'string' && /^\S+( \S+)+$/.test(v),
  email: (v) => typeof v === 'string' && /^[^@\s]+@[a-z0-9.-]+\.[a-z]+$/.test(v),
  url: (v) => typeof v === 'string' && /^https?:\/\/[^\s/]+\.[a-z]+/.test(v),
  uuid: (v) => typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(v),
  date_time: (v) => typeof v === 'string' && /^20[23]\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/.test(v) && !Number.isNaN(Date.parse(v)),
  city: (v) => typeof v === 'string' && v.length > 1,
  country: (v) => typeof v === 'string' && /^[A-Z]{2}$/.test(v),
  state: (v) => typeof v === 'string' && /^[A-Z]{2}$/.test(v),
  postal_code: (v) => typeof v === 'string' && /^\d{5}(-\d{4})?$/.test(v),
  line1: (v) => typeof v === 'string' && /^\d+ \S/.test(v),
  line2: (v) => typeof v === 'string' && /\d/.test(v),
  product_name: (v) => typeof v === 'string' && /^\S+( \S+)+$/.test(v),
  description: (v) => typeof v === 'string' && v.length > 10,
  file_name: (v) => typeof v === 'string' && /^\S+\.\w+$/.test(v),
  mime_type: (v) => typeof v === 'string' && /^[a-z]+\/[\w.+-]+$/.test(v),
  external_id: (v) => typeof v === 'string' && /^cus_[a-z0-9]{14}$/.test(v),
  slug: (v) => typeof v === 'string' && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(v),
  token: (v) => typeof v === 'string' && /^[A-Za-z0-9]{32}$/.test(v),
  currency: (v) => typeof v === 'string' && /^[a-z]{3}$/.test(v),
  locale: (v) => typeof v === 'string' && /^[a-z]{2}(-[A-Z]{2})?$/.test(v),
  sha256_hex: (v) => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v),
  sha256_base64: (v) => typeof v === 'string' && Buffer.from(v, 'base64').length === 32,
  word: (v) => typeof v === 'string' && /^\S+$/.test(v),
  amount_cents: (v) => Number.isInteger(v) && (v as number) >= 100 && (v as number) <= 100_000,
  file_size: (v) => Number.isInteger(v) && (v as number) >= 1,
  count: (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 25,
};

describe('faker kinds', () => {
  test('every kind has a shape in this table', () => {
    expect(Object.keys(shapes).sort()).toEqual([...FAKER_KINDS].sort());
  });

  test.each(FAKER_KINDS.map((k) => [k]))('%s: same seed same value, values vary, each of its shape', (kind) => {
    const arb = fakerArbitrary(kind);
    const values = fc.sample(arb, { seed: 5, numRuns: 30 });
    expect(fc.sample(arb, { seed: 5, numRuns: 30 })).toEqual(values);
    expect(new Set(values).size).toBeGreaterThan(kind === 'locale' ? 3 : 10);
    for (const v of values) expect(shapes[kind](v), `${kind} ${v}`).toBe(true);
  });

  test('a value depends on its seed alone, not on what was drawn before', () => {
    const first = FAKER_KINDS.map((k) => fakerDraw(k, 1234));
    for (const k of FAKER_KINDS) fakerDraw(k, 99);
    expect([...FAKER_KINDS].reverse().map((k) => fakerDraw(k, 1234)).reverse()).toEqual(first);
  });
});

describe('fakerKindFor', () => {
  test.each<[string, FakerHint, FakerKind | undefined]>([
    ['format email', { type: 'string', format: 'email', name: 'contact' }, 'email'],
    ['format uri', { type: 'string', format: 'uri' }, 'url'],
    ['format uuid', { type: 'string', format: 'uuid', name: 'email' }, 'uuid'],
    ['format date-time', { type: 'string', format: 'date-time' }, 'date_time'],
    ['an unknown format wins over the name', { type: 'string', format: 'ipv4', name: 'email' }, undefined],
    ['email by name', { type: 'string', name: 'email' }, 'email'],
    ['customer_email', { type: 'string', name: 'customer_email' }, 'email'],
    ['billing_name', { type: 'string', name: 'billing_name' }, 'full_name'],
    ['name of a file', { type: 'string', name: 'name', siblings: ['name', 'mime_type', 'size'] }, 'file_name'],
    ['name of a customer', { type: 'string', name: 'name', siblings: ['name', 'email'] }, 'full_name'],
    ['name of anything else', { type: 'string', name: 'name', siblings: ['name', 'prices'] }, 'product_name'],
    ['country', { type: 'string', name: 'country' }, 'country'],
    ['postal_code', { type: 'string', name: 'postal_code' }, 'postal_code'],
    ['line1', { type: 'string', name: 'line1' }, 'line1'],
    ['price_currency', { type: 'string', name: 'price_currency' }, 'currency'],
    ['avatar_url', { type: 'string', name: 'avatar_url' }, 'url'],
    ['invitation_token', { type: 'string', name: 'invitation_token' }, 'token'],
    ['external_id', { type: 'string', name: 'external_id' }, 'external_id'],
    ['unknown name', { type: 'string', name: 'status' }, undefined],
    ['no name', { type: 'string' }, undefined],
    ['amount in cents', { type: 'integer', name: 'price_amount' }, 'amount_cents'],
    ['map of amounts', { type: 'integer', name: 'amounts' }, 'amount_cents'],
    ['amount_type is no amount', { type: 'integer', name: 'amount_type' }, undefined],
    ['file size', { type: 'integer', name: 'size' }, 'file_size'],
    ['seats', { type: 'integer', name: 'seats' }, 'count'],
    ['a number is left alone', { type: 'number', name: 'amount' }, undefined],
  ])('%s', (_name, hint, want) => {
    expect(fakerKindFor(hint)).toBe(want);
  });
});

describe('realisticArbitrary', () => {
  const plain = (maxLength: number) => fc.string({ maxLength });

  test('a faker value the schema refuses is replaced by a plain one', () => {
    const schema = { type: 'string', maxLength: 3 };
    const values = fc.sample(realisticArbitrary('full_name', plain(3), schemaValidator(schema)), { seed: 1, numRuns: 200 });
    for (const v of values) expect(v.length).toBeLessThanOrEqual(3);
  });

  test('faker values the schema accepts are used most of the time, deterministically', () => {
    const arb = realisticArbitrary('email', plain(5), schemaValidator({ type: 'string' }));
    const values = fc.sample(arb, { seed: 2, numRuns: 200 });
    expect(values.filter((v) => shapes.email(v)).length).toBeGreaterThan(100);
    expect(fc.sample(arb, { seed: 2, numRuns: 200 })).toEqual(values);
  });

  test('shrinking goes to the plain arbitrary', () => {
    const details = fc.check(fc.property(realisticArbitrary('description', plain(40), () => true), (s) => s.length < 3), { seed: 3 });
    expect(details.counterexample?.[0]).toHaveLength(3);
  });

  test('the enum and pattern of a schema keep faker out', () => {
    for (const schema of [{ type: 'string', enum: ['usd'] }, { type: 'string', pattern: '^[A-Z]{3}$' }]) {
      const valid = schemaValidator(schema);
      for (const v of fc.sample(schemaArbitrary({ type: 'object', required: ['currency'], properties: { currency: schema } }, { direction: 'request', realistic: true }), { seed: 4, numRuns: 100 })) {
        expect(valid((v as { currency: string }).currency)).toBe(true);
      }
    }
  });
});

describe('realistic bodies of the document', () => {
  test('an order billing update gets a real-looking name and address, and the same one for the same seed', async () => {
    const op = (await loadSpec()).operation('orders:update');
    const schema = op.raw.requestBody.content['application/json'].schema;
    const arb = schemaArbitrary(schema, { direction: 'request', realistic: true });
    const bodies = fc.sample(arb, { seed: 6, numRuns: 60 }) as { billing_name?: string | null; billing_address?: Record<string, unknown> | null }[];
    expect(fc.sample(arb, { seed: 6, numRuns: 60 })).toEqual(bodies);
    expect(bodies.some((b) => typeof b.billing_name === 'string' && shapes.full_name(b.billing_name))).toBe(true);
    const countries = bodies.map((b) => b.billing_address?.country).filter((c): c is string => typeof c === 'string');
    expect(countries.filter((c) => shapes.country(c)).length).toBeGreaterThan(countries.length / 2);
    expect(bodies.some((b) => typeof b.billing_address?.postal_code === 'string' && shapes.postal_code(b.billing_address.postal_code as string))).toBe(true);
  });

  test('open strings draw their known values', async () => {
    const op = (await loadSpec()).operation('oauth2:token');
    const schema = op.raw.requestBody.content['application/x-www-form-urlencoded'].schema;
    const grants = fc.sample(schemaArbitrary(schema, { direction: 'request', realistic: true }), { seed: 7, numRuns: 60 }).map((b) => (b as { grant_type: string }).grant_type);
    expect(grants.filter((g) => g === 'authorization_code' || g === 'refresh_token').length).toBeGreaterThan(30);
  });
});
