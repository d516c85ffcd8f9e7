import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { imfFixdateProblem, retryAfterProblem } from '../../checks/response-headers-conformance.js';
import { HarnessError } from '../../core/errors.js';
import { buildApp } from '../../server/app.js';
import type { LightMyRequestResponse } from 'fastify';
import { FAULTS, resolveFaults, type FaultId } from '../../server/faults.js';
import { WRITE_FAULT_KINDS, WRITE_FAULT_OPERATIONS, type WriteFaultId } from '../../server/write-faults.js';
import { expectedCompare } from './sorting-support.js';
import { ids, localPath, testServer, type TestServer } from './support.js';
import { startWebhookReceiver, type ReceivedWebhook } from './webhook-receiver.js';
import { verifyWithBoth } from './webhooks/platform-verifiers.js';

let clean: TestServer;

beforeAll(async () => {
  clean = await testServer();
});

/** What a receiver subscribed to order.created on `server` gets when an order is created (enabled: whether the endpoint is). */
async function deliveredOnOrder(server: TestServer, enabled: boolean, secret?: string): Promise<{ received: ReceivedWebhook[]; secret: string }> {
  const receiver = await startWebhookReceiver();
  try {
    const endpoint = server.control.createWebhookEndpoint({ url: receiver.url, events: ['order.created'], enabled, ...(secret === undefined ? {} : { secret }) });
    if (!endpoint.ok) throw new Error(endpoint.error.message);
    server.control.createOrder({ checkout: false });
    await server.control.settleDeliveries(5000);
    server.control.setWebhookEndpointEnabled(endpoint.value.id as string, false);
    return { received: receiver.received, secret: endpoint.value.secret as string };
  } finally {
    await receiver.close();
  }
}

/** A valid write of each operation with write-side faults, on a fixture made for it, and a request of it the server refuses. */
const WRITES: Record<keyof typeof WRITE_FAULT_OPERATIONS, (server: TestServer) => Promise<{ valid: LightMyRequestResponse; refused: LightMyRequestResponse }>> = {
  async files_create(server) {
    const body = { name: 'a.txt', mime_type: 'text/plain', size: 4, service: 'downloadable', upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 3 }] } };
    return { valid: await server.send('POST', '/v1/files/', { json: body }), refused: await server.send('POST', '/v1/files/', { json: body, as: null }) };
  },
  async orders_update(server) {
    const order = created(server.control.createOrder({}));
    return {
      valid: await server.send('PATCH', `/v1/orders/${order.id}`, { json: { billing_name: 'Fault Ltd' } }),
      refused: await server.send('PATCH', `/v1/orders/${order.id}`, { json: { billing_name: 'Fault Ltd' }, as: null }),
    };
  },
  async products_update_benefits(server) {
    const product = created(server.control.createProduct({}));
    const json = { benefits: [server.fixtures.benefit_id] };
    return { valid: await server.send('POST', `/v1/products/${product.id}/benefits`, { json }), refused: await server.send('POST', `/v1/products/${product.id}/benefits`, { json, as: null }) };
  },
  async customers_delete_external(server) {
    const customer = created(server.control.createCustomer({}));
    return { valid: await server.send('DELETE', `/v1/customers/external/${customer.external_id}`), refused: await server.send('DELETE', '/v1/customers/external/no-such-customer') };
  },
  async oauth2_token(server) {
    const code = created(server.control.mintAuthorizationCode({}));
    const form = { grant_type: 'authorization_code', client_id: code.client_id, client_secret: server.fixtures.oauth_client_secret!, code: code.code, ...(code.redirect_uri ? { redirect_uri: code.redirect_uri } : {}) };
    return { valid: await server.send('POST', '/v1/oauth2/token', { form, as: null }), refused: await server.send('POST', '/v1/oauth2/token', { form: { grant_type: 'authorization_code' }, as: null }) };
  },
  async oauth2_introspect(server) {
    const form = { token: server.tokens.admin, client_id: server.fixtures.oauth_client_id!, client_secret: server.fixtures.oauth_client_secret! };
    return { valid: await server.send('POST', '/v1/oauth2/introspect', { form, as: null }), refused: await server.send('POST', '/v1/oauth2/introspect', { form: {}, as: null }) };
  },
  async seats_claim(server) {
    const invitation = created(server.control.createSeatInvitation({}));
    return { valid: await server.send('POST', '/v1/customer-seats/claim', { json: { invitation_token: invitation.invitation_token }, as: null }), refused: await server.send('POST', '/v1/customer-seats/claim', { json: {}, as: null }) };
  },
  async portal_orders_update(server) {
    const order = created(server.control.createOrder({}));
    return {
      valid: await server.send('PATCH', `/v1/customer-portal/orders/${order.id}`, { json: { billing_name: 'Fault Ltd' }, as: 'customer_session' }),
      refused: await server.send('PATCH', `/v1/customer-portal/orders/${order.id}`, { json: { billing_name: 'Fault Ltd' }, as: null }),
    };
  },
};

