// Every operation of the spec answers a documented status and a schema-valid body, for its
// success case and for each error case the spec documents (401, 403, 404, 422; 400 and 401 for the
// OAuth 2.0 endpoints). One table, one row per case.
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectConforms, testServer, type TestServer } from '../support.js';

let server: TestServer;
let f: Record<string, string>;

beforeAll(async () => {
  server = await testServer();
  f = server.fixtures;
});

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** A fresh order of the portal customer: pending, or paid when `paid`. */
function newOrder(paid: boolean): string {
  const created = server.control.createOrder();
  if (!created.ok) throw new Error(created.error.message);
  const id = created.value.id as string;
  if (paid && !server.control.completeOrder(id).ok) throw new Error('cannot complete');
  return id;
}

/** A paid order of the portal customer without a billing address (set to null before its invoice). */
async function orderWithoutAddress(): Promise<string> {
  const id = newOrder(true);
  await server.send('PATCH', `/v1/orders/${id}`, { json: { billing_address: null } });
  return id;
}

/** A paid order of another customer of organization A. */
function otherCustomersOrder(): string {
  const other = [...server.store.orders.inOrganization(f.organization_id!)].find((o) => o.customer_id !== f.customer_id && o.status === 'paid')!;
  return other.id;
}

function code(): { code: string; redirect_uri: string } {
  const minted = server.control.mintAuthorizationCode();
  if (!minted.ok) throw new Error(minted.error.message);
  return { code: minted.value.code, redirect_uri: minted.value.redirect_uri! };
}

function client(): Record<string, string> {
  return { client_id: f.oauth_client_id!, client_secret: f.oauth_client_secret! };
}

async function accessToken(): Promise<string> {
  const minted = code();
  const response = await server.send('POST', '/v1/oauth2/token', { as: null, form: { grant_type: 'authorization_code', ...minted, ...client() } });
  return response.json().access_token;
}

const FILE_BODY = { name: 'manual.pdf', mime_type: 'application/pdf', size: 10, service: 'downloadable', upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 9 }] } };

type Case = [operationId: string, name: string, status: number, run: () => Promise<LightMyRequestResponse>];

