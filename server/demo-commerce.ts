/**
 * The second part of the demo dataset, drawn after the catalogue and the subscriptions from a
 * faker of its own (so that adding records here never changes the ids of the first part): payment
 * methods, orders with refunds and disputes, license keys, members and seats, files of every
 * service, webhook endpoints and an OAuth client per organization. Like the first part it is a pure
 * function of the seed and never reads the clock.
 * @see docs/design.md (Reference server: one seed for ids, timestamps and demo data)
 */
import { createHash } from 'node:crypto';
import type { DemoPortalIdentity } from './auth.js';
import { DEMO_NOW_MICROS, Draw, seededFaker } from './demo-draw.js';
import type {
  CustomerRecord,
  FileRecord,
  FileService,
  LicenseKeyRecord,
  MemberRecord,
  OrderRecord,
  ProductRecord,
  RefundRecord,
  SubscriptionRecord,
} from './records.js';
import { draftOrder, nextInvoiceNumber } from './resources/orders/create.js';
import type { Store } from './store.js';
import { formatTimestamp, MICROS_PER_DAY, parseTimestamp } from './timestamps.js';

/** Record counts of the second part, per organization. */
export interface CommerceSizes {
  /** Orders of one-time products (subscriptions get their own orders besides). */
  oneTimeOrders: number;
  /** Files of each of the four services (product media files come with the products, besides). */
  filesPerService: number;
  webhookEndpoints: number;
}

/** Sizes of organization A. */
export const COMMERCE_A_SIZES: CommerceSizes = { oneTimeOrders: 60, filesPerService: 6, webhookEndpoints: 5 };
/** Sizes of organization B. */
export const COMMERCE_B_SIZES: CommerceSizes = { oneTimeOrders: 15, filesPerService: 2, webhookEndpoints: 2 };

/** The redirect URIs every demo OAuth client has registered. */
export const DEMO_REDIRECT_URIS = ['https://app.example.com/oauth/callback', 'http://127.0.0.1:8765/callback'] as const;

/** What the second part gives the rest of the server. */
export interface CommerceData {
  /** The customer and member behind the demo customer_session and member_session tokens. */
  portal: DemoPortalIdentity;
  /** The demo OAuth clients' secrets, by organization (`a`, `b`): the only place they exist in clear. */
  oauthClients: { a: { clientId: string; clientSecret: string }; b: { clientId: string; clientSecret: string } };
  /** Fixture ids of this part (see {@link seedCommerce}). */
  fixtures: Record<string, string>;
}

const HOUR = MICROS_PER_DAY / 24;
const EVENT_KINDS = ['checkout.created', 'order.created', 'order.updated', 'order.paid', 'subscription.canceled', 'customer.deleted'];
const MIME_TYPES: Record<FileService, [string, string][]> = {
  downloadable: [['application/pdf', 'pdf'], ['application/zip', 'zip'], ['text/plain', 'txt']],
  product_media: [['image/png', 'png'], ['image/jpeg', 'jpeg'], ['image/webp', 'webp']],
  organization_avatar: [['image/png', 'png'], ['image/jpeg', 'jpeg']],
  support_case_attachment: [['image/png', 'png'], ['application/pdf', 'pdf'], ['text/plain', 'txt']],
};
const SERVICES: FileService[] = ['downloadable', 'product_media', 'organization_avatar', 'support_case_attachment'];

function micros(timestamp: string): number {
  return parseTimestamp(timestamp)!;
}

/** A secret derived from the seed, like the demo tokens: printed by `serve`, never random. */
function demoSecret(store: Store, name: string, length = 40): string {
  return createHash('sha256').update(`reference-demo-secret:${store.seed}:${name}`).digest('hex').slice(0, length);
}

function paymentMethods(d: Draw, store: Store, customer: CustomerRecord, force: boolean): void {
  const count = customer.default_payment_method_id !== null ? d.weighted([[1, 6], [2, 3], [3, 1]]) : force ? 2 : d.weighted([[0, 6], [1, 3], [2, 1]]);
  const created = micros(customer.created_at);
  for (let i = 0; i < count; i++) {
    const wallet = d.weighted<string | null>([[null, 8], ['apple_pay', 1], ['google_pay', 1]]);
    store.paymentMethods.insert({
      id: i === 0 && customer.default_payment_method_id !== null ? customer.default_payment_method_id : d.uuid(),
      organization_id: customer.organization_id,
      created_at: d.at(created, DEMO_NOW_MICROS - HOUR),
      modified_at: null,
      customer_id: customer.id,
      processor: 'stripe',
      type: 'card',
      method_metadata: {
        brand: d.pick(['visa', 'mastercard', 'amex', 'discover']),
        last4: d.f.string.numeric(4),
        exp_month: d.int(1, 12),
        exp_year: d.int(2026, 2032),
        wallet,
      },
    });
  }
}

