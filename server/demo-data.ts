/**
 * The deterministic demo dataset: a pure function of the seed (faker seeded once; ids are UUIDs
 * drawn from the same generator; timestamps count back from a fixed instant, never the clock),
 * so the same seed gives byte-identical data on every start.
 * Two organizations: A (the harness's `admin`, `reader`, `no_scope` roles) holds most records,
 * B (`other_org`) a few. Org A has more than 100 products and 100 subscriptions so that a page
 * size above 100 is visible, and groups of records share a creation or start instant (bulk
 * imports, a migration) so that sort tie-breaking is exercised. This is the first part (catalogue,
 * customers, subscriptions); demo-commerce.ts draws the second (orders, refunds, portal, files...)
 * from a faker of its own, so that it never shifts the ids of this one.
 * @see docs/design.md (Reference server: one seed for ids, timestamps and demo data)
 */
import { sortAmount } from './resources/products/list.js';
import type {
  BenefitRecord,
  BenefitType,
  CancellationReason,
  CustomerRecord,
  CustomFieldRecord,
  DiscountRecord,
  FileRecord,
  Interval,
  Metadata,
  MeterRecord,
  OrganizationRecord,
  PriceAmountType,
  PriceRecord,
  ProductRecord,
  SubscriptionMeterRecord,
  SubscriptionRecord,
  SubscriptionStatus,
} from './records.js';
import type { Store } from './store.js';
import type { DemoPortalIdentity } from './auth.js';
import { seedCommerce, type CommerceData } from './demo-commerce.js';
import { DEMO_NOW_MICROS, Draw, seededFaker } from './demo-draw.js';
import { formatTimestamp, MICROS_PER_DAY } from './timestamps.js';

/** The instant the demo data is "now" (see demo-draw.ts), re-exported where it always was. */
export { DEMO_NOW_MICROS } from './demo-draw.js';

/** Record counts of one organization. */
export interface OrganizationSizes {
  products: number;
  customers: number;
  subscriptions: number;
  benefits: number;
  discounts: number;
  meters: number;
  customFields: number;
  /** Sizes of groups of products created at one shared instant (bulk imports). */
  importBatches: number[];
  /** Number of long-running subscriptions started at one shared instant (a migration). */
  migrated: number;
}

/** Sizes of organization A. */
export const ORGANIZATION_A_SIZES: OrganizationSizes = {
  products: 130,
  customers: 60,
  subscriptions: 150,
  benefits: 12,
  discounts: 5,
  meters: 3,
  customFields: 4,
  importBatches: [30, 15],
  migrated: 24,
};

/** Sizes of organization B. */
export const ORGANIZATION_B_SIZES: OrganizationSizes = {
  products: 30,
  customers: 15,
  subscriptions: 30,
  benefits: 8,
  discounts: 2,
  meters: 2,
  customFields: 2,
  importBatches: [8],
  migrated: 6,
};

/** What the demo data gives the rest of the server. */
export interface DemoData {
  organizations: { a: string; b: string };
  /** A user member of organization A, the subject of the pat and oidc demo tokens. */
  userId: string;
  /** The customer of organization A (and its owner member) behind the customer_session and member_session demo tokens. */
  portal: DemoPortalIdentity;
  /** The demo OAuth client of each organization with its secret. */
  oauthClients: CommerceData['oauthClients'];
  /**
   * Ids that exist, by name: organization_id, other_organization_id, product_id, benefit_id,
   * subscription_id, customer_id (the portal customer: payment methods, license keys, orders),
   * discount_id (all of org A) and other_product_id, other_subscription_id, other_customer_id
   * (org B); then those of {@link seedCommerce} (order_id, customer_external_id, oauth_client_id,
   * oauth_client_secret, ...).
   */
  fixtures: Record<string, string>;
}

const INTERVAL_DAYS: Record<Interval, number> = { day: 1, week: 7, month: 30, year: 365 };
const BENEFIT_TYPES: BenefitType[] = ['custom', 'discord', 'downloadables', 'feature_flag', 'github_repository', 'license_keys', 'meter_credit', 'slack_shared_channel'];
const STATUSES: SubscriptionStatus[] = ['incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused'];
const REASONS: CancellationReason[] = ['customer_service', 'low_quality', 'missing_features', 'switched_service', 'too_complex', 'too_expensive', 'unused', 'other'];
const HOUR = MICROS_PER_DAY / 24;

