// The two layers of checks: the bundled API's rules are not applicable on a document without them,
// applicable as before on the bundled one; the generic checks judge another document by OpenAPI alone.
import { describe, expect, test } from 'vitest';
import { API_RULE_CHECKS, CHECKS } from '../../checks/index.js';
import { NOT_THIS_API } from '../../checks/layers.js';
import { invalidAuthRejected } from '../../checks/invalid-auth-rejected.js';
import { negativeDataRejection } from '../../checks/negative-data-rejection.js';
import { positiveDataAcceptance } from '../../checks/positive-data-acceptance.js';
import { CONFORMANCE_CLASSES, type CheckContext } from '../../core/types.js';
import { context, exchange, list } from './fixtures.js';

/** The context of a bundled operation as another document would have it: same shapes, no API rules. */
async function elsewhere(operationId = 'products:list'): Promise<CheckContext> {
  const ctx = await context(operationId);
  return { spec: { ...ctx.spec, apiRules: false }, operation: { ...ctx.operation, apiRules: false } };
}

describe('layers', () => {
  test('every check carries its facts: a layer, the evidence it judges, a conformance class and a level', () => {
    for (const check of CHECKS) {
      expect(['generic', 'api'], check.id).toContain(check.layer);
      expect(['exchange', 'pair', 'walk', 'probe'], check.id).toContain(check.evidence);
      expect(check.pair === undefined, check.id).toBe(check.evidence !== 'pair');
      expect(CONFORMANCE_CLASSES, check.id).toContain(check.conformanceClass);
      expect(['must', 'should'], check.id).toContain(check.level);
    }
    // The checks the judging path applies to every exchange are staged, in their own cells, as one exchange.
    expect(CHECKS.filter((c) => c.evidence === 'exchange').every((c) => c.needs === 'exchange')).toBe(true);
  });

  test('every registered check is in one layer, and the API-rule ids are registered checks', () => {
    const ids = CHECKS.map((c) => c.id);
    for (const id of API_RULE_CHECKS) expect(ids).toContain(id);
    expect(CHECKS.filter((c) => c.layer === 'generic').map((c) => c.id)).toEqual([
      'not_a_server_error', 'status_code_conformance', 'content_type_conformance', 'response_schema_conformance', 'response_headers_conformance',
      'sorting_respected', 'filter_respected', 'positive_data_acceptance', 'negative_data_rejection', 'not_found_error_body',
      'missing_auth_rejected', 'invalid_auth_rejected',
    ]);
  });

  test.each([...API_RULE_CHECKS])('%s is not applicable on a document without the bundled API\'s rules', async (id) => {
    const check = CHECKS.find((c) => c.id === id)!;
    for (const operationId of ['products:list', 'subscriptions:list', 'orders:get_receipt', 'customer_portal:license_keys:list']) {
      expect(check.appliesTo!(await elsewhere(operationId))).toBe(NOT_THIS_API);
    }
  });

  test.each([...API_RULE_CHECKS])('%s applies on the bundled document where its own appliesTo says so', async (id) => {
    const check = CHECKS.find((c) => c.id === id)!;
    const applies = await Promise.all(['products:list', 'subscriptions:list', 'orders:get_receipt', 'customer_portal:license_keys:list'].map(async (o) => check.appliesTo!(await context(o))));
    expect(applies).not.toContain(NOT_THIS_API);
  });
});

describe('generic checks on another document', () => {
  const negative = { location: 'query' as const, parameter: 'limit', mutation: 'type_mismatch', reason: 'limit must be a integer' };

  test.each([
    ['400 passes', 400, { message: 'bad' }, []],
    ['422 without a loc passes', 422, { message: 'bad' }, []],
    ['any 4xx passes, 404 too', 404, { message: 'x' }, []],
    ['200 fails', 200, list([]), ['negative_data_accepted']],
    ['500 fails', 500, {}, ['wrong_status_for_invalid_data']],
  ] as const)('negative_data_rejection: %s', async (_name, status, body, kinds) => {
    const ex = exchange({ status, body, query: { limit: 'abc' } });
    ex.case.negative = negative;
    expect(negativeDataRejection.run(await elsewhere(), ex, []).map((f) => f.kind)).toEqual(kinds);
  });

  test('negative_data_rejection keeps the loc rule on the bundled document', async () => {
    const ex = exchange({ status: 422, body: { message: 'bad' }, query: { limit: 'abc' } });
    ex.case.negative = negative;
    expect(negativeDataRejection.run(await context(), ex, []).map((f) => f.kind)).toEqual(['validation_loc_mismatch']);
  });

  test.each([
    ['401', 401, []],
    ['403 (an API-key scheme refusing)', 403, []],
    ['400', 400, ['wrong_status_for_missing_auth']],
    ['200', 200, ['ignored_auth']],
  ] as const)('invalid_auth_rejected: %s', async (_name, status, kinds) => {
    // Bodies as the (borrowed) bundled operation documents them for the status.
    const ex = exchange({ status, body: { error: status === 403 ? 'NotPermitted' : 'Unauthorized', detail: 'no' }, role: null });
    expect(invalidAuthRejected.run(await elsewhere(), ex, []).map((f) => f.kind)).toEqual(kinds);
  });

  test('invalid_auth_rejected asks for 401 on the bundled document', async () => {
    expect(invalidAuthRejected.run(await context(), exchange({ status: 403, body: { error: 'Forbidden', detail: 'x' }, role: null }), []).map((f) => f.kind)).toEqual(['wrong_status_for_missing_auth']);
  });

  test.each([
    ['valid parameters refused with 422 fail', { limit: '5', visibility: 'public' }, 422, ['valid_data_rejected']],
    ['a value its schema rejects is no positive case', { limit: '500' }, 422, []],
    ['an undeclared parameter decides nothing', { nope: '1' }, 400, []],
    ['valid parameters served pass', { limit: '5' }, 200, []],
  ] as const)('positive_data_acceptance: %s', async (_name, query, status, kinds) => {
    const ctx = await elsewhere();
    expect(positiveDataAcceptance.appliesTo!(ctx)).toBe(true);
    expect(positiveDataAcceptance.run(ctx, exchange({ status, body: { message: 'x' }, query: { ...query } }), []).map((f) => f.kind)).toEqual(kinds);
  });
});