/** A day in milliseconds (test clock advances). */
const DAY_MS = 86_400_000;

/** The value of a control function that must succeed. */
function created<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T & Record<string, any> {
  if (!result.ok) throw new Error(result.error.message);
  return result.value as T & Record<string, any>;
}

/** Whether a response is not what its operation documents, in the way a write-side fault kind breaks it. */
function breaks(server: TestServer, operationId: string, kind: keyof typeof WRITE_FAULT_KINDS, response: LightMyRequestResponse, valid: boolean): boolean {
  const operation = server.spec.operation(operationId);
  const key = server.spec.matchStatus(operation, response.statusCode);
  if (kind === 'undocumented_status') return valid && key === undefined;
  if (kind === 'text_plain') return String(response.headers['content-type'] ?? '').startsWith('text/plain');
  if (kind === 'date_malformed') return valid && imfFixdateProblem(String(response.headers.date)) !== undefined;
  if (!key || response.body === '') return false;
  const result = server.spec.validateResponse(operation, key, 'application/json', JSON.parse(response.body));
  return result !== undefined && !result.ok;
}

/** Observations of the write-side faults: a valid write or a refused request of the operation breaks as the kind says. */
const WRITE_SHOWS = Object.fromEntries(
  Object.entries(WRITE_FAULT_OPERATIONS).flatMap(([slug, operationId]) =>
    (Object.keys(WRITE_FAULT_KINDS) as (keyof typeof WRITE_FAULT_KINDS)[]).map((kind) => [
      `${slug}_${kind}`,
      async (server: TestServer) => {
        const { valid, refused } = await WRITES[slug as keyof typeof WRITE_FAULT_OPERATIONS](server);
        expect(valid.statusCode, `${operationId}: ${valid.body.slice(0, 200)}`).toBeLessThan(400);
        return breaks(server, operationId, kind, valid, true) || breaks(server, operationId, kind, refused, false);
      },
    ]),
  ),
) as Record<WriteFaultId, (server: TestServer) => Promise<boolean>>;

/** A token the OAuth client got for an authorization code on `server`, and the client's introspection of its access token. */
async function introspectedToken(server: TestServer): Promise<{ token: Record<string, any>; introspection: Record<string, any> }> {
  const code = created(server.control.mintAuthorizationCode({}));
  const client = { client_id: code.client_id as string, client_secret: server.fixtures.oauth_client_secret! };
  const form = { grant_type: 'authorization_code', code: code.code as string, ...client, ...(code.redirect_uri ? { redirect_uri: code.redirect_uri as string } : {}) };
  const token = await server.send('POST', '/v1/oauth2/token', { as: null, form });
  expect(token.statusCode, token.body).toBe(200);
  const introspection = await server.send('POST', '/v1/oauth2/introspect', { as: null, form: { token: token.json().access_token, ...client } });
  expect(introspection.statusCode, introspection.body).toBe(200);
  return { token: token.json(), introspection: introspection.json() };
}