function organization(d: Draw, store: Store): OrganizationRecord {
  const name = d.f.company.name();
  const id = d.uuid();
  return store.organizations.insert({
    id,
    organization_id: id,
    created_at: d.at(DEMO_NOW_MICROS - 1000 * MICROS_PER_DAY, DEMO_NOW_MICROS - 800 * MICROS_PER_DAY),
    modified_at: null,
    name,
    slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, ''),
  });
}

function benefit(d: Draw, store: Store, org: string, type: BenefitType): BenefitRecord {
  const created = d.between(DEMO_NOW_MICROS - 800 * MICROS_PER_DAY, DEMO_NOW_MICROS - 30 * MICROS_PER_DAY);
  const properties: Record<string, Record<string, unknown>> = {
    custom: { note: d.chance(0.7) ? d.f.lorem.sentence() : null },
    discord: { guild_id: d.f.string.numeric(18), role_id: d.f.string.numeric(18) },
    downloadables: { archived: {}, files: [d.uuid()] },
    feature_flag: {},
    github_repository: { repository_owner: d.f.internet.username().toLowerCase(), repository_name: d.f.word.noun(), permission: 'pull' },
    license_keys: { prefix: d.f.string.alpha({ length: 4, casing: 'upper' }), expires: null, activations: null, limit_usage: null },
    meter_credit: { units: d.int(100, 10_000), rollover: d.chance(0.5) },
    slack_shared_channel: {},
  };
  return store.benefits.insert({
    id: d.uuid(),
    organization_id: org,
    created_at: formatTimestamp(created),
    modified_at: d.maybeAfter(created, 0.4),
    type,
    description: `${d.f.commerce.productAdjective()} ${type.replace(/_/g, ' ')}`,
    selectable: true,
    deletable: true,
    is_deleted: false,
    metadata: d.chance(0.3) ? { tier: d.pick(['free', 'pro', 'enterprise']) } : {},
    visibility: d.weighted([['public', 4], ['draft', 1]]),
    properties: properties[type]!,
    visibility_configurable: d.chance(0.5),
  });
}

function customField(d: Draw, store: Store, org: string, index: number): CustomFieldRecord {
  const [slug, name] = d.pick([
    ['company', 'Company'],
    ['team_size', 'Team size'],
    ['referral', 'How did you hear about us?'],
    ['notes', 'Notes'],
    ['vat_reason', 'VAT reason'],
  ] as const);
  const created = d.between(DEMO_NOW_MICROS - 700 * MICROS_PER_DAY, DEMO_NOW_MICROS - 30 * MICROS_PER_DAY);
  const textarea = d.chance(0.3);
  return store.customFields.insert({
    id: d.uuid(),
    organization_id: org,
    created_at: formatTimestamp(created),
    modified_at: d.maybeAfter(created, 0.3),
    metadata: {},
    type: 'text',
    slug: `${slug}_${index + 1}`,
    name,
    properties: {
      form_label: name,
      ...(d.chance(0.5) ? { form_help_text: d.f.lorem.sentence() } : {}),
      ...(d.chance(0.5) ? { form_placeholder: d.f.lorem.words(2) } : {}),
      textarea,
      ...(textarea ? { min_length: 0, max_length: 2000 } : {}),
    },
  });
}

function meter(d: Draw, store: Store, org: string): MeterRecord {
  const [name, event] = d.pick([
    ['API calls', 'api_call'],
    ['Storage (GB)', 'storage'],
    ['Build minutes', 'build'],
    ['Messages sent', 'message'],
  ] as const);
  const created = d.between(DEMO_NOW_MICROS - 600 * MICROS_PER_DAY, DEMO_NOW_MICROS - 60 * MICROS_PER_DAY);
  const sum = d.chance(0.4);
  return store.meters.insert({
    id: d.uuid(),
    organization_id: org,
    created_at: formatTimestamp(created),
    modified_at: d.maybeAfter(created, 0.3),
    metadata: {},
    name,
    unit: 'scalar',
    filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: event }] },
    aggregation: sum ? { func: 'sum', property: 'units' } : { func: 'count' },
    custom_label: null,
    custom_multiplier: null,
    archived_at: null,
  });
}