interface OrderPlan {
  product: ProductRecord;
  customer: CustomerRecord;
  subscription: SubscriptionRecord | null;
  createdAt: number;
  reason: string;
  paid: boolean;
}

function order(d: Draw, store: Store, plan: OrderPlan, invoiced: boolean): OrderRecord {
  const { product, customer, subscription } = plan;
  const createdAt = formatTimestamp(plan.createdAt);
  const itemIds = product.price_ids.map(() => d.uuid());
  const record = draftOrder(store, {
    id: d.uuid(),
    itemIds,
    product,
    customerId: customer.id,
    subscriptionId: subscription?.id ?? null,
    discount: subscription?.discount_id ? (store.discounts.get(subscription.discount_id) ?? null) : null,
    checkoutId: plan.reason === 'subscription_cycle' ? null : d.uuid(),
    billingReason: plan.reason,
    seats: subscription?.seats ?? null,
    taxBasisPoints: d.pick([0, 2000, 1900, 825]),
    createdAt,
    billingName: customer.billing_name ?? customer.name,
    billingAddress: customer.billing_address,
    invoiceNumber: nextInvoiceNumber(store, product.organization_id),
  });
  if (plan.paid) {
    record.status = 'paid';
    record.modified_at = formatTimestamp(Math.min(plan.createdAt + d.int(1, 120) * 1_000_000, DEMO_NOW_MICROS));
    if (invoiced) record.invoice_generated_at = d.at(micros(record.modified_at), DEMO_NOW_MICROS);
  }
  return store.orders.insert(record);
}

function refund(d: Draw, store: Store, paid: OrderRecord): RefundRecord {
  const created = d.between(micros(paid.created_at) + HOUR, DEMO_NOW_MICROS);
  const full = d.chance(0.5);
  const amount = full ? paid.net_amount : Math.max(1, Math.floor(paid.net_amount * d.int(10, 90) / 100));
  const tax = paid.net_amount === 0 ? 0 : Math.round((paid.tax_amount * amount) / paid.net_amount);
  const status = d.weighted([['succeeded', 6], ['pending', 2], ['failed', 1], ['canceled', 1]]);
  const disputed = d.chance(0.3);
  const reason = disputed ? 'dispute_prevention' : d.pick(['duplicate', 'fraudulent', 'customer_request', 'service_disruption', 'satisfaction_guarantee', 'other']);
  const record: RefundRecord = {
    id: d.uuid(),
    organization_id: paid.organization_id,
    created_at: formatTimestamp(created),
    modified_at: d.maybeAfter(created, 0.5),
    metadata: d.chance(0.3) ? { ticket: `T-${d.int(1000, 9999)}` } : {},
    status,
    reason,
    amount,
    tax_amount: tax,
    currency: paid.currency,
    order_id: paid.id,
    subscription_id: paid.subscription_id,
    customer_id: paid.customer_id,
    revoke_benefits: d.chance(0.3),
    dispute: null,
  };
  if (disputed) {
    const disputeStatus = d.pick(['needs_response', 'under_review', 'won', 'lost', 'prevented', 'early_warning']);
    const resolved = disputeStatus === 'won' || disputeStatus === 'lost' || disputeStatus === 'prevented';
    const dueBy = d.between(created, DEMO_NOW_MICROS + 20 * MICROS_PER_DAY);
    record.dispute = {
      id: d.uuid(),
      created_at: formatTimestamp(created),
      modified_at: null,
      status: disputeStatus,
      resolved,
      closed: resolved,
      amount: paid.total_amount,
      tax_amount: paid.tax_amount,
      currency: paid.currency,
      reason: d.pick(['fraudulent', 'product_not_received', 'duplicate', 'general']),
      evidence_due_by: resolved ? null : formatTimestamp(dueBy),
      past_due: !resolved && dueBy < DEMO_NOW_MICROS,
      order_id: paid.id,
      payment_id: d.uuid(),
    };
  }
  if (status === 'succeeded') store.orders.update(paid, { refunded_amount: paid.refunded_amount + amount, refunded_tax_amount: paid.refunded_tax_amount + tax });
  return store.refunds.insert(record);
}

