import { describe, expect, it } from 'vitest';
import { printBanner, startReferenceServer } from '../../server/index.js';

describe('startReferenceServer', () => {
  it('listens on a free loopback port, serves the demo tokens and closes', async () => {
    const running = await startReferenceServer({ port: 0 });
    try {
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(Object.keys(running.credentials).sort()).toEqual(['admin', 'no_scope', 'other_org', 'reader']);
      for (const name of ['organization_id', 'other_organization_id', 'product_id', 'subscription_id', 'customer_id', 'customer_external_id', 'benefit_id']) {
        expect(running.fixtures[name], name).toBeTruthy();
      }
      const response = await fetch(`${running.url}/v1/products/?limit=1`, { headers: { authorization: `Bearer ${running.credentials.admin}` } });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { items: unknown[] }).items).toHaveLength(1);

      const banner = printBanner(running);
      expect(banner).toContain(running.url);
      for (const token of Object.values(running.tokens)) expect(banner).toContain(token);
      expect(banner).toContain(`curl -H "Authorization: Bearer ${running.credentials.admin}"`);
    } finally {
      await running.close();
    }
    await expect(fetch(`${running.url}/v1/products/`)).rejects.toThrow();
  });
});