function productMetadata(d: Draw): Metadata {
  const metadata: Metadata = {};
  if (d.chance(0.7)) metadata.tier = d.pick(['free', 'pro', 'enterprise']);
  if (d.chance(0.5)) metadata.priority = d.int(1, 5);
  if (d.chance(0.5)) metadata.featured = d.chance(0.5);
  if (d.chance(0.2)) metadata.source = 'import';
  if (d.chance(0.1)) metadata.rating = d.pick([3.5, 4.2, 4.8]);
  return metadata;
}

function price(d: Draw, store: Store, product: ProductRecord, amountType: PriceAmountType, currency: string, created: number): PriceRecord {
  const record: PriceRecord = {
    id: d.uuid(),
    organization_id: product.organization_id,
    created_at: formatTimestamp(created),
    modified_at: d.maybeAfter(created, 0.2),
    product_id: product.id,
    source: d.weighted([['catalog', 9], ['ad_hoc', 1]]),
    amount_type: amountType,
    price_currency: currency,
    tax_behavior: d.weighted<string | null>([[null, 5], ['location', 3]]),
    is_archived: d.chance(0.08),
  };
  if (product.recurring_interval && (amountType === 'fixed' || amountType === 'custom') && d.chance(0.25)) {
    Object.assign(record, { type: 'recurring', recurring_interval: product.recurring_interval, legacy: true });
  }
  if (amountType === 'fixed') record.price_amount = d.chance(0.1) ? 0 : d.int(1, 500) * 100 - d.pick([0, 1]);
  if (amountType === 'custom') {
    const minimum = d.pick([0, 100, 500]);
    const maximum = d.chance(0.5) ? null : d.int(50, 500) * 100;
    Object.assign(record, { minimum_amount: minimum, maximum_amount: maximum, preset_amount: d.chance(0.5) ? null : Math.min(maximum ?? Infinity, minimum + d.int(5, 40) * 100) });
  }
  return store.prices.insert(record);
}