function licenseKey(d: Draw, store: Store, customer: CustomerRecord, benefitId: string, grantedAt: number, revoked: boolean): LicenseKeyRecord {
  const benefit = store.benefits.get(benefitId)!;
  const prefix = String(benefit.properties.prefix ?? 'KEY');
  const key = `${prefix}-${d.f.string.hexadecimal({ length: 32, casing: 'upper', prefix: '' }).replace(/(.{8})(?!$)/g, '$1-')}`;
  const limited = d.chance(0.5);
  const validations = d.int(0, 400);
  return store.licenseKeys.insert({
    id: d.uuid(),
    organization_id: customer.organization_id,
    created_at: formatTimestamp(grantedAt),
    modified_at: revoked ? d.at(grantedAt, DEMO_NOW_MICROS) : d.maybeAfter(grantedAt, 0.3),
    customer_id: customer.id,
    benefit_id: benefitId,
    key,
    status: revoked ? 'revoked' : 'granted',
    limit_activations: limited ? d.pick([1, 3, 5]) : null,
    usage: d.int(0, 50),
    limit_usage: d.chance(0.3) ? d.pick([100, 1000]) : null,
    validations,
    last_validated_at: validations > 0 ? d.at(grantedAt, DEMO_NOW_MICROS) : null,
    expires_at: d.chance(0.3) ? d.at(DEMO_NOW_MICROS, DEMO_NOW_MICROS + 365 * MICROS_PER_DAY) : null,
  });
}

function member(d: Draw, store: Store, customer: CustomerRecord, role: string, email: string, name: string | null, createdAt: number): MemberRecord {
  return store.members.insert({
    id: d.uuid(),
    organization_id: customer.organization_id,
    created_at: formatTimestamp(createdAt),
    modified_at: null,
    customer_id: customer.id,
    email,
    name,
    external_id: d.chance(0.3) ? `mem_${d.f.string.alphanumeric({ length: 10, casing: 'lower' })}` : null,
    role,
  });
}

function seats(d: Draw, store: Store, subscription: SubscriptionRecord, paidOrder: OrderRecord | undefined, expiredOne: { done: boolean }): void {
  const customer = store.customers.get(subscription.customer_id)!;
  const start = micros(subscription.started_at ?? subscription.created_at);
  const ended = subscription.status === 'canceled' || subscription.status === 'incomplete_expired';
  const count = Math.min(subscription.seats ?? 0, 4);
  for (let i = 0; i < count; i++) {
    const status = ended ? 'revoked' : (['claimed', 'pending', 'revoked', 'claimed'] as const)[i]!;
    const email = `${d.f.person.firstName()}.${d.f.person.lastName()}.${i + 1}@${customer.email.split('@')[1]}`.toLowerCase().replace(/[^a-z0-9.@-]/g, '');
    const created = d.between(start, Math.max(start, DEMO_NOW_MICROS - HOUR));
    const claimed = status === 'claimed' || (status === 'revoked' && d.chance(0.5));
    const holder = claimed ? member(d, store, customer, 'member', email, d.chance(0.6) ? d.f.person.fullName() : null, created + HOUR) : null;
    // Demo invitations never expire by the clock, except one per organization that has already expired.
    const expired = status === 'pending' && !expiredOne.done;
    if (expired) expiredOne.done = true;
    const token = `inv_demo_${createHash('sha256').update(`reference-demo-invitation:${store.seed}:${subscription.id}:${i}`).digest('hex').slice(0, 40)}`;
    store.seats.insert({
      id: d.uuid(),
      organization_id: subscription.organization_id,
      created_at: formatTimestamp(created),
      modified_at: status === 'pending' ? null : formatTimestamp(created + 2 * HOUR),
      subscription_id: subscription.id,
      order_id: paidOrder?.id ?? null,
      status,
      customer_id: customer.id,
      member_id: holder?.id ?? null,
      email,
      invitation_token_digest: status === 'pending' ? createHash('sha256').update(token).digest('hex') : null,
      invitation_token_expires_at: status === 'pending' ? formatTimestamp(expired ? DEMO_NOW_MICROS - MICROS_PER_DAY : DEMO_NOW_MICROS + 3650 * MICROS_PER_DAY) : null,
      claimed_at: claimed ? formatTimestamp(created + HOUR) : null,
      revoked_at: status === 'revoked' ? formatTimestamp(created + 2 * HOUR) : null,
      seat_metadata: d.chance(0.3) ? { department: d.pick(['engineering', 'sales', 'support']) } : {},
    });
  }
}

