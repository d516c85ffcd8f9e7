import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectConforms, expectSchema, localPath, tamperedSignature, testServer, type TestServer } from '../../support.js';

let server: TestServer;

beforeAll(async () => {
  server = await testServer({ clock: () => new Date('2026-06-01T12:00:00Z') });
});

beforeEach(() => {
  server.control.reset();
});

function order(paid: boolean, input: Parameters<TestServer['control']['createOrder']>[0] = {}): string {
  const created = server.control.createOrder(input);
  if (!created.ok) throw new Error(created.error.message);
  const id = created.value.id as string;
  if (paid) server.control.completeOrder(id);
  return id;
}

const fetchDocument = (url: string) => server.app.inject({ url: localPath(url) });

describe('order lifecycle', () => {
  it('is created pending without an invoice, emitting checkout.created then order.created', async () => {
    const created = server.control.createOrder();
    expect(created.ok).toBe(true);
    const body = created.ok ? created.value : {};
    expectSchema(server, 'Order', body);
    expect(body).toMatchObject({ status: 'pending', paid: false, is_invoice_generated: false });
    expect(server.store.events.map((e) => e.type)).toEqual(['checkout.created', 'order.created']);
    expect((await server.get(`/v1/orders/${body.id}/invoice`)).statusCode).toBe(404);
    expect((await server.get(`/v1/orders/${body.id}/receipt`)).statusCode).toBe(404);
  });

  it('completes pending to paid, emitting order.updated then order.paid, once', () => {
    const id = order(false);
    const events = server.store.events.length;
    const completed = server.control.completeOrder(id);
    expect(completed.ok && completed.value).toMatchObject({ id, status: 'paid', paid: true });
    expect(server.store.events.slice(events).map((e) => [e.type, e.data.id, e.data.status])).toEqual([['order.updated', id, 'paid'], ['order.paid', id, 'paid']]);
    const again = server.control.completeOrder(id);
    expect(again.ok ? undefined : again.error.code).toBe('CONFLICT');
  });

  it('carries the amounts of the change history: amount equals net_amount, items sum to subtotal', async () => {
    const id = order(true);
    const body = server.store.orders.get(id)!;
    const response = await server.send('PATCH', `/v1/orders/${id}`, { json: {} });
    const json = response.json();
    expectSchema(server, 'Order', json);
    expect(json.amount).toBe(json.net_amount);
    expect(json.subtotal_amount).toBe(body.items.reduce((sum, item) => sum + item.amount, 0));
    expect(json.total_amount).toBe(json.net_amount + json.tax_amount);
    expect(json.product_price_id).toBe(json.items[0].product_price_id);
  });
});