function product(d: Draw, store: Store, org: string, created: number, related: { benefits: BenefitRecord[]; customFields: CustomFieldRecord[] }): ProductRecord {
  const recurring = d.chance(0.6);
  const interval: Interval | null = recurring ? d.weighted([['month', 5], ['year', 3], ['week', 1], ['day', 1]]) : null;
  const trial = recurring && d.chance(0.3) ? d.weighted<[Interval, number]>([[['day', 14], 3], [['week', 2], 2], [['month', 1], 1]]) : null;
  const metered = recurring && d.chance(0.15);
  const name = `${d.f.commerce.productName()}${recurring ? ` ${d.pick(['Plan', 'Subscription', 'Membership'])}` : ''}`;
  const record = store.products.insert({
    id: d.uuid(),
    organization_id: org,
    created_at: formatTimestamp(created),
    modified_at: d.maybeAfter(created, 0.6),
    name,
    description: d.chance(0.7) ? d.f.commerce.productDescription() : null,
    visibility: d.weighted([['public', 6], ['private', 2], ['draft', 2]]),
    recurring_interval: interval,
    recurring_interval_count: interval ? d.weighted([[1, 8], [2, 1], [3, 1]]) : null,
    trial_interval: trial ? trial[0] : null,
    trial_interval_count: trial ? trial[1] : null,
    meter_interval: metered ? 'month' : null,
    meter_interval_count: metered ? 1 : null,
    is_archived: d.chance(0.15),
    metadata: productMetadata(d),
    price_ids: [],
    benefit_ids: d.some(related.benefits, 3).map((b) => b.id),
    media_ids: [],
    attached_custom_fields: d.some(related.customFields, 2).map((field, order) => ({ custom_field_id: field.id, order, required: d.chance(0.3) })),
  });
  const currency = d.weighted([['usd', 6], ['eur', 1]]);
  const types: [PriceAmountType, number][] = recurring
    ? [['fixed', 5], ['custom', 1], ['seat_based', 1], ['unit_based', 1], ['metered_unit', 1], ['metered_tiers', 1]]
    : [['fixed', 7], ['custom', 3]];
  const count = recurring ? d.weighted([[1, 6], [2, 3], [3, 1]]) : d.weighted([[1, 8], [2, 2]]);
  for (let i = 0; i < count; i++) record.price_ids.push(price(d, store, record, d.weighted(types), currency, created).id);
  const medias = d.weighted([[0, 5], [1, 3], [2, 2]]);
  for (let i = 0; i < medias; i++) {
    const extension = d.pick(['png', 'jpeg', 'webp']);
    const fileName = `${d.f.word.noun()}-${i + 1}.${extension}`;
    const sha = d.f.string.hexadecimal({ length: 64, casing: 'lower', prefix: '' });
    const mediaId = d.uuid();
    // A product media file is also a file of the files endpoints: one record in both collections.
    const media: FileRecord = {
      id: mediaId,
      organization_id: org,
      created_at: formatTimestamp(created),
      modified_at: null,
      name: fileName,
      path: `${org}/${mediaId}/${fileName}`,
      mime_type: `image/${extension}`,
      size: d.int(2_000, 3_000_000),
      storage_version: d.chance(0.5) ? d.f.string.alphanumeric(32) : null,
      checksum_etag: `"${sha.slice(0, 32)}"`,
      checksum_sha256_base64: Buffer.from(sha, 'hex').toString('base64'),
      checksum_sha256_hex: sha,
      last_modified_at: formatTimestamp(created),
      version: null,
      is_uploaded: true,
      service: 'product_media',
      flagged_malicious_at: null,
    };
    store.medias.insert(media);
    store.files.insert(media);
    record.media_ids.push(mediaId);
  }
  return record;
}

function customer(d: Draw, store: Store, org: string, index: number): CustomerRecord {
  const firstName = d.f.person.firstName();
  const lastName = d.f.person.lastName();
  const created = d.between(DEMO_NOW_MICROS - 720 * MICROS_PER_DAY, DEMO_NOW_MICROS - 5 * MICROS_PER_DAY);
  const country = d.f.location.countryCode();
  return store.customers.insert({
    id: d.uuid(),
    organization_id: org,
    created_at: formatTimestamp(created),
    modified_at: d.maybeAfter(created, 0.5),
    metadata: d.chance(0.4) ? { segment: d.pick(['smb', 'enterprise', 'consumer']) } : {},
    email_verified: d.chance(0.8),
    type: 'individual',
    name: `${firstName} ${lastName}`,
    billing_name: d.chance(0.6) ? `${firstName} ${lastName}` : null,
    billing_address: d.chance(0.7)
      ? {
          country,
          line1: d.f.location.streetAddress(),
          line2: d.chance(0.2) ? d.f.location.secondaryAddress() : null,
          postal_code: d.f.location.zipCode(),
          city: d.f.location.city(),
          state: d.chance(0.5) ? d.f.location.state({ abbreviated: true }) : null,
        }
      : null,
    tax_id: d.chance(0.2) ? `${country}${d.f.string.numeric(9)}` : null,
    deleted_at: null,
    first_user_event_at: d.maybeAfter(created, 0.3),
    avatar_url: d.chance(0.3) ? `https://avatars.example.com/${d.f.string.alphanumeric(16)}.png` : null,
    external_id: d.chance(0.6) ? `cus_${d.f.string.alphanumeric({ length: 14, casing: 'lower' })}` : null,
    email: `${firstName}.${lastName}.${index + 1}@${d.f.internet.domainName()}`.toLowerCase().replace(/[^a-z0-9.@-]/g, ''),
    locale: d.pick(['en', 'en-US', 'de', 'fr', null]),
    default_payment_method_id: d.chance(0.6) ? d.uuid() : null,
  });
}

