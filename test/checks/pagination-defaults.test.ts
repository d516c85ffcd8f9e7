// pagination_defaults on hand-made exchanges: a list asked without page and limit answers as with
// page=1 and limit=10; another first page fails, an error answer is not judged.
import { describe, expect, test } from 'vitest';
import { paginationDefaults } from '../../checks/pagination-defaults.js';
import { context, exchange, list } from './fixtures.js';

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