const CASES: Case[] = [
  ['products:list', 'a page', 200, () => server.send('GET', '/v1/products/')],
  ['products:list', 'no credentials', 401, () => server.send('GET', '/v1/products/', { as: null })],
  ['products:list', 'no scope', 403, () => server.send('GET', '/v1/products/', { as: 'no_scope' })],
  ['products:list', 'limit=0', 422, () => server.send('GET', '/v1/products/', { query: { limit: 0 } })],

  ['subscriptions:list', 'a page', 200, () => server.send('GET', '/v1/subscriptions/')],
  ['subscriptions:list', 'no credentials', 401, () => server.send('GET', '/v1/subscriptions/', { as: null })],
  ['subscriptions:list', 'no scope', 403, () => server.send('GET', '/v1/subscriptions/', { as: 'no_scope' })],
  ['subscriptions:list', 'status=gone', 422, () => server.send('GET', '/v1/subscriptions/', { query: { status: 'gone' } })],

  ['products:update_benefits', 'an oat token', 200, () => server.send('POST', `/v1/products/${f.product_id}/benefits`, { json: { benefits: [f.benefit_id] } })],
  ['products:update_benefits', 'an oidc token', 200, () => server.send('POST', `/v1/products/${f.product_id}/benefits`, { as: 'oidc', json: { benefits: [f.benefit_id] } })],
  ['products:update_benefits', 'an OAuth access token', 200, async () => server.send('POST', `/v1/products/${f.product_id}/benefits`, { token: await accessToken(), json: { benefits: [f.benefit_id] } })],
  ['products:update_benefits', 'no credentials', 401, () => server.send('POST', `/v1/products/${f.product_id}/benefits`, { as: null, json: { benefits: [] } })],
  ['products:update_benefits', 'a read-only token', 403, () => server.send('POST', `/v1/products/${f.product_id}/benefits`, { as: 'reader', json: { benefits: [] } })],
  ['products:update_benefits', 'an unknown product', 404, () => server.send('POST', `/v1/products/${UNKNOWN}/benefits`, { json: { benefits: [] } })],
  ['products:update_benefits', 'another organization\'s product', 404, () => server.send('POST', `/v1/products/${f.other_product_id}/benefits`, { json: { benefits: [] } })],
  ['products:update_benefits', 'no benefits field', 422, () => server.send('POST', `/v1/products/${f.product_id}/benefits`, { json: {} })],
  ['products:update_benefits', 'another organization\'s benefit', 422, () => server.send('POST', `/v1/products/${f.product_id}/benefits`, { json: { benefits: [f.other_organization_benefit_id] } })],
  ['products:update_benefits', 'a product id that is not a uuid', 422, () => server.send('POST', '/v1/products/42/benefits', { json: { benefits: [] } })],

  ['oauth2:token', 'an authorization code', 200, () => server.send('POST', '/v1/oauth2/token', { as: null, form: { grant_type: 'authorization_code', ...code(), ...client() } })],
  ['oauth2:token', 'an unknown code', 400, () => server.send('POST', '/v1/oauth2/token', { as: null, form: { grant_type: 'authorization_code', code: 'nope', redirect_uri: 'x', ...client() } })],
  ['oauth2:token', 'an unsupported grant type', 400, () => server.send('POST', '/v1/oauth2/token', { as: null, form: { grant_type: 'password', ...client() } })],
  ['oauth2:token', 'no grant_type', 400, () => server.send('POST', '/v1/oauth2/token', { as: null, form: { ...client() } })],
  ['oauth2:token', 'a wrong client secret', 401, () => server.send('POST', '/v1/oauth2/token', { as: null, form: { grant_type: 'authorization_code', ...code(), client_id: f.oauth_client_id!, client_secret: 'wrong' } })],

  ['oauth2:introspect', 'an active token', 200, async () => server.send('POST', '/v1/oauth2/introspect', { as: null, form: { token: await accessToken(), ...client() } })],
  ['oauth2:introspect', 'an unknown token', 200, () => server.send('POST', '/v1/oauth2/introspect', { as: null, form: { token: 'nope', ...client() } })],
  ['oauth2:introspect', 'no token', 400, () => server.send('POST', '/v1/oauth2/introspect', { as: null, form: { ...client() } })],
  ['oauth2:introspect', 'no client credentials', 401, () => server.send('POST', '/v1/oauth2/introspect', { as: null, form: { token: 'x' } })],

  ['files:create', 'a one-part file', 200, () => server.send('POST', '/v1/files/', { json: FILE_BODY })],
  ['files:create', 'no credentials', 401, () => server.send('POST', '/v1/files/', { as: null, json: FILE_BODY })],
  ['files:create', 'a read-only token', 403, () => server.send('POST', '/v1/files/', { as: 'reader', json: FILE_BODY })],
  ['files:create', 'parts not covering the file', 422, () => server.send('POST', '/v1/files/', { json: { ...FILE_BODY, size: 20 } })],
  ['files:create', 'an unknown service', 422, () => server.send('POST', '/v1/files/', { json: { ...FILE_BODY, service: 'video' } })],

  ['files:list', 'a page', 200, () => server.send('GET', '/v1/files/')],
  ['files:list', 'no credentials', 401, () => server.send('GET', '/v1/files/', { as: null })],
  ['files:list', 'no scope', 403, () => server.send('GET', '/v1/files/', { as: 'no_scope' })],
  ['files:list', 'ids=42', 422, () => server.send('GET', '/v1/files/', { query: { ids: '42' } })],

  ['customer_portal:license_keys:list', 'a customer session', 200, () => server.send('GET', '/v1/customer-portal/license-keys/', { as: 'customer_session' })],
  ['customer_portal:license_keys:list', 'a member session', 200, () => server.send('GET', '/v1/customer-portal/license-keys/', { as: 'member_session' })],
  ['customer_portal:license_keys:list', 'no credentials', 401, () => server.send('GET', '/v1/customer-portal/license-keys/', { as: null })],
  ['customer_portal:license_keys:list', 'an organization token', 403, () => server.send('GET', '/v1/customer-portal/license-keys/', { as: 'admin' })],
  ['customer_portal:license_keys:list', 'an unknown benefit', 404, () => server.send('GET', '/v1/customer-portal/license-keys/', { as: 'customer_session', query: { benefit_id: UNKNOWN } })],
  ['customer_portal:license_keys:list', 'benefit_id=abc', 422, () => server.send('GET', '/v1/customer-portal/license-keys/', { as: 'customer_session', query: { benefit_id: 'abc' } })],

  ['customers:list_payment_methods', 'a page', 200, () => server.send('GET', `/v1/customers/${f.customer_id}/payment-methods`)],
  ['customers:list_payment_methods', 'no credentials', 401, () => server.send('GET', `/v1/customers/${f.customer_id}/payment-methods`, { as: null })],
  ['customers:list_payment_methods', 'no scope', 403, () => server.send('GET', `/v1/customers/${f.customer_id}/payment-methods`, { as: 'no_scope' })],
  ['customers:list_payment_methods', 'an unknown customer', 404, () => server.send('GET', `/v1/customers/${UNKNOWN}/payment-methods`)],
  ['customers:list_payment_methods', 'another organization\'s customer', 404, () => server.send('GET', `/v1/customers/${f.other_customer_id}/payment-methods`)],
  ['customers:list_payment_methods', 'an id that is not a uuid', 422, () => server.send('GET', '/v1/customers/42/payment-methods')],

  ['customers:delete_external', 'no credentials', 401, () => server.send('DELETE', `/v1/customers/external/${f.customer_external_id}`, { as: null })],
  ['customers:delete_external', 'a read-only token', 403, () => server.send('DELETE', `/v1/customers/external/${f.customer_external_id}`, { as: 'reader' })],
  ['customers:delete_external', 'anonymize=maybe', 422, () => server.send('DELETE', `/v1/customers/external/${f.customer_external_id}`, { query: { anonymize: 'maybe' } })],
  ['customers:delete_external', 'a customer with an external id', 204, () => server.send('DELETE', `/v1/customers/external/${f.customer_external_id}`)],
  ['customers:delete_external', 'the same customer again', 404, () => server.send('DELETE', `/v1/customers/external/${f.customer_external_id}`)],
  ['customers:delete_external', 'an unknown external id', 404, () => server.send('DELETE', '/v1/customers/external/cus_nobody')],

  ['customer_seats:claim', 'an invitation token', 200, () => {
    const invited = server.control.createSeatInvitation();
    if (!invited.ok) throw new Error(invited.error.message);
    return server.send('POST', '/v1/customer-seats/claim', { as: null, json: { invitation_token: invited.value.invitation_token } });
  }],
  ['customer_seats:claim', 'an unknown token', 422, () => server.send('POST', '/v1/customer-seats/claim', { as: null, json: { invitation_token: 'nope' } })],
  ['customer_seats:claim', 'no token', 422, () => server.send('POST', '/v1/customer-seats/claim', { as: null, json: {} })],

  ['refunds:list', 'a page', 200, () => server.send('GET', '/v1/refunds/')],
  ['refunds:list', 'no credentials', 401, () => server.send('GET', '/v1/refunds/', { as: null })],
  ['refunds:list', 'no scope', 403, () => server.send('GET', '/v1/refunds/', { as: 'no_scope' })],
  ['refunds:list', 'sorting=colour', 422, () => server.send('GET', '/v1/refunds/', { query: { sorting: 'colour' } })],

  ['orders:update', 'a billing name', 200, () => server.send('PATCH', `/v1/orders/${newOrder(true)}`, { json: { billing_name: 'Ada Lovelace' } })],
  ['orders:update', 'no credentials', 401, () => server.send('PATCH', `/v1/orders/${f.order_id}`, { as: null, json: {} })],
  ['orders:update', 'a read-only token', 403, () => server.send('PATCH', `/v1/orders/${f.order_id}`, { as: 'reader', json: {} })],
  ['orders:update', 'an unknown order', 404, () => server.send('PATCH', `/v1/orders/${UNKNOWN}`, { json: {} })],
  ['orders:update', 'another organization\'s order', 404, () => server.send('PATCH', `/v1/orders/${f.other_order_id}`, { json: {} })],
  ['orders:update', 'a billing name that is a number', 422, () => server.send('PATCH', `/v1/orders/${f.order_id}`, { json: { billing_name: 5 } })],
  ['orders:update', 'an invoiced order', 422, async () => {
    const id = newOrder(true);
    await server.send('POST', `/v1/orders/${id}/invoice`);
    return server.send('PATCH', `/v1/orders/${id}`, { json: { billing_name: 'Too late' } });
  }],

  ['orders:get_receipt', 'a paid order', 200, () => server.send('GET', `/v1/orders/${f.order_id}/receipt`)],
  ['orders:get_receipt', 'no credentials', 401, () => server.send('GET', `/v1/orders/${f.order_id}/receipt`, { as: null })],
  ['orders:get_receipt', 'no scope', 403, () => server.send('GET', `/v1/orders/${f.order_id}/receipt`, { as: 'no_scope' })],
  ['orders:get_receipt', 'an unknown order', 404, () => server.send('GET', `/v1/orders/${UNKNOWN}/receipt`)],
  ['orders:get_receipt', 'a pending order', 404, () => server.send('GET', `/v1/orders/${f.pending_order_id}/receipt`)],
  ['orders:get_receipt', 'an id that is not a uuid', 422, () => server.send('GET', '/v1/orders/42/receipt')],

  ['orders:generate_invoice', 'a paid order', 202, () => server.send('POST', `/v1/orders/${newOrder(true)}/invoice`)],
  ['orders:generate_invoice', 'no credentials', 401, () => server.send('POST', `/v1/orders/${f.order_id}/invoice`, { as: null })],
  ['orders:generate_invoice', 'a read-only token', 403, () => server.send('POST', `/v1/orders/${f.order_id}/invoice`, { as: 'reader' })],
  ['orders:generate_invoice', 'an unknown order', 404, () => server.send('POST', `/v1/orders/${UNKNOWN}/invoice`)],
  ['orders:generate_invoice', 'a pending order', 409, () => server.send('POST', `/v1/orders/${newOrder(false)}/invoice`)],
  ['orders:generate_invoice', 'an order without a billing address', 422, async () => server.send('POST', `/v1/orders/${await orderWithoutAddress()}/invoice`)],

  ['orders:get_invoice', 'a generated invoice', 200, async () => {
    const id = newOrder(true);
    await server.send('POST', `/v1/orders/${id}/invoice`);
    return server.send('GET', `/v1/orders/${id}/invoice`);
  }],
  ['orders:get_invoice', 'no credentials', 401, () => server.send('GET', `/v1/orders/${f.order_id}/invoice`, { as: null })],
  ['orders:get_invoice', 'no scope', 403, () => server.send('GET', `/v1/orders/${f.order_id}/invoice`, { as: 'no_scope' })],
  ['orders:get_invoice', 'before generation', 404, () => server.send('GET', `/v1/orders/${newOrder(true)}/invoice`)],
  ['orders:get_invoice', 'an id that is not a uuid', 422, () => server.send('GET', '/v1/orders/42/invoice')],

  ['customer_portal:orders:update', 'an own order', 200, () => server.send('PATCH', `/v1/customer-portal/orders/${newOrder(true)}`, { as: 'customer_session', json: { billing_address: { country: 'FR', city: 'Paris' } } })],
  ['customer_portal:orders:update', 'no credentials', 401, () => server.send('PATCH', `/v1/customer-portal/orders/${f.order_id}`, { as: null, json: {} })],
  ['customer_portal:orders:update', 'an organization token', 403, () => server.send('PATCH', `/v1/customer-portal/orders/${f.order_id}`, { as: 'admin', json: {} })],
  ['customer_portal:orders:update', 'another customer\'s order', 404, () => server.send('PATCH', `/v1/customer-portal/orders/${otherCustomersOrder()}`, { as: 'customer_session', json: {} })],
  ['customer_portal:orders:update', 'an address that is a string', 422, () => server.send('PATCH', `/v1/customer-portal/orders/${f.order_id}`, { as: 'customer_session', json: { billing_address: 'Paris' } })],

  ['customer_portal:orders:generate_invoice', 'an own order', 202, () => server.send('POST', `/v1/customer-portal/orders/${newOrder(true)}/invoice`, { as: 'member_session' })],
  ['customer_portal:orders:generate_invoice', 'no credentials', 401, () => server.send('POST', `/v1/customer-portal/orders/${f.order_id}/invoice`, { as: null })],
  ['customer_portal:orders:generate_invoice', 'an organization token', 403, () => server.send('POST', `/v1/customer-portal/orders/${f.order_id}/invoice`, { as: 'admin' })],
  ['customer_portal:orders:generate_invoice', 'another customer\'s order', 404, () => server.send('POST', `/v1/customer-portal/orders/${otherCustomersOrder()}/invoice`, { as: 'customer_session' })],
  ['customer_portal:orders:generate_invoice', 'a pending order', 409, () => server.send('POST', `/v1/customer-portal/orders/${newOrder(false)}/invoice`, { as: 'customer_session' })],
  ['customer_portal:orders:generate_invoice', 'an order without a billing address', 422, async () => server.send('POST', `/v1/customer-portal/orders/${await orderWithoutAddress()}/invoice`, { as: 'customer_session' })],

  ['customer_portal:orders:get_invoice', 'a generated invoice', 200, async () => {
    const id = newOrder(true);
    await server.send('POST', `/v1/customer-portal/orders/${id}/invoice`, { as: 'customer_session' });
    return server.send('GET', `/v1/customer-portal/orders/${id}/invoice`, { as: 'customer_session' });
  }],
  ['customer_portal:orders:get_invoice', 'no credentials', 401, () => server.send('GET', `/v1/customer-portal/orders/${f.order_id}/invoice`, { as: null })],
  ['customer_portal:orders:get_invoice', 'an organization token', 403, () => server.send('GET', `/v1/customer-portal/orders/${f.order_id}/invoice`, { as: 'admin' })],
  ['customer_portal:orders:get_invoice', 'before generation', 404, () => server.send('GET', `/v1/customer-portal/orders/${newOrder(true)}/invoice`, { as: 'customer_session' })],
  ['customer_portal:orders:get_invoice', 'an id that is not a uuid', 422, () => server.send('GET', '/v1/customer-portal/orders/42/invoice', { as: 'customer_session' })],

  // Read-back operations (docs/platform.md).
  ['products:get', 'a product', 200, () => server.send('GET', `/v1/products/${f.product_id}`)],
  ['products:get', 'no credentials', 401, () => server.send('GET', `/v1/products/${f.product_id}`, { as: null })],
  ['products:get', 'no scope', 403, () => server.send('GET', `/v1/products/${f.product_id}`, { as: 'no_scope' })],
  ['products:get', 'another organization\'s product', 404, () => server.send('GET', `/v1/products/${f.other_product_id}`)],
  ['products:get', 'an id that is not a uuid', 422, () => server.send('GET', '/v1/products/42')],

  ['customers:get', 'a customer', 200, () => server.send('GET', `/v1/customers/${f.customer_id}`, { as: 'reader' })],
  ['customers:get', 'no credentials', 401, () => server.send('GET', `/v1/customers/${f.customer_id}`, { as: null })],
  ['customers:get', 'no scope', 403, () => server.send('GET', `/v1/customers/${f.customer_id}`, { as: 'no_scope' })],
  ['customers:get', 'another organization\'s customer', 404, () => server.send('GET', `/v1/customers/${f.other_customer_id}`)],
  ['customers:get', 'an id that is not a uuid', 422, () => server.send('GET', '/v1/customers/42')],

  ['subscriptions:get', 'a subscription', 200, () => server.send('GET', `/v1/subscriptions/${f.subscription_id}`)],
  ['subscriptions:get', 'no credentials', 401, () => server.send('GET', `/v1/subscriptions/${f.subscription_id}`, { as: null })],
  ['subscriptions:get', 'no scope', 403, () => server.send('GET', `/v1/subscriptions/${f.subscription_id}`, { as: 'no_scope' })],
  ['subscriptions:get', 'an unknown subscription', 404, () => server.send('GET', `/v1/subscriptions/${UNKNOWN}`)],
  ['subscriptions:get', 'an id that is not a uuid', 422, () => server.send('GET', '/v1/subscriptions/42')],

  ['orders:get', 'an order', 200, () => server.send('GET', `/v1/orders/${f.order_id}`, { as: 'reader' })],
  ['orders:get', 'no credentials', 401, () => server.send('GET', `/v1/orders/${f.order_id}`, { as: null })],
  ['orders:get', 'no scope', 403, () => server.send('GET', `/v1/orders/${f.order_id}`, { as: 'no_scope' })],
  ['orders:get', 'another organization\'s order', 404, () => server.send('GET', `/v1/orders/${f.other_order_id}`)],
  ['orders:get', 'an id that is not a uuid', 422, () => server.send('GET', '/v1/orders/42')],

  ['customer_portal:orders:get', 'an own order', 200, () => server.send('GET', `/v1/customer-portal/orders/${f.order_id}`, { as: 'member_session' })],
  ['customer_portal:orders:get', 'no credentials', 401, () => server.send('GET', `/v1/customer-portal/orders/${f.order_id}`, { as: null })],
  ['customer_portal:orders:get', 'an organization token', 403, () => server.send('GET', `/v1/customer-portal/orders/${f.order_id}`, { as: 'admin' })],
  ['customer_portal:orders:get', 'another customer\'s order', 404, () => server.send('GET', `/v1/customer-portal/orders/${otherCustomersOrder()}`, { as: 'customer_session' })],
  ['customer_portal:orders:get', 'an id that is not a uuid', 422, () => server.send('GET', '/v1/customer-portal/orders/42', { as: 'customer_session' })],

  ['customer_portal:orders:get_receipt', 'an own paid order', 200, () => server.send('GET', `/v1/customer-portal/orders/${f.order_id}/receipt`, { as: 'customer_session' })],
  ['customer_portal:orders:get_receipt', 'no credentials', 401, () => server.send('GET', `/v1/customer-portal/orders/${f.order_id}/receipt`, { as: null })],
  ['customer_portal:orders:get_receipt', 'an organization token', 403, () => server.send('GET', `/v1/customer-portal/orders/${f.order_id}/receipt`, { as: 'admin' })],
  ['customer_portal:orders:get_receipt', 'another customer\'s order', 404, () => server.send('GET', `/v1/customer-portal/orders/${otherCustomersOrder()}/receipt`, { as: 'customer_session' })],
  ['customer_portal:orders:get_receipt', 'an id that is not a uuid', 422, () => server.send('GET', '/v1/customer-portal/orders/42/receipt', { as: 'customer_session' })],

  ['webhooks:list_endpoints', 'a page', 200, () => server.send('GET', '/v1/webhooks/endpoints')],
  ['webhooks:list_endpoints', 'no credentials', 401, () => server.send('GET', '/v1/webhooks/endpoints', { as: null })],
  ['webhooks:list_endpoints', 'no scope', 403, () => server.send('GET', '/v1/webhooks/endpoints', { as: 'no_scope' })],
  ['webhooks:list_endpoints', 'limit=101', 422, () => server.send('GET', '/v1/webhooks/endpoints', { query: { limit: 101 } })],
];

