// The platform's own TypeScript clients as test clients of the reference: both SDK lines
// (@polar-sh/sdk 0.49.0, which validates every answer with zod, and 1.0.1, which sends Polar-Version
// itself), both API versions, every one of the twenty operations and the read-back operations, on
// their success path with real fixtures and on their documented error paths, against the embedded
// reference listening on a loopback port. Every call succeeds, or fails with the documented error,
// except the differences listed in EXCEPTIONS, each with its reason.
// @see docs/platform.md
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Polar as Polar0 } from 'polar-sdk-0';
import { HTTPClient } from 'polar-sdk-0/lib/http.js';
import { createPolar as createPolar0410 } from 'polar-sdk-1/2026-04';
import { createPolar as createPolar1010 } from 'polar-sdk-1/2026-10';
import { startReferenceServer, type RunningReference } from '../../server/index.js';
import type { ApiVersion } from '../../core/spec/load.js';

type Line = '0.49.0' | '1.0.1';

/**
 * The one list of calls that do not go as the platform's clients expect, and why. `description`:
 * the API description's own words force the difference (its line quoted); `sdk`: the client
 * itself cannot make the call succeed against any server, the platform included. The default demo
 * store holds only the price types the platform's document knows (server/demo-data.ts
 * PLATFORM_PRICE_TYPES), so no answer of it needs an exception for its prices.
 */
const EXCEPTIONS: Record<string, { source: 'description' | 'sdk'; reason: string; outcome: Outcome }> = {
  '0.49.0 files:create': {
    source: 'description',
    reason: 'api-description.md, Endpoints: "POST | /v1/files/ | body (below). Scope files:write | 200 File including upload; 422". The platform answers 201, and 0.49.0 takes any other status for an unexpected answer.',
    outcome: { ok: false, status: 200, kind: 'SDKError' },
  },
  '1.0.1 oauth2:token': {
    source: 'sdk',
    reason: '1.0.1\'s oauth2.requestToken sends no body at all (no grant_type, code or client credentials), so every server refuses it; the reference answers the OAuth 2.0 error of RFC 6749 section 5.2.',
    outcome: { ok: false, status: 400, kind: 'PolarClientError' },
  },
  '1.0.1 oauth2:introspect': {
    source: 'sdk',
    reason: '1.0.1\'s oauth2.introspectToken sends no body (no token, no client credentials), so every server refuses it; the reference answers 400 invalid_request (RFC 7662 section 2.1 needs the token).',
    outcome: { ok: false, status: 400, kind: 'PolarClientError' },
  },
};

/** What a call came to: success, or the error's status code and class name. */
type Outcome = { ok: true } | { ok: false; status: number | undefined; kind: string };

/** A call of one operation through an SDK; `expected` is success or the documented error status. */
interface Call {
  operationId: string;
  name: string;
  expected: 'ok' | number;
  run: () => Promise<unknown>;
}

let reference: RunningReference;

beforeAll(async () => {
  reference = await startReferenceServer({ host: '127.0.0.1', port: 0, rateLimit: false, control: false });
});

afterAll(async () => {
  await reference.close();
});

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** The status code and class of an SDK error, whichever line threw it. */
function outcomeOf(error: unknown): Outcome {
  const e = error as { statusCode?: number; httpMeta?: { response?: Response }; rawResponse?: Response; name?: string; constructor?: { name?: string } };
  const status = e.statusCode ?? e.httpMeta?.response?.status ?? e.rawResponse?.status;
  const kind = e.name && e.name !== 'Error' ? e.name : (e.constructor?.name ?? 'Error');
  return { ok: false, status, kind };
}

async function attempt(call: Call): Promise<Outcome> {
  try {
    await call.run();
    return { ok: true };
  } catch (error) {
    return outcomeOf(error);
  }
}

/** Fresh state for the calls that change it: a paid order of the portal customer (with its billing details), a pending one, one without a billing address. */
function paidOrder(): string {
  const created = reference.control.createOrder();
  if (!created.ok) throw new Error(created.error.message);
  const id = String(created.value.id);
  if (!reference.control.completeOrder(id).ok) throw new Error(`cannot complete order ${id}`);
  return id;
}

function pendingOrder(): string {
  const created = reference.control.createOrder();
  if (!created.ok) throw new Error(created.error.message);
  return String(created.value.id);
}