describe('invoices', () => {
  it('are generated explicitly (202, idempotent) and then served as a PDF', async () => {
    const id = order(true);
    expect((await server.get(`/v1/orders/${id}/invoice`)).statusCode).toBe(404);
    const generated = await server.send('POST', `/v1/orders/${id}/invoice`);
    expect(generated.statusCode).toBe(202);
    expectConforms(server, 'orders:generate_invoice', generated);
    expectSchema(server, 'Order', generated.json());
    expect(generated.json().is_invoice_generated).toBe(true);
    const at = server.store.orders.get(id)!.invoice_generated_at;
    server.control.advanceClock(1000);
    expect((await server.send('POST', `/v1/orders/${id}/invoice`)).statusCode).toBe(202);
    expect(server.store.orders.get(id)!.invoice_generated_at).toBe(at);

    const invoice = await server.get(`/v1/orders/${id}/invoice`);
    expect(invoice.statusCode).toBe(200);
    expectConforms(server, 'orders:get_invoice', invoice);
    const pdf = await fetchDocument(invoice.json().url);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 8).toString()).toBe('%PDF-1.4');
    expect(pdf.rawPayload.toString('latin1')).toContain(server.store.orders.get(id)!.invoice_number);
  });

  it('cannot be generated for a pending order (409 OrderNotEligibleForInvoice, as the platform declares)', async () => {
    const id = order(false);
    const response = await server.send('POST', `/v1/orders/${id}/invoice`);
    expect(response.statusCode).toBe(409);
    expectConforms(server, 'orders:generate_invoice', response);
    expect(response.json()).toEqual({ error: 'OrderNotEligibleForInvoice', detail: expect.stringContaining(id) });
    expect(server.store.orders.get(id)!.invoice_generated_at).toBeNull();
  });

  it('cannot be generated without a billing name or address (422 MissingInvoiceBillingDetails), and can once they are set', async () => {
    const id = order(true);
    await server.send('PATCH', `/v1/orders/${id}`, { json: { billing_name: null } });
    const refused = await server.send('POST', `/v1/orders/${id}/invoice`);
    expect(refused.statusCode).toBe(422);
    expectConforms(server, 'orders:generate_invoice', refused);
    expect(refused.json()).toEqual({ error: 'MissingInvoiceBillingDetails', detail: expect.stringContaining('billing name') });
    expect(server.store.orders.get(id)!.invoice_generated_at).toBeNull();
    await server.send('PATCH', `/v1/orders/${id}`, { json: { billing_name: 'ACME GmbH' } });
    expect((await server.send('POST', `/v1/orders/${id}/invoice`)).statusCode).toBe(202);
  });

  it('exist for none of the orders at start except those the demo data generated', async () => {
    const response = await server.get(`/v1/orders/${server.fixtures.order_id}/invoice`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'ResourceNotFound', detail: expect.stringContaining('no invoice yet') });
  });
});