function discount(d: Draw, store: Store, org: string, index: number, products: ProductRecord[]): DiscountRecord {
  const created = d.between(DEMO_NOW_MICROS - 500 * MICROS_PER_DAY, DEMO_NOW_MICROS - 20 * MICROS_PER_DAY);
  const fixed = d.chance(0.5);
  const amount = d.int(1, 50) * 100;
  const label = ['Launch', 'Loyalty', 'Partner', 'Student', 'Early Bird', 'Winter'][index % 6]!;
  return store.discounts.insert({
    id: d.uuid(),
    organization_id: org,
    created_at: formatTimestamp(created),
    modified_at: d.maybeAfter(created, 0.3),
    duration: d.pick(['once', 'forever', 'repeating']),
    type: fixed ? 'fixed' : 'percentage',
    ...(fixed ? { amount, currency: 'usd', amounts: { usd: amount } } : { basis_points: d.int(1, 10) * 500 }),
    metadata: {},
    name: `${label} ${fixed ? `$${amount / 100} off` : 'percent off'}`,
    code: d.chance(0.7) ? `${label.toUpperCase().replace(/ /g, '')}${d.int(10, 99)}` : null,
    starts_at: d.maybeAfter(created, 0.3),
    ends_at: d.chance(0.3) ? d.at(DEMO_NOW_MICROS, DEMO_NOW_MICROS + 200 * MICROS_PER_DAY) : null,
    max_redemptions: d.chance(0.4) ? d.int(10, 1000) : null,
    max_redemptions_per_customer: d.chance(0.3) ? 1 : null,
    redemptions_count: d.int(0, 50),
    // One discount per organization is restricted to a product, which then is not deletable.
    product_ids: index === 0 && products[0] ? [products[0].id] : [],
  });
}

/** The billing period that contains `instant`, for a subscription started at `started`. */
function periodAround(started: number, instant: number, length: number): { start: number; end: number } {
  const k = Math.max(0, Math.floor((instant - started) / length));
  return { start: started + k * length, end: started + (k + 1) * length };
}

interface Timeline {
  created: number;
  started: number | null;
  period: { start: number; end: number };
  fields: Partial<SubscriptionRecord>;
}

/** Status-consistent dates of a subscription: started, period, trial, cancellation, end, pause, past due. */
function timeline(d: Draw, status: SubscriptionStatus, length: number, trialDays: number, migratedAt: number | undefined): Timeline {
  const now = DEMO_NOW_MICROS;
  const longRunning = () => migratedAt ?? d.between(now - 700 * MICROS_PER_DAY, now - MICROS_PER_DAY);
  const cancellation = () => ({
    customer_cancellation_reason: d.chance(0.85) ? d.pick(REASONS) : null,
    customer_cancellation_comment: d.chance(0.4) ? d.f.lorem.sentence() : null,
  });
  switch (status) {
    case 'trialing': {
      const start = d.between(now - 13 * MICROS_PER_DAY, now - HOUR);
      const end = start + trialDays * MICROS_PER_DAY;
      const scheduled = d.chance(0.1);
      return {
        created: start,
        started: start,
        period: { start, end },
        fields: {
          trial_start: formatTimestamp(start),
          trial_end: formatTimestamp(end),
          ...(scheduled ? { cancel_at_period_end: true, canceled_at: d.at(start, now), ends_at: formatTimestamp(end), ...cancellation() } : {}),
        },
      };
    }
    case 'active':
    case 'past_due':
    case 'unpaid':
    case 'paused': {
      const started = longRunning();
      const period = periodAround(started, now, length);
      const fields: Partial<SubscriptionRecord> = {};
      if (status === 'active' && d.chance(0.2)) {
        Object.assign(fields, { cancel_at_period_end: true, canceled_at: d.at(period.start, now), ends_at: formatTimestamp(period.end), ...cancellation() });
      }
      if (status === 'active' && !fields.cancel_at_period_end && d.chance(0.05)) fields.pause_at_period_end = true;
      if (status === 'past_due') fields.past_due_at = d.at(period.start, now);
      if (status === 'unpaid') fields.past_due_at = d.at(Math.max(started, period.start - length), period.start);
      if (status === 'paused') {
        fields.paused_at = d.at(period.start, now);
        fields.resumes_at = d.chance(0.5) ? d.at(now, now + 60 * MICROS_PER_DAY) : null;
      }
      return { created: started, started, period, fields };
    }
    case 'canceled': {
      const started = migratedAt ?? d.between(now - 700 * MICROS_PER_DAY, now - 10 * MICROS_PER_DAY);
      const canceled = d.between(started + HOUR, now - HOUR);
      const ended = d.chance(0.5) ? canceled : d.between(canceled, Math.min(periodAround(started, canceled, length).end, now - 1));
      return {
        created: started,
        started,
        period: periodAround(started, Math.max(started, ended - 1), length),
        fields: { canceled_at: formatTimestamp(canceled), ended_at: formatTimestamp(ended), ends_at: formatTimestamp(ended), ...cancellation() },
      };
    }
    case 'incomplete': {
      const created = d.between(now - 3 * MICROS_PER_DAY, now - HOUR);
      return { created, started: null, period: { start: created, end: created + length }, fields: {} };
    }
    case 'incomplete_expired': {
      const created = d.between(now - 300 * MICROS_PER_DAY, now - 2 * MICROS_PER_DAY);
      const ended = formatTimestamp(created + 23 * HOUR);
      return { created, started: null, period: { start: created, end: created + length }, fields: { ended_at: ended, ends_at: ended } };
    }
  }
}