function freshCustomerExternalId(): string {
  const created = reference.control.createCustomer();
  if (!created.ok) throw new Error(created.error.message);
  return String(created.value.external_id);
}

function invitationToken(): string {
  const invited = reference.control.createSeatInvitation();
  if (!invited.ok) throw new Error(invited.error.message);
  return invited.value.invitation_token;
}

function authorizationCode(): { code: string; redirect_uri: string } {
  const minted = reference.control.mintAuthorizationCode();
  if (!minted.ok) throw new Error(minted.error.message);
  return { code: minted.value.code, redirect_uri: minted.value.redirect_uri! };
}

const FILE = (service: string) => ({ name: `sdk.${service}`, mimeType: 'image/png', size: 10, service, upload: { parts: [{ number: 1, chunkStart: 0, chunkEnd: 9 }] } });

/** The calls of 0.49.0 (Speakeasy, camelCase fields, zod-validated answers); the version is sent by a request hook, as a developer would. */
function callsOf049(version: ApiVersion): Call[] {
  const f = reference.fixtures;
  const httpClient = new HTTPClient();
  httpClient.addHook('beforeRequest', (request) => {
    request.headers.set('Polar-Version', version);
    return request;
  });
  const polar = new Polar0({ serverURL: reference.url, accessToken: reference.tokens.admin, httpClient });
  const session = { customerSession: reference.tokens.customer_session };
  const member = { memberSession: reference.tokens.member_session };
  const unauthenticated = new Polar0({ serverURL: reference.url, httpClient });
  const calls: Call[] = [
    { operationId: 'products:list', name: 'a page', expected: 'ok', run: () => polar.products.list({ limit: 100 }) },
    { operationId: 'products:get', name: 'a product', expected: 'ok', run: () => polar.products.get({ id: f.product_id! }) },
    { operationId: 'products:get', name: 'an unknown product', expected: 404, run: () => polar.products.get({ id: UNKNOWN }) },
    { operationId: 'products:update_benefits', name: 'the product\'s benefits', expected: 'ok', run: () => polar.products.updateBenefits({ id: f.product_id!, productBenefitsUpdate: { benefits: [f.benefit_id!] } }) },
    { operationId: 'products:update_benefits', name: 'another organization\'s product', expected: 404, run: () => polar.products.updateBenefits({ id: f.other_product_id!, productBenefitsUpdate: { benefits: [] } }) },
    { operationId: 'products:update_benefits', name: 'another organization\'s benefit', expected: 422, run: () => polar.products.updateBenefits({ id: f.product_id!, productBenefitsUpdate: { benefits: [f.other_organization_benefit_id!] } }) },
    { operationId: 'oauth2:token', name: 'an authorization code', expected: 'ok', run: () => polar.oauth2.token({ grantType: 'authorization_code', clientId: f.oauth_client_id!, clientSecret: f.oauth_client_secret!, ...(({ code, redirect_uri }) => ({ code, redirectUri: redirect_uri }))(authorizationCode()) }) },
    { operationId: 'oauth2:introspect', name: 'an access token of the client', expected: 'ok', run: async () => {
      const { code, redirect_uri } = authorizationCode();
      const token = await polar.oauth2.token({ grantType: 'authorization_code', clientId: f.oauth_client_id!, clientSecret: f.oauth_client_secret!, code, redirectUri: redirect_uri });
      const introspected = await polar.oauth2.introspect({ token: token.accessToken, clientId: f.oauth_client_id!, clientSecret: f.oauth_client_secret! });
      if (!introspected.active) throw new Error('the access token just issued is not active');
      return introspected;
    } },
    { operationId: 'files:list', name: 'a page', expected: 'ok', run: () => polar.files.list({ limit: 100 }) },
    { operationId: 'files:create', name: 'a product media file', expected: 'ok', run: () => polar.files.create(FILE('product_media') as never) },
    { operationId: 'customer_portal:license_keys:list', name: 'a customer session', expected: 'ok', run: () => polar.customerPortal.licenseKeys.list(session, {}) },
    { operationId: 'customer_portal:license_keys:list', name: 'a member session', expected: 'ok', run: () => polar.customerPortal.licenseKeys.list(member, {}) },
    { operationId: 'customer_portal:license_keys:list', name: 'no credentials', expected: 401, run: () => unauthenticated.customerPortal.licenseKeys.list({ customerSession: 'polar_cst_unknown' } as never, {}) },
    { operationId: 'customers:get', name: 'a customer', expected: 'ok', run: () => polar.customers.get({ id: f.customer_id! }) },
    { operationId: 'customers:get', name: 'an unknown customer', expected: 404, run: () => polar.customers.get({ id: UNKNOWN }) },
    { operationId: 'customers:list_payment_methods', name: 'a page', expected: 'ok', run: () => polar.customers.listPaymentMethods({ id: f.customer_id! }) },
    { operationId: 'customers:list_payment_methods', name: 'an unknown customer', expected: 404, run: () => polar.customers.listPaymentMethods({ id: UNKNOWN }) },
    { operationId: 'customers:delete_external', name: 'a customer', expected: 'ok', run: () => polar.customers.deleteExternal({ externalId: freshCustomerExternalId(), anonymize: true }) },
    { operationId: 'customers:delete_external', name: 'an unknown external id', expected: 404, run: () => polar.customers.deleteExternal({ externalId: 'cus_nobody' }) },
    { operationId: 'customer_seats:claim', name: 'an invitation', expected: 'ok', run: () => polar.customerSeats.claimSeat({ invitationToken: invitationToken() }) },
    { operationId: 'customer_seats:claim', name: 'an unknown invitation', expected: 422, run: () => polar.customerSeats.claimSeat({ invitationToken: 'nope' }) },
    { operationId: 'refunds:list', name: 'a page', expected: 'ok', run: () => polar.refunds.list({ limit: 100 }) },
    { operationId: 'subscriptions:list', name: 'a page', expected: 'ok', run: () => polar.subscriptions.list({ limit: 100 }) },
    { operationId: 'subscriptions:get', name: 'a subscription', expected: 'ok', run: () => polar.subscriptions.get({ id: f.subscription_id! }) },
    { operationId: 'subscriptions:get', name: 'another organization\'s subscription', expected: 404, run: () => polar.subscriptions.get({ id: f.other_subscription_id! }) },
    { operationId: 'webhooks:list_endpoints', name: 'a page', expected: 'ok', run: () => polar.webhooks.listWebhookEndpoints({}) },
    { operationId: 'orders:get', name: 'an order', expected: 'ok', run: () => polar.orders.get({ id: f.order_id! }) },
    { operationId: 'orders:get', name: 'another organization\'s order', expected: 404, run: () => polar.orders.get({ id: f.other_order_id! }) },
    { operationId: 'orders:update', name: 'billing details', expected: 'ok', run: () => polar.orders.update({ id: paidOrder(), orderUpdate: { billingName: 'ACME GmbH', billingAddress: { country: 'DE', line1: 'Unter den Linden 1', city: 'Berlin', postalCode: '10117' } } as never }) },
    { operationId: 'orders:update', name: 'an unknown order', expected: 404, run: () => polar.orders.update({ id: UNKNOWN, orderUpdate: { billingName: 'x' } as never }) },
    { operationId: 'orders:get_receipt', name: 'a paid order', expected: 'ok', run: () => polar.orders.receipt({ id: f.order_id! }) },
    { operationId: 'orders:get_receipt', name: 'an unknown order', expected: 404, run: () => polar.orders.receipt({ id: UNKNOWN }) },
    { operationId: 'orders:generate_invoice', name: 'a paid order', expected: 'ok', run: () => polar.orders.generateInvoice({ id: paidOrder() }) },
    { operationId: 'orders:generate_invoice', name: 'a pending order', expected: 409, run: () => polar.orders.generateInvoice({ id: pendingOrder() }) },
    { operationId: 'orders:generate_invoice', name: 'an order without a billing address', expected: 422, run: async () => {
      const id = paidOrder();
      await polar.orders.update({ id, orderUpdate: { billingAddress: null } as never });
      return polar.orders.generateInvoice({ id });
    } },
    { operationId: 'orders:get_invoice', name: 'a generated invoice', expected: 'ok', run: async () => {
      const id = paidOrder();
      await polar.orders.generateInvoice({ id });
      return polar.orders.invoice({ id });
    } },
    { operationId: 'orders:get_invoice', name: 'before generation', expected: 404, run: () => polar.orders.invoice({ id: paidOrder() }) },
    { operationId: 'customer_portal:orders:get', name: 'an own order', expected: 'ok', run: () => polar.customerPortal.orders.get(session, { id: f.order_id! }) },
    { operationId: 'customer_portal:orders:get', name: 'another customer\'s order', expected: 404, run: () => polar.customerPortal.orders.get(session, { id: f.other_order_id! }) },
    { operationId: 'customer_portal:orders:update', name: 'billing details', expected: 'ok', run: () => polar.customerPortal.orders.update(session, { id: paidOrder(), customerOrderUpdate: { billingName: 'Ada Lovelace' } as never }) },
    { operationId: 'customer_portal:orders:get_receipt', name: 'an own paid order', expected: 'ok', run: () => polar.customerPortal.orders.receipt(session, { id: f.order_id! }) },
    { operationId: 'customer_portal:orders:get_receipt', name: 'an unknown order', expected: 404, run: () => polar.customerPortal.orders.receipt(session, { id: UNKNOWN }) },
    { operationId: 'customer_portal:orders:generate_invoice', name: 'an own paid order', expected: 'ok', run: () => polar.customerPortal.orders.generateInvoice(member, { id: paidOrder() }) },
    { operationId: 'customer_portal:orders:generate_invoice', name: 'a pending order', expected: 409, run: () => polar.customerPortal.orders.generateInvoice(session, { id: pendingOrder() }) },
    { operationId: 'customer_portal:orders:get_invoice', name: 'a generated invoice', expected: 'ok', run: async () => {
      const id = paidOrder();
      await polar.customerPortal.orders.generateInvoice(session, { id });
      return polar.customerPortal.orders.invoice(session, { id });
    } },
  ];
  return calls;
}