/** The upload parts `POST /v1/files/` answers on `server` for a 10-byte file asked in two parts of 5 bytes. */
async function answeredUploadParts(server: TestServer): Promise<Record<string, any>[]> {
  const parts = [{ number: 1, chunk_start: 0, chunk_end: 4 }, { number: 2, chunk_start: 5, chunk_end: 9 }];
  const response = await server.send('POST', '/v1/files/', { json: { name: 'parts.bin', mime_type: 'application/octet-stream', size: 10, service: 'downloadable', upload: { parts } } });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json().upload.parts;
}

/** A new pending order of the portal customer on `server`, paid when `paid`. */
function newOrder(server: TestServer, paid: boolean): Record<string, any> {
  const order = created(server.control.createOrder({}));
  if (paid) created(server.control.completeOrder(order.id as string));
  return order;
}

/** What each fault breaks, observed through the API: true when the server shows the defect. */
const SHOWS: Record<FaultId, (server: TestServer) => Promise<boolean>> = {
  ...WRITE_SHOWS,
  async cross_tenant_write(server) {
    const order = created(server.control.createOrder({}));
    const read = await server.get('/v1/products/', { id: server.fixtures.product_id! }, 'other_org');
    const write = await server.send('PATCH', `/v1/orders/${order.id}`, { json: { billing_name: 'Other Org Ltd' }, as: 'other_org' });
    return read.json().items.length === 0 && write.statusCode === 200;
  },
  async pat_refused_on_writes(server) {
    const product = created(server.control.createProduct({}));
    const write = await server.send('POST', `/v1/products/${product.id}/benefits`, { json: { benefits: [] }, as: 'pat' });
    return write.statusCode === 403 && (await server.get('/v1/products/', {}, 'pat')).statusCode === 200;
  },
  async member_session_refused_on_writes(server) {
    const order = created(server.control.createOrder({}));
    const write = await server.send('PATCH', `/v1/customer-portal/orders/${order.id}`, { json: { billing_name: 'Member Ltd' }, as: 'member_session' });
    return write.statusCode === 403 && (await server.get('/v1/customer-portal/license-keys/', {}, 'member_session')).statusCode === 200;
  },
  async benefits_update_not_persisted(server) {
    const product = created(server.control.createProduct({}));
    const write = await server.send('POST', `/v1/products/${product.id}/benefits`, { json: { benefits: [server.fixtures.benefit_id] } });
    const read = await server.get('/v1/products/', { id: product.id as string });
    return write.statusCode === 200 && write.json().benefits.length === 1 && read.json().items[0].benefits.length === 0;
  },
  async limit_unbounded(server) {
    const response = await server.get('/v1/products/', { limit: 150 });
    return response.statusCode === 200 && response.json().items.length > 100;
  },
  async total_count_off_by_one(server) {
    const body = (await server.get('/v1/products/', { limit: 10 })).json();
    const truth = server.store.products.inOrganization(server.fixtures.organization_id!).length;
    return body.pagination.total_count !== truth || body.pagination.max_page !== Math.ceil(truth / 10);
  },
  async scopes_ignored(server) {
    return (await server.get('/v1/subscriptions/', {}, 'no_scope')).statusCode === 200;
  },
  async missing_auth_accepted(server) {
    return (await server.get('/v1/products/', {}, null)).statusCode === 200;
  },
  async sorting_ignored(server) {
    const { items } = await server.all('/v1/products/', { sorting: 'name' });
    const compare = expectedCompare([{ value: (item) => item.name, descending: false }]);
    return items.some((item, i) => i > 0 && compare(items[i - 1], item) > 0);
  },
  async filter_ignored(server) {
    const subscriptions = (await server.all('/v1/subscriptions/', { status: 'canceled' })).items;
    const products = (await server.all('/v1/products/', { visibility: 'draft' })).items;
    return subscriptions.some((s) => s.status !== 'canceled') && products.some((p) => p.visibility !== 'draft');
  },
  async server_error_on_bad_limit(server) {
    return (await server.get('/v1/products/', { limit: 'abc' })).statusCode >= 500;
  },
  async wrong_content_type(server) {
    return !String((await server.get('/v1/products/')).headers['content-type']).startsWith('application/json');
  },
  async missing_field(server) {
    return (await server.get('/v1/products/')).json().items.some((item: object) => !('is_archived' in item));
  },
  async pages_overlap(server) {
    const { items } = await server.all('/v1/products/', { limit: 10 });
    const total = server.store.products.inOrganization(server.fixtures.organization_id!).length;
    return new Set(ids(items)).size !== total || items.length !== total;
  },
  async undocumented_status(server) {
    return (await server.get('/v1/products/', { organization_id: server.fixtures.other_organization_id! })).statusCode === 204;
  },
  async tenant_leak(server) {
    return (await server.get(`/v1/customers/${server.fixtures.customer_id}/payment-methods`, {}, 'other_org')).statusCode === 200;
  },
  async portal_isolation_broken(server) {
    const { items } = await server.all('/v1/customer-portal/license-keys/', {}, 'customer_session');
    return items.some((key) => key.customer_id !== server.fixtures.customer_id);
  },
  async benefits_foreign_accepted(server) {
    const response = await server.send('POST', `/v1/products/${server.fixtures.product_id}/benefits`, { json: { benefits: [server.fixtures.other_organization_benefit_id] } });
    return response.statusCode === 200;
  },
  async invitation_token_reusable(server) {
    const invited = server.control.createSeatInvitation();
    if (!invited.ok) throw new Error(invited.error.message);
    const claim = () => server.send('POST', '/v1/customer-seats/claim', { as: null, json: { invitation_token: invited.value.invitation_token } });
    await claim();
    return (await claim()).statusCode === 200;
  },
  async no_cascade_on_delete(server) {
    const [customer] = server.store.customers.lookup('external_id', server.fixtures.customer_external_id!);
    await server.send('DELETE', `/v1/customers/external/${server.fixtures.customer_external_id}`);
    return server.store.subscriptions.lookup('customer_id', customer!.id).some((s) => s.status === 'active');
  },
  async invoice_generated_implicitly(server) {
    const created = server.control.createOrder();
    if (!created.ok) throw new Error(created.error.message);
    server.control.completeOrder(created.value.id as string);
    return (await server.get(`/v1/orders/${created.value.id}/invoice`)).statusCode === 200;
  },
  async event_skipped(server) {
    const created = server.control.createOrder();
    if (!created.ok) throw new Error(created.error.message);
    server.control.completeOrder(created.value.id as string);
    return !server.control.events('order.paid').some((event) => event.data.id === created.value.id);
  },
  async renewal_without_order(server) {
    const subscription = created(server.control.createClockSubscription({ customer_id: server.fixtures.customer_id! }));
    server.control.advanceClock(32 * DAY_MS);
    return ![...server.store.orders.all()].some((order) => order.subscription_id === subscription.id && order.billing_reason === 'subscription_cycle');
  },
  async renewal_period_unchanged(server) {
    const subscription = created(server.control.createClockSubscription({ customer_id: server.fixtures.customer_id! }));
    const startedPeriod = server.store.subscriptions.get(subscription.id as string)!.current_period_start;
    server.control.advanceClock(32 * DAY_MS);
    const cycled = server.control.events('subscription.cycled').some((event) => event.data.id === subscription.id);
    return cycled && server.store.subscriptions.get(subscription.id as string)!.current_period_start === startedPeriod;
  },
  async cancel_at_period_end_ignored(server) {
    const subscription = created(server.control.createClockSubscription({ customer_id: server.fixtures.customer_id!, cancel_at_period_end: true }));
    server.control.advanceClock(32 * DAY_MS);
    return server.store.subscriptions.get(subscription.id as string)!.status !== 'canceled';
  },
  async order_paid_before_created(server) {
    const subscription = created(server.control.createClockSubscription({ customer_id: server.fixtures.customer_id! }));
    server.control.advanceClock(32 * DAY_MS);
    const types = server.control.events().filter((event) => event.data.subscription_id === subscription.id && event.data.billing_reason === 'subscription_cycle').map((event) => event.type);
    return types.indexOf('order.paid') < types.indexOf('order.created');
  },
  async refund_event_skipped(server) {
    const created = server.control.createOrder();
    if (!created.ok) throw new Error(created.error.message);
    server.control.completeOrder(created.value.id as string);
    const updates = () => server.control.events('order.updated').filter((event) => event.data.id === created.value.id).length;
    const before = updates();
    const refunded = server.control.refundOrder(created.value.id as string, { amount: 1 });
    if (!refunded.ok) throw new Error(refunded.error.message);
    return updates() === before;
  },
  async introspect_unknown_active(server) {
    const response = await server.send('POST', '/v1/oauth2/introspect', { as: null, form: { token: 'not-a-token', client_id: server.fixtures.oauth_client_id!, client_secret: server.fixtures.oauth_client_secret! } });
    return response.json().active === true;
  },
  async oauth_code_reusable(server) {
    const minted = server.control.mintAuthorizationCode();
    if (!minted.ok) throw new Error(minted.error.message);
    const form = { grant_type: 'authorization_code', code: minted.value.code, redirect_uri: minted.value.redirect_uri!, client_id: server.fixtures.oauth_client_id!, client_secret: server.fixtures.oauth_client_secret! };
    await server.send('POST', '/v1/oauth2/token', { as: null, form });
    return (await server.send('POST', '/v1/oauth2/token', { as: null, form })).statusCode === 200;
  },
  async upload_checksum_ignored(server) {
    const checksum = createHash('sha256').update('0123456789').digest('base64');
    const created = await server.send('POST', '/v1/files/', { json: { name: 'x.txt', mime_type: 'text/plain', size: 10, service: 'downloadable', upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 9, checksum_sha256_base64: checksum }] } } });
    const put = await server.app.inject({ method: 'PUT', url: localPath(created.json().upload.parts[0].url), payload: Buffer.from('9876543210') });
    return put.statusCode === 200;
  },
  async receipt_5xx(server) {
    return (await server.get(`/v1/orders/${server.fixtures.order_id}/receipt`)).statusCode >= 500;
  },
  async error_body_wrong(server) {
    const response = await server.get('/v1/products/', {}, null);
    return response.statusCode === 401 && !('error' in response.json());
  },
  async rate_limit_ignored(server) {
    // The test servers run without a limit; this one has a small one, and the server's faults.
    const limited = await buildApp({ faults: server.faults, rateLimit: { max: 5, windowMs: 60_000 } });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await limited.app.inject({ url: '/v1/products/', headers: { authorization: `Bearer ${limited.credentials.admin}` } })).statusCode);
    await limited.app.close();
    return !statuses.includes(429);
  },
  async retry_after_malformed(server) {
    const limited = await buildApp({ faults: server.faults, rateLimit: { max: 1, windowMs: 60_000 } });
    const statuses = [];
    for (let i = 0; i < 2; i++) statuses.push(await limited.app.inject({ url: '/v1/products/', headers: { authorization: `Bearer ${limited.credentials.admin}` } }));
    await limited.app.close();
    const retryAfter = String(statuses[1]!.headers['retry-after']);
    return statuses[1]!.statusCode === 429 && retryAfterProblem(retryAfter) !== undefined;
  },
  async date_header_malformed(server) {
    const date = (await server.get('/v1/products/')).headers.date;
    return typeof date === 'string' && imfFixdateProblem(date) !== undefined;
  },
  async webhook_unsigned(server) {
    const { received } = await deliveredOnOrder(server, true);
    return received.length > 0 && received.every((request) => request.headers['webhook-signature'] === undefined);
  },
  async webhook_wrong_signature(server) {
    const { received, secret } = await deliveredOnOrder(server, true);
    // The platform's own verifiers judge: neither SDK line accepts a delivery signed with another key.
    const verdicts = await Promise.all(received.map((request) => verifyWithBoth(request.body, request.headers, secret)));
    return verdicts.length > 0 && verdicts.some((v) => !v['0.49.0'].accepted && !v['1.0.1'].accepted && /No matching signature/.test(v['1.0.1'].error ?? ''));
  },
  async webhook_decoded_key(server) {
    // A secret whose token is standard base64 (the shape the reference used to make), which the 1.x line's fallback can decode.
    const { received, secret } = await deliveredOnOrder(server, true, `whsec_${Buffer.alloc(32, 5).toString('base64')}`);
    // Only the 1.x line's fallback accepts the decoded key; the 0.x line, which the framework adapters bundle, rejects it.
    const verdicts = await Promise.all(received.map((request) => verifyWithBoth(request.body, request.headers, secret)));
    return verdicts.length > 0 && verdicts.every((v) => !v['0.49.0'].accepted && v['1.0.1'].accepted);
  },
  async webhook_test_clock_timestamp(server) {
    // Once the test clock runs ahead of the wall clock, both lines reject what it stamped as too new.
    server.control.advanceClock(86_400_000);
    const { received, secret } = await deliveredOnOrder(server, true);
    const verdicts = await Promise.all(received.map((request) => verifyWithBoth(request.body, request.headers, secret)));
    return verdicts.length > 0 && verdicts.every((v) => !v['0.49.0'].accepted && /too new/.test(v['1.0.1'].error ?? ''));
  },
  async webhook_disabled_delivered(server) {
    return (await deliveredOnOrder(server, false)).received.length > 0;
  },
  async write_scope_refused(server) {
    return (await server.get('/v1/products/', {}, 'writer')).statusCode === 403;
  },
  async list_leaks_other_org(server) {
    const { items } = await server.all('/v1/products/', {}, 'other_org');
    return items.some((product) => product.organization_id === server.fixtures.organization_id);
  },
  async not_found_error_value_wrong(server) {
    const response = await server.get('/v1/orders/00000000-0000-4000-8000-000000000000/receipt');
    return response.statusCode === 404 && response.json().error !== 'ResourceNotFound';
  },
  async pat_refused(server) {
    return (await server.get('/v1/products/', {}, 'pat')).statusCode === 403;
  },
  async member_session_refused(server) {
    return (await server.get('/v1/customer-portal/license-keys/', {}, 'member_session')).statusCode === 403;
  },
  async timestamps_without_fraction(server) {
    const timestamps = (await server.get('/v1/products/')).json().items.flatMap((item: { created_at: string; prices: { created_at: string }[] }) => [item.created_at, ...item.prices.map((price) => price.created_at)]);
    return timestamps.length > 0 && timestamps.every((timestamp: string) => /:\d{2}Z$/.test(timestamp));
  },
  async is_deletable_in_2026_04(server) {
    // The fault shows in version 2026-04 only: a server of that version, with this server's faults.
    const earlier = await buildApp({ faults: server.faults, apiVersion: '2026-04', rateLimit: false });
    try {
      const get = async (url: string) => (await earlier.app.inject({ url, headers: { authorization: `Bearer ${earlier.credentials.admin}` } })).json().items as Record<string, any>[];
      const products = await get('/v1/products/');
      const embedded = (await get('/v1/subscriptions/')).map((subscription) => subscription.product);
      return [...products, ...embedded].some((product) => 'is_deletable' in product);
    } finally {
      await earlier.app.close();
    }
  },
  async timestamps_not_utc(server) {
    return (await server.get('/v1/products/')).json().items.some((item: { created_at: string }) => item.created_at.endsWith('+02:00'));
  },
  async embedded_customer_mismatch(server) {
    const { items } = (await server.get('/v1/subscriptions/', { limit: 100 })).json();
    return items.some((s: { customer: { id: string }; customer_id: string }) => s.customer.id !== s.customer_id);
  },
  async one_time_interval_count(server) {
    const { items } = (await server.get('/v1/products/', { limit: 100 })).json();
    return items.some((p: { recurring_interval: unknown; recurring_interval_count: unknown }) => p.recurring_interval === null && p.recurring_interval_count !== null);
  },
  async meter_interval_count_without_cycle(server) {
    const { items } = (await server.get('/v1/products/', { limit: 100 })).json();
    return items.some((p: { meter_interval: unknown; meter_interval_count: unknown }) => p.meter_interval === null && p.meter_interval_count !== null);
  },
  async referenced_product_deletable(server) {
    const { items } = (await server.get('/v1/subscriptions/', { limit: 100 })).json();
    return items.some((s: { product: { is_deletable?: boolean } }) => s.product.is_deletable === true);
  },
  async subscription_product_one_time(server) {
    const { items } = (await server.get('/v1/subscriptions/', { limit: 100 })).json();
    return items.some((s: { product: { is_recurring: boolean } }) => !s.product.is_recurring);
  },
  async display_key_unmasked(server) {
    const { items } = (await server.get('/v1/customer-portal/license-keys/', { limit: 100 }, 'customer_session')).json();
    return items.some((key: { key: string; display_key: string }) => key.display_key.includes(key.key));
  },
  async write_not_persisted(server) {
    // A billing update answered 200, then a restart on the same state file.
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'cnf-fault-state-')), 'state.json');
    const first = await buildApp({ rateLimit: false, faults: server.faults, stateFile: file });
    const order = created(first.control.createOrder({}));
    const update = await first.app.inject({ method: 'PATCH', url: `/v1/orders/${order.id}`, headers: { authorization: `Bearer ${first.credentials.admin}` }, payload: { billing_name: 'Kept Ltd' } });
    expect(update.statusCode).toBe(200);
    await first.app.close();
    const second = await buildApp({ rateLimit: false, faults: server.faults, stateFile: file });
    try {
      return second.store.orders.get(order.id as string)?.billing_name !== 'Kept Ltd';
    } finally {
      await second.app.close();
    }
  },
  async payment_methods_of_organization(server) {
    const { items } = (await server.get(`/v1/customers/${server.fixtures.customer_id}/payment-methods`, { limit: 100 })).json();
    return items.some((method: { customer_id: string }) => method.customer_id !== server.fixtures.customer_id);
  },
  async upload_part_ranges_shifted(server) {
    const parts = await answeredUploadParts(server);
    return parts.some((part) => part.chunk_end !== (part.number === 1 ? 4 : 9));
  },
  async upload_links_expired(server) {
    // Judged by the server's own clock (the clean server's may have been advanced by other observations).
    const parts = await answeredUploadParts(server);
    const now = Date.parse(server.control.clockNow());
    return parts.some((part) => Date.parse(part.expires_at) <= now);
  },
  async order_paid_flag_stale(server) {
    const order = newOrder(server, true);
    const read = (await server.get(`/v1/orders/${order.id}`)).json();
    return read.status === 'paid' && read.paid !== true;
  },
  async order_amount_not_net(server) {
    const order = newOrder(server, false);
    const read = (await server.get(`/v1/orders/${order.id}`)).json();
    // The control API's orders are taxed, so the total is not the net amount.
    expect(read.total_amount).not.toBe(read.net_amount);
    return read.amount !== read.net_amount;
  },
  async introspection_iat_in_milliseconds(server) {
    const { introspection } = await introspectedToken(server);
    return introspection.active === true && introspection.iat > introspection.exp;
  },
  async token_expires_in_milliseconds(server) {
    // The token's lifetime as its introspection states it, against the one the token answer gave.
    const { token, introspection } = await introspectedToken(server);
    return introspection.active === true && Math.abs(token.expires_in - (introspection.exp - introspection.iat)) > 1;
  },
  async modified_before_created(server) {
    const { items } = await server.all('/v1/products/');
    const modified = items.filter((product) => product.modified_at !== null);
    expect(modified.length).toBeGreaterThan(0);
    return modified.some((product) => Date.parse(product.modified_at) < Date.parse(product.created_at));
  },
  async claim_answer_seat_pending(server) {
    const invitation = created(server.control.createSeatInvitation({}));
    const claim = await server.send('POST', '/v1/customer-seats/claim', { as: null, json: { invitation_token: invitation.invitation_token } });
    expect(claim.statusCode, claim.body).toBe(200);
    const { seat } = claim.json();
    return seat.status === 'pending' && seat.claimed_at !== null;
  },
  async billing_address_ignored(server) {
    const order = newOrder(server, false);
    const address = { country: 'FR', line1: '1 rue de Rivoli', postal_code: '75001', city: 'Faultville' };
    const update = await server.send('PATCH', `/v1/orders/${order.id}`, { json: { billing_name: 'Address Ltd', billing_address: address } });
    expect(update.statusCode, update.body).toBe(200);
    const read = (await server.get(`/v1/orders/${order.id}`)).json();
    return update.json().billing_name === 'Address Ltd' && update.json().billing_address?.city !== 'Faultville' && read.billing_address?.city !== 'Faultville';
  },
  async modified_at_not_stored(server) {
    const order = newOrder(server, false);
    const update = await server.send('PATCH', `/v1/orders/${order.id}`, { json: { billing_name: 'Stored Ltd' } });
    expect(update.statusCode, update.body).toBe(200);
    const read = (await server.get(`/v1/orders/${order.id}`)).json();
    return read.billing_name === 'Stored Ltd' && read.modified_at !== update.json().modified_at;
  },
  async list_depends_on_page_size(server) {
    const small = (await server.get('/v1/products/', { limit: 10 })).json();
    const large = (await server.get('/v1/products/', { limit: 50 })).json();
    return small.pagination.total_count !== large.pagination.total_count;
  },
  async customer_read_flaps(server) {
    const customer = created(server.control.createCustomer({ name: 'Flap Ltd' }));
    const names = [];
    for (let i = 0; i < 2; i++) names.push((await server.get(`/v1/customers/${customer.id}`)).json().name);
    return names[0] !== names[1];
  },
};