function subscription(
  d: Draw,
  store: Store,
  org: string,
  status: SubscriptionStatus,
  migratedAt: number | undefined,
  related: { products: ProductRecord[]; customers: CustomerRecord[]; discounts: DiscountRecord[]; meters: MeterRecord[] },
): SubscriptionRecord {
  const active = related.products.filter((p) => !p.is_archived);
  const product = d.chance(0.9) && active.length > 0 ? d.pick(active) : d.pick(related.products);
  const interval = product.recurring_interval!;
  const intervalCount = product.recurring_interval_count ?? 1;
  const length = INTERVAL_DAYS[interval] * intervalCount * MICROS_PER_DAY;
  const trialDays = product.trial_interval ? INTERVAL_DAYS[product.trial_interval] * (product.trial_interval_count ?? 1) : 14;
  const { created, started, period, fields } = timeline(d, status, length, trialDays, migratedAt);

  const allPrices = product.price_ids.map((id) => store.prices.get(id)!);
  const prices = allPrices.some((p) => !p.is_archived) ? allPrices.filter((p) => !p.is_archived) : allPrices;
  const seats = prices.some((p) => p.amount_type === 'seat_based') ? d.int(1, 25) : null;
  const discountRecord = d.chance(0.25) && related.discounts.length > 0 ? d.pick(related.discounts) : null;
  const gross = prices.reduce((sum, p) => sum + (sortAmount(p) ?? 0), 0) + (seats ?? 0) * 1500;
  const amount = Math.max(0, gross - (discountRecord?.amount ?? Math.round((gross * (discountRecord?.basis_points ?? 0)) / 10_000)));
  const meters: SubscriptionMeterRecord[] = prices
    .filter((p) => p.amount_type === 'metered_unit' || p.amount_type === 'metered_tiers')
    .map(() => ({
      id: d.uuid(),
      created_at: formatTimestamp(created),
      modified_at: d.maybeAfter(created, 0.7),
      consumed_units: d.int(0, 100_000) / 10,
      credited_units: d.int(0, 1000),
      amount: d.int(0, 50_000),
      meter_id: d.pick(related.meters).id,
    }));
  const field = product.attached_custom_fields[0] && store.customFields.get(product.attached_custom_fields[0].custom_field_id);
  const metadata: Metadata = {};
  if (d.chance(0.5)) metadata.tier = d.pick(['free', 'pro', 'enterprise']);
  if (d.chance(0.3)) metadata.priority = d.int(1, 5);
  if (d.chance(0.3)) metadata.featured = d.chance(0.5);
  if (d.chance(0.3)) metadata.channel = d.pick(['web', 'sales', 'partner']);
  const others = related.products.filter((p) => p.id !== product.id);
  const pending = status === 'active' && d.chance(0.08) && others.length > 0;

  return store.subscriptions.insert({
    id: d.uuid(),
    organization_id: org,
    created_at: formatTimestamp(created),
    modified_at: d.maybeAfter(created, 0.7),
    amount,
    currency: prices[0]?.price_currency ?? 'usd',
    recurring_interval: interval,
    recurring_interval_count: intervalCount,
    status,
    current_period_start: formatTimestamp(period.start),
    current_period_end: formatTimestamp(period.end),
    current_meter_period_start: meters.length > 0 ? formatTimestamp(period.start) : null,
    current_meter_period_end: meters.length > 0 ? formatTimestamp(period.end) : null,
    trial_start: null,
    trial_end: null,
    cancel_at_period_end: false,
    canceled_at: null,
    started_at: started === null ? null : formatTimestamp(started),
    ends_at: null,
    ended_at: null,
    pause_at_period_end: false,
    paused_at: null,
    resumes_at: null,
    past_due_at: null,
    customer_id: d.pick(related.customers).id,
    product_id: product.id,
    discount_id: discountRecord?.id ?? null,
    checkout_id: d.chance(0.8) ? d.uuid() : null,
    customer_cancellation_reason: null,
    customer_cancellation_comment: null,
    metadata,
    price_ids: prices.map((p) => p.id),
    meters,
    pending_update: pending
      ? { id: d.uuid(), created_at: d.at(period.start, DEMO_NOW_MICROS), modified_at: null, applies_at: formatTimestamp(period.end), product_id: d.pick(others).id, seats: null }
      : null,
    seats,
    custom_field_data: field && d.chance(0.6) ? { [field.slug]: d.f.lorem.words(2) } : {},
    ...fields,
  });
}

