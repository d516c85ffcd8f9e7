import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectConforms, testServer, type TestServer } from '../../support.js';

let server: TestServer;
let productId: string;
let own: string[];

beforeAll(async () => {
  server = await testServer({ clock: () => new Date('2026-06-01T12:00:00Z') });
});

beforeEach(() => {
  server.control.reset();
  productId = server.fixtures.product_id!;
  own = server.store.benefits.inOrganization(server.fixtures.organization_id!).filter((b) => !b.is_deleted).map((b) => b.id);
});

const update = (benefits: unknown[], as: 'admin' | 'oidc' | 'other_org' = 'admin', id = productId) => server.send('POST', `/v1/products/${id}/benefits`, { as, json: { benefits } });
const benefitIds = (body: any) => body.benefits.map((b: { id: string }) => b.id);

describe('products:update_benefits', () => {
  it('replaces the set and answers the product with its new benefits and is_deletable', async () => {
    const response = await update([own[3], own[1]]);
    expect(response.statusCode).toBe(200);
    expectConforms(server, 'products:update_benefits', response);
    expect(benefitIds(response.json())).toEqual([own[3], own[1]]);
    expect(response.json()).toHaveProperty('is_deletable');
    expect(server.store.products.get(productId)!.benefit_ids).toEqual([own[3], own[1]]);
    const listed = (await server.get('/v1/products/', { benefit_id: own[3]!, id: productId })).json();
    expect(listed.pagination.total_count).toBe(1);
  });

  it('treats the body as a set: duplicates collapse, order does not matter, and repeating it changes nothing', async () => {
    const first = (await update([own[0], own[2], own[0], own[2]!.toUpperCase()])).json();
    expect(benefitIds(first)).toEqual([own[0], own[2]]);
    const events = server.store.events.length;
    const again = (await update([own[2], own[0]])).json();
    expect(new Set(benefitIds(again))).toEqual(new Set([own[0], own[2]]));
    expect(again).toEqual(first);
    expect(server.store.events.length).toBe(events);
  });

  it('emits product.updated and sets modified_at only when the set changes', async () => {
    const before = server.store.products.get(productId)!.modified_at;
    await update(server.store.products.get(productId)!.benefit_ids);
    expect(server.store.products.get(productId)!.modified_at).toBe(before);
    expect(server.control.events('product.updated')).toHaveLength(0);
    await update([]);
    expect(server.store.products.get(productId)!.modified_at).toBe('2026-06-01T12:00:00.000000Z');
    const [event] = server.control.events('product.updated');
    expect(event!.data).toMatchObject({ id: productId, benefits: [] });
  });

  it('accepts an empty set and an oidc token', async () => {
    const response = await update([], 'oidc');
    expect(response.statusCode).toBe(200);
    expect(response.json().benefits).toEqual([]);
  });

  it.each<[string, () => unknown[], number[]]>([
    ['another organization\'s benefit', () => [own[0], server.fixtures.other_organization_benefit_id], [1]],
    ['an unknown benefit', () => ['00000000-0000-4000-8000-000000000000', own[0]], [0]],
    ['several bad benefits', () => [server.fixtures.other_organization_benefit_id, own[0], '00000000-0000-4000-8000-000000000001'], [0, 2]],
  ])('refuses %s with 422 at each index and changes nothing', async (_name, benefits, indexes) => {
    const before = structuredClone(server.store.products.get(productId)!);
    const events = server.store.events.length;
    const response = await update(benefits());
    expect(response.statusCode).toBe(422);
    expectConforms(server, 'products:update_benefits', response);
    expect(response.json().detail.map((entry: { loc: unknown[] }) => entry.loc)).toEqual(indexes.map((i) => ['body', 'benefits', i]));
    expect(server.store.products.get(productId)).toEqual(before);
    expect(server.store.events.length).toBe(events);
  });

  it('refuses a deleted benefit', async () => {
    server.store.benefits.get(own[0]!)!.is_deleted = true;
    expect((await update([own[0]])).statusCode).toBe(422);
  });

  it.each<[string, unknown, (string | number)[]]>([
    ['benefits missing', {}, ['body', 'benefits']],
    ['benefits not a list', { benefits: 'x' }, ['body', 'benefits']],
    ['an id that is not a uuid', { benefits: ['x'] }, ['body', 'benefits', 0]],
    ['an id that is a number', { benefits: ['OWN', 7] }, ['body', 'benefits', 1]],
  ])('validates the body: %s', async (_name, body, loc) => {
    const json = JSON.parse(JSON.stringify(body).replace('"OWN"', JSON.stringify(own[0])));
    const response = await server.send('POST', `/v1/products/${productId}/benefits`, { json });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail[0].loc).toEqual(loc);
  });

  it('answers another organization\'s product exactly like a missing one', async () => {
    const foreign = await update([], 'admin', server.fixtures.other_product_id!);
    const missing = await update([], 'admin', '00000000-0000-4000-8000-000000000000');
    expect([foreign.statusCode, missing.statusCode]).toEqual([404, 404]);
    expect(foreign.json()).toEqual({ error: 'ResourceNotFound', detail: `Product ${server.fixtures.other_product_id} not found.` });
    expect(missing.json().error).toBe('ResourceNotFound');
    const fromOther = await update([server.fixtures.other_organization_benefit_id!], 'other_org');
    expect(fromOther.statusCode).toBe(404);
  });
});