/** The calls of 1.0.1 (snake_case bodies, answers returned as parsed, the version sent by the client of the version's entry point). */
function callsOf101(version: ApiVersion): Call[] {
  const f = reference.fixtures;
  const create = version === '2026-04' ? createPolar0410 : createPolar1010;
  const polar = create({ baseUrl: reference.url, accessToken: reference.tokens.admin });
  const session = { accessToken: reference.tokens.customer_session };
  const member = { accessToken: reference.tokens.member_session };
  const calls: Call[] = [
    { operationId: 'products:list', name: 'a page', expected: 'ok', run: () => polar.products.list({ limit: 100 }) },
    { operationId: 'products:get', name: 'a product', expected: 'ok', run: () => polar.products.get(f.product_id!) },
    { operationId: 'products:get', name: 'an unknown product', expected: 404, run: () => polar.products.get(UNKNOWN) },
    { operationId: 'products:update_benefits', name: 'the product\'s benefits', expected: 'ok', run: () => polar.products.updateBenefits(f.product_id!, { benefits: [f.benefit_id!] }) },
    { operationId: 'products:update_benefits', name: 'another organization\'s product', expected: 404, run: () => polar.products.updateBenefits(f.other_product_id!, { benefits: [] }) },
    { operationId: 'products:update_benefits', name: 'another organization\'s benefit', expected: 422, run: () => polar.products.updateBenefits(f.product_id!, { benefits: [f.other_organization_benefit_id!] }) },
    { operationId: 'oauth2:token', name: 'an authorization code', expected: 'ok', run: () => polar.oauth2.requestToken() },
    { operationId: 'oauth2:introspect', name: 'a token', expected: 'ok', run: () => polar.oauth2.introspectToken() },
    { operationId: 'files:list', name: 'a page', expected: 'ok', run: () => polar.files.list({ limit: 100 }) },
    { operationId: 'files:create', name: 'a product media file', expected: 'ok', run: () => polar.files.create({ name: 'sdk.png', mime_type: 'image/png', size: 10, service: 'product_media', upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 9 }] } } as never) },
    { operationId: 'customer_portal:license_keys:list', name: 'a customer session', expected: 'ok', run: () => polar.customerPortal.licenseKeys.list({}, session) },
    { operationId: 'customer_portal:license_keys:list', name: 'a member session', expected: 'ok', run: () => polar.customerPortal.licenseKeys.list({}, member) },
    { operationId: 'customer_portal:license_keys:list', name: 'an unknown token', expected: 401, run: () => polar.customerPortal.licenseKeys.list({}, { accessToken: 'polar_cst_unknown' }) },
    { operationId: 'customers:get', name: 'a customer', expected: 'ok', run: () => polar.customers.get(f.customer_id!) },
    { operationId: 'customers:get', name: 'an unknown customer', expected: 404, run: () => polar.customers.get(UNKNOWN) },
    { operationId: 'customers:list_payment_methods', name: 'a page', expected: 'ok', run: () => polar.customers.listPaymentMethods(f.customer_id!) },
    { operationId: 'customers:list_payment_methods', name: 'an unknown customer', expected: 404, run: () => polar.customers.listPaymentMethods(UNKNOWN) },
    { operationId: 'customers:delete_external', name: 'a customer', expected: 'ok', run: () => polar.customers.deleteExternal(freshCustomerExternalId(), { anonymize: true }) },
    { operationId: 'customers:delete_external', name: 'an unknown external id', expected: 404, run: () => polar.customers.deleteExternal('cus_nobody') },
    { operationId: 'customer_seats:claim', name: 'an invitation', expected: 'ok', run: () => polar.customerSeats.claimSeat({ invitation_token: invitationToken() }) },
    { operationId: 'customer_seats:claim', name: 'an unknown invitation', expected: 422, run: () => polar.customerSeats.claimSeat({ invitation_token: 'nope' }) },
    { operationId: 'refunds:list', name: 'a page', expected: 'ok', run: () => polar.refunds.list({ limit: 100 }) },
    { operationId: 'subscriptions:list', name: 'a page', expected: 'ok', run: () => polar.subscriptions.list({ limit: 100 }) },
    { operationId: 'subscriptions:get', name: 'a subscription', expected: 'ok', run: () => polar.subscriptions.get(f.subscription_id!) },
    { operationId: 'subscriptions:get', name: 'another organization\'s subscription', expected: 404, run: () => polar.subscriptions.get(f.other_subscription_id!) },
    { operationId: 'webhooks:list_endpoints', name: 'a page', expected: 'ok', run: () => polar.webhooks.listWebhookEndpoints({}) },
    { operationId: 'orders:get', name: 'an order', expected: 'ok', run: () => polar.orders.get(f.order_id!) },
    { operationId: 'orders:get', name: 'another organization\'s order', expected: 404, run: () => polar.orders.get(f.other_order_id!) },
    { operationId: 'orders:update', name: 'billing details', expected: 'ok', run: () => polar.orders.update(paidOrder(), { billing_name: 'ACME GmbH', billing_address: { country: 'DE', line1: 'Unter den Linden 1', city: 'Berlin', postal_code: '10117' } } as never) },
    { operationId: 'orders:update', name: 'an unknown order', expected: 404, run: () => polar.orders.update(UNKNOWN, { billing_name: 'x' } as never) },
    { operationId: 'orders:get_receipt', name: 'a paid order', expected: 'ok', run: () => polar.orders.receipt(f.order_id!) },
    { operationId: 'orders:get_receipt', name: 'an unknown order', expected: 404, run: () => polar.orders.receipt(UNKNOWN) },
    { operationId: 'orders:generate_invoice', name: 'a paid order', expected: 'ok', run: () => polar.orders.generateInvoice(paidOrder()) },
    { operationId: 'orders:generate_invoice', name: 'a pending order', expected: 409, run: () => polar.orders.generateInvoice(pendingOrder()) },
    { operationId: 'orders:generate_invoice', name: 'an order without a billing address', expected: 422, run: async () => {
      const id = paidOrder();
      await polar.orders.update(id, { billing_address: null } as never);
      return polar.orders.generateInvoice(id);
    } },
    { operationId: 'orders:get_invoice', name: 'a generated invoice', expected: 'ok', run: async () => {
      const id = paidOrder();
      await polar.orders.generateInvoice(id);
      return polar.orders.invoice(id);
    } },
    { operationId: 'orders:get_invoice', name: 'before generation', expected: 404, run: () => polar.orders.invoice(paidOrder()) },
    { operationId: 'customer_portal:orders:get', name: 'an own order', expected: 'ok', run: () => polar.customerPortal.orders.get(f.order_id!, session) },
    { operationId: 'customer_portal:orders:get', name: 'another customer\'s order', expected: 404, run: () => polar.customerPortal.orders.get(f.other_order_id!, session) },
    { operationId: 'customer_portal:orders:update', name: 'billing details', expected: 'ok', run: () => polar.customerPortal.orders.update(paidOrder(), { billing_name: 'Ada Lovelace' } as never, session) },
    { operationId: 'customer_portal:orders:get_receipt', name: 'an own paid order', expected: 'ok', run: () => polar.customerPortal.orders.receipt(f.order_id!, session) },
    { operationId: 'customer_portal:orders:get_receipt', name: 'an unknown order', expected: 404, run: () => polar.customerPortal.orders.receipt(UNKNOWN, session) },
    { operationId: 'customer_portal:orders:generate_invoice', name: 'an own paid order', expected: 'ok', run: () => polar.customerPortal.orders.generateInvoice(paidOrder(), member) },
    { operationId: 'customer_portal:orders:generate_invoice', name: 'a pending order', expected: 409, run: () => polar.customerPortal.orders.generateInvoice(pendingOrder(), session) },
    { operationId: 'customer_portal:orders:get_invoice', name: 'a generated invoice', expected: 'ok', run: async () => {
      const id = paidOrder();
      await polar.customerPortal.orders.generateInvoice(id, session);
      return polar.customerPortal.orders.invoice(id, session);
    } },
  ];
  return calls;
}