function file(d: Draw, store: Store, org: string, service: FileService, uploaded: boolean): FileRecord {
  const [mimeType, extension] = d.pick(MIME_TYPES[service]);
  const id = d.uuid();
  const name = `${d.f.word.noun()}-${d.int(1, 99)}.${extension}`;
  const created = d.between(DEMO_NOW_MICROS - 500 * MICROS_PER_DAY, DEMO_NOW_MICROS - HOUR);
  const sha = d.f.string.hexadecimal({ length: 64, casing: 'lower', prefix: '' });
  const flagged = uploaded && d.chance(0.08);
  return store.files.insert({
    id,
    organization_id: org,
    created_at: formatTimestamp(created),
    modified_at: uploaded ? formatTimestamp(created + 60_000_000) : null,
    name,
    path: `${org}/${id}/${name}`,
    mime_type: mimeType,
    size: d.int(200, 20_000_000),
    storage_version: uploaded && d.chance(0.5) ? d.f.string.alphanumeric(32) : null,
    checksum_etag: uploaded ? `"${sha.slice(0, 32)}-${d.int(1, 4)}"` : null,
    checksum_sha256_base64: uploaded ? Buffer.from(sha, 'hex').toString('base64') : null,
    checksum_sha256_hex: uploaded ? sha : null,
    last_modified_at: uploaded ? formatTimestamp(created + 60_000_000) : null,
    version: d.chance(0.2) ? `v${d.int(1, 5)}` : null,
    is_uploaded: uploaded,
    service,
    flagged_malicious_at: flagged ? formatTimestamp(created + 2 * HOUR) : null,
  });
}

/** What one organization's part yields for the fixtures. */
interface OrganizationCommerce {
  portalOrderId: string | undefined;
  portalMemberId: string | undefined;
  oauthClientId: string;
  oauthClientSecret: string;
}

