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