/** The twenty operations of the description and the six read-back ones, each of which both lines must call. */
const OPERATIONS = [
  'products:list', 'products:get', 'products:update_benefits', 'oauth2:token', 'oauth2:introspect', 'files:list', 'files:create',
  'customer_portal:license_keys:list', 'customers:get', 'customers:list_payment_methods', 'customers:delete_external', 'customer_seats:claim',
  'refunds:list', 'subscriptions:list', 'subscriptions:get', 'webhooks:list_endpoints', 'orders:get', 'orders:update', 'orders:get_receipt',
  'orders:generate_invoice', 'orders:get_invoice', 'customer_portal:orders:get', 'customer_portal:orders:update', 'customer_portal:orders:get_receipt',
  'customer_portal:orders:generate_invoice', 'customer_portal:orders:get_invoice',
];

describe.each([
  ['0.49.0', '2026-04'],
  ['0.49.0', '2026-10'],
  ['1.0.1', '2026-04'],
  ['1.0.1', '2026-10'],
] as [Line, ApiVersion][])('@polar-sh/sdk %s, API version %s', (line, version) => {
  const calls = () => (line === '0.49.0' ? callsOf049(version) : callsOf101(version));

  it('calls each of the twenty operations and the six read-back ones', () => {
    expect([...new Set(calls().map((call) => call.operationId))].sort()).toEqual([...OPERATIONS].sort());
  });

  it('every call succeeds or fails with its documented status, except the listed exceptions', async () => {
    const failures: string[] = [];
    for (const call of calls()) {
      const outcome = await attempt(call);
      const label = `${call.operationId} (${call.name})`;
      const shown = outcome.ok ? 'succeeded' : `${outcome.kind} ${outcome.status ?? '(no status)'}`;
      const exception = call.expected === 'ok' ? EXCEPTIONS[`${line} ${call.operationId}`] : undefined;
      if (exception) {
        const listed = exception.outcome as { kind: string; status: number };
        if (outcome.ok || outcome.kind !== listed.kind || outcome.status !== listed.status) failures.push(`${label}: listed exception expected ${JSON.stringify(exception.outcome)}, got ${shown}`);
      } else if (call.expected === 'ok') {
        if (!outcome.ok) failures.push(`${label}: ${shown}`);
      } else if (outcome.ok || outcome.status !== call.expected || ['SDKError', 'ResponseValidationError'].includes(outcome.kind)) {
        // A documented error must come as its typed error (0.49.0 validates the error body too), never as an SDKError or ResponseValidationError.
        failures.push(`${label}: expected the documented ${call.expected}, got ${shown}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers carry the version asked for', async () => {
    const response = await fetch(`${reference.url}/v1/products/?limit=1`, { headers: { authorization: `Bearer ${reference.tokens.admin}`, 'polar-version': version } });
    expect(response.headers.get('polar-version')).toBe(version);
    const [product] = ((await response.json()) as { items: Record<string, unknown>[] }).items;
    expect(Object.hasOwn(product!, 'is_deletable')).toBe(version === '2026-10');
  });
});

describe('the exceptions', () => {
  it('each names its source and reason, and description-forced ones quote the description', () => {
    for (const [key, exception] of Object.entries(EXCEPTIONS)) {
      expect(key).toMatch(/^(0\.49\.0|1\.0\.1) [a-z0-9_]+:[a-z_:]+$/);
      expect(exception.reason.length).toBeGreaterThan(40);
      if (exception.source === 'description') expect(exception.reason).toMatch(/^api-description\.md, /);
    }
  });
});