function populateCommerce(d: Draw, store: Store, org: string, sizes: CommerceSizes, label: string, portalCustomerId: string | undefined): OrganizationCommerce {
  const customers = store.customers.inOrganization(org);
  for (const customer of customers) paymentMethods(d, store, customer, customer.id === portalCustomerId);

  // Orders: each started subscription was created by a paid order, some renewed by another, and
  // incomplete ones wait on a pending order.
  const subscriptionOrders = new Map<string, OrderRecord>();
  for (const subscription of store.subscriptions.inOrganization(org)) {
    const product = store.products.get(subscription.product_id)!;
    const customer = store.customers.get(subscription.customer_id)!;
    if (subscription.started_at === null) {
      if (subscription.status === 'incomplete') order(d, store, { product, customer, subscription, createdAt: micros(subscription.created_at), reason: 'subscription_create', paid: false }, false);
      continue;
    }
    const first = order(d, store, { product, customer, subscription, createdAt: micros(subscription.started_at), reason: 'subscription_create', paid: true }, d.chance(0.4));
    subscriptionOrders.set(subscription.id, first);
    if (subscription.current_period_start !== subscription.started_at && d.chance(0.6)) {
      const renewal = subscription.status === 'active' && d.chance(0.1) ? false : true;
      order(d, store, { product, customer, subscription, createdAt: micros(subscription.current_period_start), reason: 'subscription_cycle', paid: renewal }, renewal && d.chance(0.3));
    }
  }
  const oneTime = store.products.inOrganization(org).filter((p) => p.recurring_interval === null && !p.is_archived);
  // Only some one-time products are ever bought, so that others stay deletable.
  const bought = oneTime.filter((_, i) => i % 3 !== 2);
  for (let i = 0; i < sizes.oneTimeOrders && bought.length > 0; i++) {
    const product = d.pick(bought);
    const customer = d.pick(customers);
    const createdAt = d.between(Math.max(micros(customer.created_at), micros(product.created_at)), DEMO_NOW_MICROS - HOUR);
    const paid = d.chance(0.85);
    order(d, store, { product, customer, subscription: null, createdAt, reason: 'purchase', paid }, paid && d.chance(0.3));
  }

  // The portal customer bought a product granting license keys, paid, without an invoice yet, and
  // has a pending order besides.
  let portalOrderId: string | undefined;
  let portalMemberId: string | undefined;
  const licenseBenefits = new Set(store.benefits.inOrganization(org).filter((b) => b.type === 'license_keys' && !b.is_deleted).map((b) => b.id));
  if (portalCustomerId !== undefined) {
    const customer = store.customers.get(portalCustomerId)!;
    const licensed = store.products.inOrganization(org).filter((p) => !p.is_archived && p.benefit_ids.some((id) => licenseBenefits.has(id)));
    const product = licensed.find((p) => p.recurring_interval === null) ?? licensed[0] ?? oneTime[0]!;
    const since = Math.max(micros(customer.created_at), micros(product.created_at));
    portalOrderId = order(d, store, { product, customer, subscription: null, createdAt: d.between(since, DEMO_NOW_MICROS - HOUR), reason: 'purchase', paid: true }, false).id;
    order(d, store, { product: d.pick(oneTime), customer, subscription: null, createdAt: d.between(micros(customer.created_at), DEMO_NOW_MICROS - HOUR), reason: 'purchase', paid: true }, true);
    order(d, store, { product: d.pick(oneTime), customer, subscription: null, createdAt: DEMO_NOW_MICROS - HOUR, reason: 'purchase', paid: false }, false);
    portalMemberId = member(d, store, customer, 'owner', customer.email, customer.name, micros(customer.created_at)).id;
  }

  // Refunds, some settling a dispute, on about a fifth of the paid orders.
  for (const paid of store.orders.inOrganization(org)) {
    if (paid.status === 'paid' && paid.net_amount > 0 && paid.id !== portalOrderId && d.chance(0.2)) refund(d, store, paid);
  }

  // License keys: one per customer and license_keys benefit it was granted through a paid order;
  // revoked when the subscription behind it has ended.
  const granted = new Set<string>();
  for (const paid of store.orders.inOrganization(org)) {
    if (paid.status !== 'paid') continue;
    const product = store.products.get(paid.product_id)!;
    const subscription = paid.subscription_id === null ? undefined : store.subscriptions.get(paid.subscription_id);
    const ended = subscription !== undefined && (subscription.status === 'canceled' || subscription.status === 'incomplete_expired');
    for (const benefitId of product.benefit_ids) {
      const key = `${paid.customer_id}:${benefitId}`;
      if (!licenseBenefits.has(benefitId) || granted.has(key)) continue;
      granted.add(key);
      licenseKey(d, store, store.customers.get(paid.customer_id)!, benefitId, micros(paid.created_at), ended);
    }
  }

  if (portalCustomerId !== undefined && store.licenseKeys.lookup('customer_id', portalCustomerId).length === 0 && licenseBenefits.size > 0) {
    licenseKey(d, store, store.customers.get(portalCustomerId)!, [...licenseBenefits][0]!, DEMO_NOW_MICROS - 2 * HOUR, false);
  }

  // Seats of seat-based subscriptions: claimed, pending (with an invitation) and revoked.
  const expiredOne = { done: false };
  for (const subscription of store.subscriptions.inOrganization(org)) {
    if (subscription.seats !== null) seats(d, store, subscription, subscriptionOrders.get(subscription.id), expiredOne);
  }

  for (const service of SERVICES) {
    for (let i = 0; i < sizes.filesPerService; i++) file(d, store, org, service, (i + SERVICES.indexOf(service)) % 3 !== 2);
  }

  for (let i = 0; i < sizes.webhookEndpoints; i++) {
    const created = d.between(DEMO_NOW_MICROS - 400 * MICROS_PER_DAY, DEMO_NOW_MICROS - MICROS_PER_DAY);
    const events = d.some(EVENT_KINDS, 4);
    store.webhookEndpoints.insert({
      id: d.uuid(),
      organization_id: org,
      created_at: formatTimestamp(created),
      modified_at: d.maybeAfter(created, 0.4),
      url: `https://hooks.${d.f.internet.domainName()}/${d.f.word.noun()}`,
      format: d.weighted([['raw', 8], ['discord', 1], ['slack', 1]]),
      // Shaped as the platform's: whsec_ followed by 32 random bytes as a URL-safe base64 token.
      secret: `whsec_${Buffer.from(d.f.string.hexadecimal({ length: 64, casing: 'lower', prefix: '' }), 'hex').toString('base64url')}`,
      events: events.length > 0 ? events : ['order.paid'],
      enabled: i % 2 === 0 || i % 3 === 0,
      name: d.chance(0.8) ? `${d.f.company.buzzNoun()} hook` : null,
    });
  }

  const clientId = `polar_ci_${demoSecret(store, `oauth-client-id:${label}`, 22)}`;
  const clientSecret = `polar_cs_${demoSecret(store, `oauth-client-secret:${label}`)}`;
  store.oauthClients.insert({
    id: d.uuid(),
    organization_id: org,
    created_at: d.at(DEMO_NOW_MICROS - 300 * MICROS_PER_DAY, DEMO_NOW_MICROS - 10 * MICROS_PER_DAY),
    modified_at: null,
    client_id: clientId,
    secret_digest: createHash('sha256').update(clientSecret).digest(),
    client_name: `${d.f.company.name()} integration`,
    redirect_uris: [...DEMO_REDIRECT_URIS],
    scope: 'openid profile email products:read products:write orders:read',
  });
  return { portalOrderId, portalMemberId, oauthClientId: clientId, oauthClientSecret: clientSecret };
}