function populate(d: Draw, store: Store, org: string, sizes: OrganizationSizes): void {
  const benefits = Array.from({ length: sizes.benefits }, (_, i) => benefit(d, store, org, BENEFIT_TYPES[i % BENEFIT_TYPES.length]!));
  const customFields = Array.from({ length: sizes.customFields }, (_, i) => customField(d, store, org, i));
  const meters = Array.from({ length: sizes.meters }, () => meter(d, store, org));

  const batches = sizes.importBatches.map((size, i) => ({ size, at: d.between(DEMO_NOW_MICROS - (2 + 200 * i) * MICROS_PER_DAY, DEMO_NOW_MICROS - (1 + 200 * i) * MICROS_PER_DAY) }));
  const products: ProductRecord[] = [];
  for (const batch of batches) {
    for (let i = 0; i < batch.size; i++) products.push(product(d, store, org, batch.at, { benefits, customFields }));
  }
  while (products.length < sizes.products) {
    const created = d.between(DEMO_NOW_MICROS - 730 * MICROS_PER_DAY, DEMO_NOW_MICROS - 3 * MICROS_PER_DAY);
    products.push(product(d, store, org, created, { benefits, customFields }));
  }

  const customers = Array.from({ length: sizes.customers }, (_, i) => customer(d, store, org, i));
  const discounts = Array.from({ length: sizes.discounts }, (_, i) => discount(d, store, org, i, products));
  const recurring = products.filter((p) => p.recurring_interval !== null);
  const migratedAt = d.between(DEMO_NOW_MICROS - 400 * MICROS_PER_DAY, DEMO_NOW_MICROS - 380 * MICROS_PER_DAY);
  const longRunning: SubscriptionStatus[] = ['active', 'past_due', 'unpaid', 'paused', 'canceled'];
  let migrated = 0;
  for (let i = 0; i < sizes.subscriptions; i++) {
    // The first sixteen cycle through every status twice; the rest follow a realistic mix.
    const status =
      i < 2 * STATUSES.length
        ? STATUSES[i % STATUSES.length]!
        : d.weighted<SubscriptionStatus>([['active', 40], ['trialing', 10], ['canceled', 20], ['past_due', 8], ['incomplete', 5], ['incomplete_expired', 5], ['unpaid', 5], ['paused', 7]]);
    const migrate = migrated < sizes.migrated && longRunning.includes(status);
    if (migrate) migrated++;
    subscription(d, store, org, status, migrate ? migratedAt : undefined, { products: recurring, customers, discounts, meters });
  }
}