describe('orders:update', () => {
  it('changes the billing name and address before the invoice, leaving what is not sent', async () => {
    const id = order(true);
    const before = server.store.orders.get(id)!;
    const address = { country: 'DE', line1: 'Unter den Linden 1', city: 'Berlin', postal_code: '10117' };
    const response = await server.send('PATCH', `/v1/orders/${id}`, { json: { billing_address: address } });
    expect(response.statusCode).toBe(200);
    expectConforms(server, 'orders:update', response);
    expect(response.json()).toMatchObject({ billing_name: before.billing_name, billing_address: address });
    const renamed = await server.send('PATCH', `/v1/orders/${id}`, { json: { billing_name: 'ACME GmbH' } });
    expect(renamed.json()).toMatchObject({ billing_name: 'ACME GmbH', billing_address: address });
    const cleared = await server.send('PATCH', `/v1/orders/${id}`, { json: { billing_name: null } });
    expect(cleared.json().billing_name).toBeNull();
    // An invoice needs a billing name (MissingInvoiceBillingDetails otherwise).
    await server.send('PATCH', `/v1/orders/${id}`, { json: { billing_name: 'ACME GmbH' } });
    const generated = await server.send('POST', `/v1/orders/${id}/invoice`);
    expect(generated.statusCode).toBe(202);
    const invoice = await fetchDocument((await server.get(`/v1/orders/${id}/invoice`)).json().url);
    expect(invoice.rawPayload.toString('latin1')).toContain('Unter den Linden 1');
  });

  it('refuses a change once the invoice is generated (422) and changes nothing', async () => {
    const id = order(true);
    await server.send('POST', `/v1/orders/${id}/invoice`);
    const before = structuredClone(server.store.orders.get(id));
    const response = await server.send('PATCH', `/v1/orders/${id}`, { json: { billing_name: 'Too late' } });
    expect(response.statusCode).toBe(422);
    expectConforms(server, 'orders:update', response);
    expect(response.json().detail[0]).toMatchObject({ loc: ['body'], type: 'invoice_already_generated' });
    expect(server.store.orders.get(id)).toEqual(before);
  });

  it('answers a deeply nested unknown field after the invoice with 422, never a 5xx', async () => {
    const id = order(true);
    await server.send('POST', `/v1/orders/${id}/invoice`);
    const payload = `{"billing_name":"x","extra":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
    const response = await server.app.inject({ method: 'PATCH', url: `/v1/orders/${id}`, headers: { authorization: `Bearer ${server.tokens.admin}`, 'content-type': 'application/json' }, payload });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail[0].input).toEqual({ billing_name: 'x' });
  });

  it.each<[string, unknown, (string | number)[]]>([
    ['a name that is a number', { billing_name: 1 }, ['body', 'billing_name']],
    ['an address that is a list', { billing_address: [] }, ['body', 'billing_address']],
    ['a country that is a number', { billing_address: { country: 49 } }, ['body', 'billing_address', 'country']],
    ['a body that is a list', [], ['body']],
  ])('validates the body: %s', async (_name, json, loc) => {
    const response = await server.send('PATCH', `/v1/orders/${order(true)}`, { json });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail[0].loc).toEqual(loc);
  });
});

describe('orders:get_receipt', () => {
  it('answers a presigned URL of a PDF for a paid order, valid for an hour', async () => {
    const response = await server.get(`/v1/orders/${server.fixtures.order_id}/receipt`);
    expect(response.statusCode).toBe(200);
    expectConforms(server, 'orders:get_receipt', response);
    const { url } = response.json();
    expect(url).toMatch(new RegExp(`/__receipts/${server.fixtures.order_id}\\.pdf\\?expires=\\d+&signature=`));
    const pdf = await fetchDocument(url);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.toString('latin1')).toMatch(/%%EOF\n$/);
    expect((await fetchDocument(tamperedSignature(url))).statusCode).toBe(403);
    expect((await fetchDocument(url.replace('__receipts', '__invoices'))).statusCode).toBe(403);
    server.control.advanceClock(60 * 60 * 1000);
    const expired = await fetchDocument(url);
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toEqual({ error: 'NotPermitted', detail: expect.stringContaining('expired') });
  });

  it('answers 404 for an order that is not paid yet, and 200 once it is', async () => {
    const id = order(false);
    expect((await server.get(`/v1/orders/${id}/receipt`)).statusCode).toBe(404);
    server.control.completeOrder(id);
    expect((await server.get(`/v1/orders/${id}/receipt`)).statusCode).toBe(200);
  });

  it('takes orders:read (the reader token) and refuses a token without it', async () => {
    expect((await server.get(`/v1/orders/${server.fixtures.order_id}/receipt`, {}, 'reader')).statusCode).toBe(200);
    expect((await server.get(`/v1/orders/${server.fixtures.order_id}/receipt`, {}, 'no_scope')).statusCode).toBe(403);
  });
});

describe('tenancy of the order operations', () => {
  it.each<[string, 'GET' | 'POST' | 'PATCH', string]>([
    ['orders:get_receipt', 'GET', '/receipt'],
    ['orders:get_invoice', 'GET', '/invoice'],
    ['orders:generate_invoice', 'POST', '/invoice'],
    ['orders:update', 'PATCH', ''],
  ])('%s answers another organization\'s order exactly like a missing one', async (operationId, method, suffix) => {
    const foreign = server.fixtures.other_order_id!;
    const unknown = '00000000-0000-4000-8000-000000000000';
    const before = structuredClone(server.store.orders.get(foreign));
    const [a, b] = await Promise.all([foreign, unknown].map((id) => server.send(method, `/v1/orders/${id}${suffix}`, method === 'PATCH' ? { json: {} } : {})));
    expect([a!.statusCode, b!.statusCode]).toEqual([404, 404]);
    expectConforms(server, operationId, a!);
    expect(a!.json().detail.replace(foreign, 'ID')).toBe(b!.json().detail.replace(unknown, 'ID'));
    expect(server.store.orders.get(foreign)).toEqual(before);
  });
});