/**
 * Adds the second part of the demo dataset to a store that holds the first.
 * Fixtures: order_id (a paid order of the portal customer, no invoice), pending_order_id (its
 * pending one), customer_external_id (another customer of A with an external id, an active
 * subscription and preferably license keys: safe to delete), other_organization_benefit_id,
 * other_order_id, refund_id, webhook_endpoint_id, file_id, license_key_id, oauth_client_id,
 * oauth_client_secret (a secret: harnesses must treat it as one).
 * @param organizations ids of organizations A and B
 * @param portalCustomerId the customer of organization A behind the portal sessions
 */
export function seedCommerce(
  store: Store,
  organizations: { a: string; b: string },
  portalCustomerId: string,
  sizes: { a: CommerceSizes; b: CommerceSizes } = { a: COMMERCE_A_SIZES, b: COMMERCE_B_SIZES },
): CommerceData {
  const f = seededFaker([store.seed, 2]);
  const d = new Draw(f);
  const a = populateCommerce(d, store, organizations.a, sizes.a, 'a', portalCustomerId);
  const b = populateCommerce(d, store, organizations.b, sizes.b, 'b', undefined);

  const ordersA = store.orders.inOrganization(organizations.a);
  const hasKeys = (customer: CustomerRecord) => store.licenseKeys.lookup('customer_id', customer.id).some((k) => k.status === 'granted');
  const deletable = store.customers
    .inOrganization(organizations.a)
    .filter((c) => c.id !== portalCustomerId && c.external_id !== null && store.subscriptions.lookup('customer_id', c.id).some((s) => s.status === 'active'));
  const toDelete = deletable.find(hasKeys) ?? deletable[0]!;
  const refund = store.refunds.inOrganization(organizations.a)[0]!;
  return {
    portal: { organizationId: organizations.a, customerId: portalCustomerId, memberId: a.portalMemberId! },
    oauthClients: { a: { clientId: a.oauthClientId, clientSecret: a.oauthClientSecret }, b: { clientId: b.oauthClientId, clientSecret: b.oauthClientSecret } },
    fixtures: {
      order_id: a.portalOrderId!,
      pending_order_id: ordersA.find((o) => o.customer_id === portalCustomerId && o.status === 'pending')!.id,
      customer_external_id: toDelete.external_id!,
      other_organization_benefit_id: store.benefits.inOrganization(organizations.b)[0]!.id,
      other_order_id: store.orders.inOrganization(organizations.b).find((o) => o.status === 'paid')!.id,
      refund_id: refund.id,
      webhook_endpoint_id: store.webhookEndpoints.inOrganization(organizations.a).find((w) => w.enabled)!.id,
      file_id: store.files.inOrganization(organizations.a).find((x) => x.service === 'downloadable' && x.is_uploaded)!.id,
      license_key_id: store.licenseKeys.lookup('customer_id', portalCustomerId)[0]!.id,
      oauth_client_id: a.oauthClientId,
      oauth_client_secret: a.oauthClientSecret,
    },
  };
}
