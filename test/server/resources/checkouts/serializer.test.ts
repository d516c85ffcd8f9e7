// The checkout of an order, as checkout.created carries it: the platform's Checkout shape, judged by
// the platform's own schema (the zod schema of @polar-sh/sdk 0.49.0, which validateEvent applies).
import { Checkout$inboundSchema } from 'polar-sdk-0/models/components/checkout.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RenderContext } from '../../../../server/render.js';
import { serializeOrderCheckout } from '../../../../server/resources/checkouts/serializer.js';
import { testServer, type TestServer } from '../../support.js';

let server: TestServer;
beforeAll(async () => {
  server = await testServer();
});
afterAll(async () => {
  await server.app.close();
});

const render = (apiVersion: RenderContext['apiVersion'] = '2026-10'): RenderContext => ({ store: server.store, apiVersion });

function orderOf(checkout: boolean) {
  const created = server.control.createOrder({ checkout });
  if (!created.ok) throw new Error(created.error.message);
  return server.store.orders.get(String(created.value.id))!;
}

describe('serializeOrderCheckout', () => {
  it('gives the platform\'s Checkout for an order that came from one: its id, product, customer and amounts', () => {
    const order = orderOf(true);
    const checkout = serializeOrderCheckout(render(), order)!;
    expect(checkout).toMatchObject({
      id: order.checkout_id,
      status: 'confirmed',
      organization_id: order.organization_id,
      product_id: order.product_id,
      customer_id: order.customer_id,
      total_amount: order.total_amount,
      net_amount: order.net_amount,
      currency: order.currency,
      is_payment_required: order.total_amount > 0,
    });
    expect((checkout.product as { id: string }).id).toBe(order.product_id);
    expect(String(checkout.url)).toMatch(/^https:\/\/checkout\.reference\.invalid\/polar_c_/);
    expect(Date.parse(String(checkout.expires_at)) - Date.parse(String(checkout.created_at))).toBe(3_600_000);
  });

  it('parses with the platform SDK\'s Checkout schema (0.49.0), in both versions', () => {
    const order = orderOf(true);
    for (const apiVersion of ['2026-10', '2026-04'] as const) {
      const parsed = Checkout$inboundSchema.safeParse(serializeOrderCheckout(render(apiVersion), order));
      expect(parsed.success, JSON.stringify(parsed.error?.issues?.slice(0, 3))).toBe(true);
    }
  });

  it('gives nothing for an order without a checkout', () => {
    expect(serializeOrderCheckout(render(), orderOf(false))).toBeUndefined();
  });
});