describe('fault catalogue', () => {
  it('has a unique snake_case id, a rule, a description and a detecting check per fault', () => {
    expect(new Set(FAULTS.map((f) => f.id)).size).toBe(FAULTS.length);
    for (const fault of FAULTS) {
      expect(fault.id).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      expect(fault.detectedBy).toMatch(/^([a-z]+(_[a-z]+)*|pending:#\d+|test:test\/[a-z/-]+\.test\.ts)$/);
      if (fault.detectedBy.startsWith('test:')) expect(existsSync(fileURLToPath(new URL(`../../${fault.detectedBy.slice(5)}`, import.meta.url))), fault.detectedBy).toBe(true);
      expect(fault.rule.length).toBeGreaterThan(0);
      expect(fault.description.length).toBeGreaterThan(0);
    }
  });

  it('is exercised by this file: every fault has an observation', () => {
    expect(Object.keys(SHOWS).sort()).toEqual(FAULTS.map((f) => f.id).sort());
  });

  it('rejects an unknown fault id with CNF_ERR_FAULT_UNKNOWN', async () => {
    expect(() => resolveFaults(['no_such_fault'])).toThrowError(HarnessError);
    await expect(testServer({ faults: ['limit_unbounded', 'no_such_fault'] })).rejects.toMatchObject({ code: 'CNF_ERR_FAULT_UNKNOWN' });
  });
});

describe.each(FAULTS.map((f) => [f.id] as [FaultId]))('fault %s', (id) => {
  it('changes the behaviour it names, which the clean server does not have', async () => {
    const faulty = await testServer({ faults: [id] });
    expect(faulty.faults).toEqual([id]);
    expect(await SHOWS[id](clean)).toBe(false);
    expect(await SHOWS[id](faulty)).toBe(true);
  });
});

describe('faults leave the rest alone', () => {
  it('scopes_ignored still rejects a token kind the operation does not accept', async () => {
    const faulty = await testServer({ faults: ['scopes_ignored'] });
    expect((await faulty.get('/v1/products/', {}, 'oidc')).statusCode).toBe(403);
  });

  it('limit_unbounded still rejects limit=0', async () => {
    const faulty = await testServer({ faults: ['limit_unbounded'] });
    expect((await faulty.get('/v1/products/', { limit: 0 })).statusCode).toBe(422);
  });
});
