import { describe, expect, test } from 'vitest';
import { negativeDataRejection } from '../../checks/negative-data-rejection.js';
import { context, exchange, list } from './fixtures.js';

const negative = { location: 'query' as const, parameter: 'limit', mutation: 'type_mismatch', reason: 'limit must be a integer' };
const entry = (loc: (string | number)[]) => ({ detail: [{ loc, msg: 'bad', type: 'int_parsing' }] });

describe('negative_data_rejection', () => {
  test.each([
    ['422 pointing at the parameter passes', 422, entry(['query', 'limit']), []],
    ['422 pointing at an array item passes', 422, entry(['query', 'limit', 0]), []],
    ['422 pointing elsewhere fails', 422, entry(['query', 'page']), ['validation_loc_mismatch']],
    ['422 without detail fails', 422, { error: 'x' }, ['validation_loc_mismatch']],
    ['200 fails', 200, list([]), ['negative_data_accepted']],
    ['400 fails', 400, { error: 'bad' }, ['wrong_status_for_invalid_data']],
  ] as const)('%s', async (_name, status, body, kinds) => {
    const ctx = await context();
    const ex = exchange({ status, body, query: { limit: 'abc' } });
    ex.case.negative = negative;
    expect(negativeDataRejection.run(ctx, ex, []).map((f) => f.kind)).toEqual(kinds);
  });

  test('a case that is not negative is not judged', async () => {
    expect(negativeDataRejection.run(await context(), exchange({ status: 200, body: list([]) }), [])).toEqual([]);
  });
});

describe('negative_data_rejection on bodies and paths', () => {
  const body = { location: 'body' as const, parameter: 'invitation_token', mutation: 'missing_required', reason: 'invitation_token is required' };
  const path = { location: 'path' as const, parameter: 'id', mutation: 'format_violation', reason: 'id must be a uuid' };
  test.each([
    ['body: 422 at the field passes', 'customer_seats:claim', body, 422, entry(['body', 'invitation_token']), []],
    ['body: 422 elsewhere fails', 'customer_seats:claim', body, 422, entry(['query', 'x']), ['validation_loc_mismatch']],
    ['body: 200 fails', 'customer_seats:claim', body, 200, {}, ['negative_data_accepted']],
    ['body on an unsafe method: 404 accepted', 'products:update_benefits', { ...body, parameter: 'benefits' }, 404, { error: 'ResourceNotFound', detail: 'x' }, []],
    ['path: 422 at the parameter passes', 'orders:get_receipt', path, 422, entry(['path', 'id']), []],
    ['path: 404 accepted', 'orders:get_receipt', path, 404, { error: 'ResourceNotFound', detail: 'x' }, []],
    ['path: 200 fails', 'orders:get_receipt', path, 200, { url: 'x' }, ['negative_data_accepted']],
    ['form endpoint without 422: 400 passes', 'oauth2:token', { ...body, parameter: 'grant_type' }, 400, { error: 'invalid_request' }, []],
    ['form endpoint without 422: 200 fails', 'oauth2:token', { ...body, parameter: 'grant_type' }, 200, {}, ['negative_data_accepted']],
  ] as const)('%s', async (_name, operationId, negative, status, responseBody, kinds) => {
    const ex = exchange({ operationId, status, body: responseBody });
    ex.case.negative = negative;
    expect(negativeDataRejection.run(await context(operationId), ex, []).map((f) => f.kind)).toEqual(kinds);
  });
});
