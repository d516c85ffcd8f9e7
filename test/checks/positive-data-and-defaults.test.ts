import { describe, expect, test } from 'vitest';
import { paginationDefaults } from '../../checks/pagination-defaults.js';
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

describe('pagination_defaults', () => {
  const page = (ids: string[], query: Record<string, string> = {}) => exchange({ query, body: list(ids.map((id) => ({ id })), 30, 3) });
  const ten = Array.from({ length: 10 }, (_, i) => `id-${i}`);
  test.each([
    ['same first page passes', page(ten), page(ten, { page: '1', limit: '10' }), []],
    ['more than 10 items by default fails', page([...ten, 'id-10']), page(ten, { page: '1', limit: '10' }), ['defaults_differ']],
    ['another order fails', page([...ten].reverse()), page(ten, { page: '1', limit: '10' }), ['defaults_differ']],
  ] as const)('%s', async (_name, bare, explicit, kinds) => {
    expect(paginationDefaults.run(await context(), explicit, [bare]).map((f) => f.kind)).toEqual(kinds);
  });

  test('an error answer is not judged', async () => {
    const bare = exchange({ status: 401, body: { error: 'Unauthorized', detail: 'x' } });
    expect(paginationDefaults.run(await context(), page(ten, { page: '1', limit: '10' }), [bare])).toEqual([]);
  });
});