function fixturesOf(store: Store, a: string, b: string): Record<string, string> {
  const product = store.products.inOrganization(a).find((p) => p.visibility === 'public' && !p.is_archived && p.benefit_ids.length > 0)!;
  // The portal customer has an external id and a billing address: its orders can be invoiced
  // (the platform refuses an invoice without billing details, docs/platform.md).
  const candidates = store.subscriptions.inOrganization(a).filter((s) => s.status === 'active' && store.customers.get(s.customer_id)!.external_id !== null);
  const subscription = candidates.find((s) => store.customers.get(s.customer_id)!.billing_address !== null) ?? candidates[0]!;
  const customer = store.customers.get(subscription.customer_id)!;
  const discounted = store.subscriptions.inOrganization(a).find((s) => s.discount_id !== null)!;
  return {
    organization_id: a,
    other_organization_id: b,
    product_id: product.id,
    benefit_id: product.benefit_ids[0]!,
    subscription_id: subscription.id,
    customer_id: customer.id,
    discount_id: discounted.discount_id!,
    other_product_id: store.products.inOrganization(b)[0]!.id,
    other_subscription_id: store.subscriptions.inOrganization(b)[0]!.id,
    other_customer_id: store.customers.inOrganization(b)[0]!.id,
  };
}

/**
 * Which demo store to seed: `default` holds only price types that both the API description and
 * the platform's public OpenAPI document (version 2026-10, `ProductPrice` discriminator: fixed,
 * custom, seat_based, metered_unit) know, so that the platform's SDKs accept every answer;
 * `full` keeps the description's two others (unit_based, metered_tiers) too.
 * @see docs/reference-server.md (Demo data); docs/platform.md
 */
export type DemoDataVariant = 'default' | 'full';

/** The price amount types of the platform's public OpenAPI document, version 2026-10 (schema ProductPrice). */
export const PLATFORM_PRICE_TYPES: readonly PriceAmountType[] = ['fixed', 'custom', 'seat_based', 'metered_unit'];

/**
 * Narrows the prices of a seeded store to {@link PLATFORM_PRICE_TYPES}, drawing nothing (the rest
 * of the data stays as the seed made it): a unit_based price becomes a fixed price of 0 (what every
 * amount computed from it counted: a unit-based price has no amount of its own), a metered_tiers
 * price a metered_unit price of the same meter.
 * @returns how many prices changed
 */
export function narrowToPlatformPriceTypes(store: Store): number {
  let changed = 0;
  for (const price of [...store.prices.all()]) {
    if (price.amount_type === 'unit_based') store.prices.update(price, { amount_type: 'fixed', price_amount: 0 });
    else if (price.amount_type === 'metered_tiers') store.prices.update(price, { amount_type: 'metered_unit' });
    else continue;
    changed++;
  }
  return changed;
}

/**
 * Fills an empty store with the demo dataset of its seed.
 * @param sizes record counts of organizations A and B (defaults {@link ORGANIZATION_A_SIZES}, {@link ORGANIZATION_B_SIZES})
 * @param variant `default` (the platform's four price types only) or `full` (the description's six); see {@link DemoDataVariant}
 * @returns the organization ids, the demo user and the fixture ids
 */
export function seedDemoData(store: Store, sizes: { a: OrganizationSizes; b: OrganizationSizes } = { a: ORGANIZATION_A_SIZES, b: ORGANIZATION_B_SIZES }, variant: DemoDataVariant = 'default'): DemoData {
  const f = seededFaker(store.seed);
  const d = new Draw(f);
  const a = organization(d, store).id;
  const b = organization(d, store).id;
  const userId = d.uuid();
  populate(d, store, a, sizes.a);
  populate(d, store, b, sizes.b);
  const fixtures = fixturesOf(store, a, b);
  const commerce = seedCommerce(store, { a, b }, fixtures.customer_id!);
  if (variant === 'default') narrowToPlatformPriceTypes(store);
  return { organizations: { a, b }, userId, portal: commerce.portal, oauthClients: commerce.oauthClients, fixtures: { ...fixtures, ...commerce.fixtures } };
}
