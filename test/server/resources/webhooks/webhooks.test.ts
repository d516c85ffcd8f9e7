import { beforeAll, describe, expect, it } from 'vitest';
import { expectConforms, ids, testServer, type TestServer } from '../../support.js';

let server: TestServer;

beforeAll(async () => {
  server = await testServer();
});

describe('webhooks:list_endpoints', () => {
  it('lists the caller\'s endpoints, enabled and disabled, with their signing secrets and events', async () => {
    const response = await server.get('/v1/webhooks/endpoints', { limit: 100 });
    expectConforms(server, 'webhooks:list_endpoints', response);
    const { items } = response.json();
    const own = server.store.webhookEndpoints.inOrganization(server.fixtures.organization_id!);
    expect(ids(items).sort()).toEqual(ids([...own]).sort());
    expect(new Set(items.map((item: { enabled: boolean }) => item.enabled))).toEqual(new Set([true, false]));
    for (const item of items) {
      expect(item.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(item.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
      expect(item.events.length).toBeGreaterThan(0);
    }
  });

  it('filters by organization_id and never shows another organization\'s endpoints', async () => {
    expect((await server.get('/v1/webhooks/endpoints', { organization_id: server.fixtures.other_organization_id! })).json().items).toEqual([]);
    const other = (await server.get('/v1/webhooks/endpoints', {}, 'other_org')).json();
    expect(other.items.every((item: { organization_id: string }) => item.organization_id === server.fixtures.other_organization_id)).toBe(true);
    expect(other.items.length).toBeGreaterThan(0);
  });

  it('pages with limit', async () => {
    const total = server.store.webhookEndpoints.inOrganization(server.fixtures.organization_id!).length;
    const { pages } = await server.all('/v1/webhooks/endpoints', { limit: 2 });
    expect(pages.length).toBe(Math.ceil(total / 2));
  });
});
