// pagination_defaults on hand-made exchanges: a list asked without page and limit answers as with
// page=1 and limit=10, the pair judged in either order; another first page fails, an error answer
// is not judged, and neither is a pair of other shapes (two explicit ones, other sort orders).
import { describe, expect, test } from 'vitest';
import { paginationDefaults } from '../../checks/pagination-defaults.js';
import { testApplicability } from './cases.js';
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

  // The pair's subject is the later answer: a client may ask the explicit page first.
  test.each([
    ['same first page, the explicit one first, passes', page(ten), page(ten, { page: '1', limit: '10' }), []],
    ['more than 10 items by default, the explicit one first, fails', page([...ten, 'id-10']), page(ten, { page: '1', limit: '10' }), ['defaults_differ']],
    ['another order, the explicit one first, fails', page([...ten].reverse()), page(ten, { page: '1', limit: '10' }), ['defaults_differ']],
  ] as const)('%s', async (_name, bare, explicit, kinds) => {
    expect(paginationDefaults.run(await context(), bare, [explicit]).map((f) => f.kind)).toEqual(kinds);
  });

  // [name, earlier, later]: pairs of list_two_shapes that are not the bare list and its explicit first page.
  test.each([
    ['two explicit shapes', page(ten, { page: '1', limit: '10' }), page([...ten].reverse(), { page: '1', limit: '20' })],
    ['the explicit first page asked twice', page(ten, { page: '1', limit: '10' }), page([...ten].reverse(), { page: '1', limit: '10' })],
    ['the bare list and page 2', page(ten), page([...ten].reverse(), { page: '2', limit: '10' })],
    ['the bare list and page 1 of 20', page(ten), page([...ten].reverse(), { page: '1', limit: '20' })],
    ['the bare list and a limit without page', page(ten), page([...ten].reverse(), { limit: '10' })],
    ['the bare list asked twice', page(ten), page([...ten].reverse())],
    ['another sort order', page(ten, { sorting: 'name' }), page([...ten].reverse(), { page: '1', limit: '10', sorting: '-name' })],
    ['a sort order on one side only', page(ten), page([...ten].reverse(), { page: '1', limit: '10', sorting: 'name' })],
  ] as const)('%s is not judged', async (_name, earlier, later) => {
    expect(paginationDefaults.run(await context(), later, [earlier])).toEqual([]);
    expect(paginationDefaults.run(await context(), earlier, [later])).toEqual([]);
  });

  test('the same sort order on both sides is judged', async () => {
    const bare = page([...ten].reverse(), { sorting: '-name' });
    const explicit = page(ten, { page: '1', limit: '10', sorting: '-name' });
    expect(paginationDefaults.run(await context(), explicit, [bare]).map((f) => f.kind)).toEqual(['defaults_differ']);
  });

  test('a list without its pair is not judged', async () => {
    expect(paginationDefaults.run(await context(), page(ten, { page: '1', limit: '10' }), [])).toEqual([]);
  });

  test('an error answer is not judged', async () => {
    const bare = exchange({ status: 401, body: { error: 'Unauthorized', detail: 'x' } });
    expect(paginationDefaults.run(await context(), page(ten, { page: '1', limit: '10' }), [bare])).toEqual([]);
  });
});

describe('applicability', () => {
  testApplicability([
    [paginationDefaults, 'products:list', true],
    [paginationDefaults, 'products:get', 'not a paginated list with page and limit'],
  ]);
});
