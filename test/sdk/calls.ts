// The calls of the platform's own TypeScript clients (both SDK lines) of every operation, on their
// success path with real fixtures and on their documented error paths, shared by the SDK test and
// the SDK-through-the-proxy test (test/sdk/polar-sdk-proxy.test.ts).
// @see docs/platform.md
import { Polar as Polar0 } from 'polar-sdk-0';
import { HTTPClient } from 'polar-sdk-0/lib/http.js';
import { createPolar as createPolar0410 } from 'polar-sdk-1/2026-04';
import { createPolar as createPolar1010 } from 'polar-sdk-1/2026-10';
import type { RunningReference } from '../../server/index.js';
import type { ApiVersion } from '../../core/spec/load.js';

/** The two SDK lines. */
export type Line = '0.49.0' | '1.0.1';

/** A call of one operation through an SDK; `expected` is success or the documented error status. */
export interface Call {
  operationId: string;
  name: string;
  expected: 'ok' | number;
  run: () => Promise<unknown>;
}

export const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/**
 * The calls of one SDK line in one API version against `reference`, sent to `baseUrl` (default the
 * reference's own URL; a proxy's in front of it).
 */
export function sdkCalls(reference: RunningReference, line: Line, version: ApiVersion, baseUrl: string = reference.url): Call[] {
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
    const polar = new Polar0({ serverURL: baseUrl, accessToken: reference.tokens.admin, httpClient });
    const session = { customerSession: reference.tokens.customer_session };
    const member = { memberSession: reference.tokens.member_session };
    const unauthenticated = new Polar0({ serverURL: baseUrl, httpClient });
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
    const polar = create({ baseUrl, accessToken: reference.tokens.admin });
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

  return line === '0.49.0' ? callsOf049(version) : callsOf101(version);
}

/** The twenty operations of the description and the six read-back ones, each of which both lines must call. */
export const OPERATIONS = [
  'products:list', 'products:get', 'products:update_benefits', 'oauth2:token', 'oauth2:introspect', 'files:list', 'files:create',
  'customer_portal:license_keys:list', 'customers:get', 'customers:list_payment_methods', 'customers:delete_external', 'customer_seats:claim',
  'refunds:list', 'subscriptions:list', 'subscriptions:get', 'webhooks:list_endpoints', 'orders:get', 'orders:update', 'orders:get_receipt',
  'orders:generate_invoice', 'orders:get_invoice', 'customer_portal:orders:get', 'customer_portal:orders:update', 'customer_portal:orders:get_receipt',
  'customer_portal:orders:generate_invoice', 'customer_portal:orders:get_invoice',
];