describe('operations', () => {
  it('the table covers every operation, a success and every documented error status of each', async () => {
    const spec = server.spec;
    for (const operation of spec.operations) {
      const statuses = CASES.filter(([id]) => id === operation.operationId).map(([, , status]) => status);
      expect(statuses.some((status) => status >= 200 && status < 300), `${operation.operationId} success`).toBe(true);
      const errors = operation.responseStatuses.filter((key) => /^4\d\d$/.test(key)).map(Number);
      expect([...new Set(statuses.filter((status) => status >= 400))].sort(), operation.operationId).toEqual(errors.sort());
    }
    expect(new Set(CASES.map(([id]) => id)).size).toBe(spec.operations.length);
  });

  it.each(CASES)('%s: %s answers %i with a body valid per the spec', async (operationId, _name, status, run) => {
    const response = await run();
    expect(response.statusCode, response.body.slice(0, 500)).toBe(status);
    expectConforms(server, operationId, response);
    if (status >= 400 && !operationId.startsWith('oauth2:') && status !== 422) {
      expect(response.json()).toEqual({ error: { 401: 'Unauthorized', 403: 'NotPermitted', 404: 'ResourceNotFound', 409: 'OrderNotEligibleForInvoice' }[status], detail: expect.any(String) });
    }
    if (status === 422 && _name === 'an order without a billing address') {
      expect(response.json()).toEqual({ error: 'MissingInvoiceBillingDetails', detail: expect.any(String) });
    }
  });
});
