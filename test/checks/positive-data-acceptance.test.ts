// positive_data_acceptance on hand-made exchanges: valid data answered 2xx passes, refused with 400
// or 422 fails; refusals the API allows (limit above 100, invalid values) are not judged.
import { describe, expect, test } from 'vitest';
import { positiveDataAcceptance } from '../../checks/positive-data-acceptance.js';
import { context, exchange, items, list } from './fixtures.js';

describe('positive_data_acceptance', () => {
  test.each([
    ['200 passes', { limit: '5' }, 200, list(items(5), 20, 4, 5), []],
    ['a documented 404 is not judged', { benefit_id: '6a1c1b54-0a5c-4a43-9d5e-4e3f0c1d2a11' }, 404, { error: 'ResourceNotFound', detail: 'x' }, []],
    ['422 for valid data fails', { visibility: 'public' }, 422, { detail: [{ loc: ['query', 'visibility'], msg: 'x', type: 'enum' }] }, ['valid_data_rejected']],
    ['400 for valid data fails', { limit: '100' }, 400, { error: 'bad' }, ['valid_data_rejected']],
    ['limit above 100 may be refused', { limit: '101' }, 422, { detail: [] }, []],
    ['invalid limit is not judged', { limit: 'abc' }, 422, { detail: [] }, []],
    ['page 0 is not judged', { page: '0' }, 422, { detail: [] }, []],
  ] as const)('%s', async (_name, query, status, body, kinds) => {
    const findings = positiveDataAcceptance.run(await context(), exchange({ query: { ...query }, status, body }), []);
    expect(findings.map((f) => f.kind)).toEqual(kinds);
  });
});
