// version_fields: in a 2026-04 run no product carries is_deletable (listed, or embedded in a
// subscription); in a 2026-10 run every one does (judged here, not handed to the schema check);
// other operations and versions do not apply.
import { describe, expect, test } from 'vitest';
import { versionFields } from '../../checks/version-fields.js';
import type { CheckContext } from '../../core/types.js';
import { loadSpec, specPath } from '../../core/spec/load.js';
import { exchange, list, type ExchangeShape } from './fixtures.js';

const [latest, earlier] = await Promise.all([loadSpec(), loadSpec(specPath('2026-04'))]);
const ctx = (spec = earlier, operationId = 'products:list'): CheckContext => ({ spec, operation: spec.operation(operationId) });

const product = (id: string, extra: Record<string, unknown> = {}) => ({ id, name: `product ${id}`, ...extra });
const subscription = (id: string, embedded: Record<string, unknown>) => ({ id, product_id: embedded.id, product: embedded });

describe('version_fields', () => {
  // [name, operationId, exchange, expected kinds ([] = passes)]
  test.each<[string, string, ExchangeShape, string[]]>([
    ['2026-04 products without is_deletable pass', 'products:list', { body: list([product('a'), product('b')]) }, []],
    ['a 2026-04 product with is_deletable fails', 'products:list', { body: list([product('a'), product('b', { is_deletable: true })]) }, ['field_of_other_version']],
    ['is_deletable null is still carried', 'products:list', { body: list([product('a', { is_deletable: null })]) }, ['field_of_other_version']],
    ['a product embedded in a 2026-04 subscription with is_deletable fails', 'subscriptions:list', { operationId: 'subscriptions:list', body: list([subscription('s1', product('a')), subscription('s2', product('b', { is_deletable: false }))]) }, ['field_of_other_version']],
    ['products embedded in subscriptions without it pass', 'subscriptions:list', { operationId: 'subscriptions:list', body: list([subscription('s1', product('a'))]) }, []],
    ['the benefits update answers one product: with is_deletable it fails', 'products:update_benefits', { operationId: 'products:update_benefits', body: product('a', { is_deletable: false }) }, ['field_of_other_version']],
    ['an error answer is not judged', 'products:list', { status: 422, body: { detail: [{ loc: ['query', 'is_deletable'], msg: 'x', type: 'y' }] } }, []],
    ['no answer is not judged', 'products:list', { transportError: { code: 'CNF_TIMEOUT', message: 'no answer' } }, []],
  ])('%s', (_name, operationId, shape, expected) => {
    expect(versionFields.appliesTo!(ctx(earlier, operationId))).toBe(true);
    expect(versionFields.run(ctx(earlier, operationId), exchange({ operationId, ...shape }), []).map((f) => f.kind)).toEqual(expected);
  });

  test('the finding names the products that carry the field', () => {
    const [finding] = versionFields.run(ctx(), exchange({ body: list([product('a'), product('b', { is_deletable: true })]) }), []);
    expect(finding).toMatchObject({ actual: [{ id: 'b', is_deletable: true }], message: expect.stringContaining('"b"') });
  });

  test.each<[string, string, ExchangeShape, string[]]>([
    ['2026-10 products with is_deletable pass', 'products:list', { body: list([product('a', { is_deletable: true }), product('b', { is_deletable: false })]) }, []],
    ['a 2026-10 product without is_deletable fails', 'products:list', { body: list([product('a', { is_deletable: true }), product('b')]) }, ['version_field_missing']],
    ['a product embedded in a 2026-10 subscription without it fails', 'subscriptions:list', { operationId: 'subscriptions:list', body: list([subscription('s1', product('a'))]) }, ['version_field_missing']],
  ])('2026-10: %s', (_name, operationId, shape, expected) => {
    expect(versionFields.appliesTo!(ctx(latest, operationId))).toBe(true);
    expect(versionFields.run(ctx(latest, operationId), exchange({ operationId, ...shape }), []).map((f) => f.kind)).toEqual(expected);
  });

  test.each<[string, CheckContext, RegExp]>([
    ['an operation without products', ctx(earlier, 'refunds:list'), /no record whose fields differ/],
    ['a document of another version', { ...ctx(), spec: { ...earlier, version: '1.0.0' } }, /version "1\.0\.0" is none/],
  ])('does not apply to %s', (_name, context, reason) => {
    expect(versionFields.appliesTo!(context)).toMatch(reason);
  });
});
