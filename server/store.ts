/**
 * The reference server's one store: typed in-memory collections, each indexed by organization
 * and by the secondary keys that listing needs. Timestamps are stored as ISO strings with
 * microseconds (see timestamps.ts); references between records are ids, resolved at serialization.
 * @see shared/design.md, Reference server
 */

/** Values of a metadata object. @see shared/api-description.md, Conventions */
export type MetadataValue = string | number | boolean;
/** A metadata object. @see shared/api-description.md, Conventions */
export type Metadata = Record<string, MetadataValue>;
/** Billing and trial intervals. @see shared/api-description.md, Product */
export type Interval = 'day' | 'week' | 'month' | 'year';
/** Product visibility. @see shared/api-description.md, Product */
export type ProductVisibility = 'draft' | 'private' | 'public';
/** Price amount types (discriminator). @see shared/api-description.md, Price */
export type PriceAmountType = 'fixed' | 'custom' | 'seat_based' | 'unit_based' | 'metered_unit' | 'metered_tiers';
/** Benefit types (discriminator). @see shared/api-description.md, Benefit */
export type BenefitType =
  | 'custom'
  | 'discord'
  | 'downloadables'
  | 'feature_flag'
  | 'github_repository'
  | 'license_keys'
  | 'meter_credit'
  | 'slack_shared_channel';
/** Subscription statuses. @see shared/api-description.md, Subscription */
export type SubscriptionStatus =
  | 'incomplete'
  | 'incomplete_expired'
  | 'trialing'
  | 'active'
  | 'past_due'
  | 'canceled'
  | 'unpaid'
  | 'paused';
/** Reasons a customer gives for canceling. @see shared/api-description.md, Subscription */
export type CancellationReason =
  | 'customer_service'
  | 'low_quality'
  | 'missing_features'
  | 'switched_service'
  | 'too_complex'
  | 'too_expensive'
  | 'unused'
  | 'other';

/** Fields every stored record has; timestamps are ISO strings with microseconds. */
export interface BaseRecord {
  id: string;
  organization_id: string;
  created_at: string;
  modified_at: string | null;
}

/** An organization; not served by any operation yet, it owns every other record. */
export interface OrganizationRecord extends BaseRecord {
  name: string;
  slug: string;
}

/** A price; legacy fields are present only on legacy and on fixed/custom prices. @see shared/api-description.md, Price */
export interface PriceRecord extends BaseRecord {
  product_id: string;
  source: 'catalog' | 'ad_hoc';
  amount_type: PriceAmountType;
  price_currency: string;
  tax_behavior: string | null;
  is_archived: boolean;
  type?: 'recurring';
  recurring_interval?: Interval;
  legacy?: true;
  /** Cents; fixed prices. */
  price_amount?: number;
  /** Cents; custom prices. */
  minimum_amount?: number;
  maximum_amount?: number | null;
  preset_amount?: number | null;
}

/** A benefit. @see shared/api-description.md, Benefit */
export interface BenefitRecord extends BaseRecord {
  type: BenefitType;
  description: string;
  selectable: boolean;
  deletable: boolean;
  is_deleted: boolean;
  metadata: Metadata;
  visibility: string;
  properties: Record<string, unknown>;
  visibility_configurable: boolean;
}

/** A product media file. @see shared/api-description.md, ProductMediaFile */
export interface MediaRecord extends BaseRecord {
  name: string;
  path: string;
  mime_type: string;
  /** Bytes. */
  size: number;
  storage_version: string | null;
  checksum_etag: string | null;
  checksum_sha256_base64: string | null;
  checksum_sha256_hex: string | null;
  last_modified_at: string | null;
  version: string | null;
  is_uploaded: boolean;
}

/** A text custom field. @see shared/api-description.md, AttachedCustomField and CustomField */
export interface CustomFieldRecord extends BaseRecord {
  metadata: Metadata;
  type: string;
  slug: string;
  name: string;
  properties: Record<string, unknown>;
}

/** A product; prices, benefits, medias and custom fields are referenced by id, in display order. @see shared/api-description.md, Product */
export interface ProductRecord extends BaseRecord {
  name: string;
  description: string | null;
  visibility: ProductVisibility;
  recurring_interval: Interval | null;
  recurring_interval_count: number | null;
  trial_interval: Interval | null;
  trial_interval_count: number | null;
  meter_interval: Interval | null;
  meter_interval_count: number | null;
  is_archived: boolean;
  metadata: Metadata;
  price_ids: string[];
  benefit_ids: string[];
  media_ids: string[];
  attached_custom_fields: { custom_field_id: string; order: number; required: boolean }[];
}

/** A customer. @see shared/api-description.md, Customer */
export interface CustomerRecord extends BaseRecord {
  metadata: Metadata;
  email_verified: boolean;
  type: string | null;
  name: string | null;
  billing_name: string | null;
  billing_address: { country: string; line1: string | null; line2: string | null; postal_code: string | null; city: string | null; state: string | null } | null;
  tax_id: string | null;
  deleted_at: string | null;
  first_user_event_at: string | null;
  avatar_url: string | null;
  external_id: string | null;
  email: string;
  locale: string | null;
  default_payment_method_id: string | null;
}

/** A discount; `product_ids` (internal) restricts it to products and makes them non-deletable. @see shared/api-description.md, Subscription */
export interface DiscountRecord extends BaseRecord {
  duration: string;
  type: string;
  /** Cents; fixed discounts. */
  amount?: number;
  currency?: string;
  amounts?: Record<string, number>;
  basis_points?: number;
  metadata: Metadata;
  name: string;
  code: string | null;
  starts_at: string | null;
  ends_at: string | null;
  max_redemptions: number | null;
  max_redemptions_per_customer: number | null;
  redemptions_count: number;
  product_ids: string[];
}

/** A meter. @see shared/api-description.md, Subscription (Meter) */
export interface MeterRecord extends BaseRecord {
  metadata: Metadata;
  name: string;
  unit: string;
  filter: { conjunction: string; clauses: { property: string; operator: string; value: unknown }[] };
  aggregation: { func: string; property?: string };
  custom_label: string | null;
  custom_multiplier: number | null;
  archived_at: string | null;
}

/** A subscription's usage of one meter. @see shared/api-description.md, Subscription (Subscription meter) */
export interface SubscriptionMeterRecord {
  id: string;
  created_at: string;
  modified_at: string | null;
  consumed_units: number;
  credited_units: number;
  /** Cents. */
  amount: number;
  meter_id: string;
}

/** A subscription; customer, product, discount and prices are referenced by id. @see shared/api-description.md, Subscription */
export interface SubscriptionRecord extends BaseRecord {
  /** Cents. */
  amount: number;
  currency: string;
  recurring_interval: Interval;
  recurring_interval_count: number;
  status: SubscriptionStatus;
  current_period_start: string;
  current_period_end: string | null;
  current_meter_period_start: string | null;
  current_meter_period_end: string | null;
  trial_start: string | null;
  trial_end: string | null;
  cancel_at_period_end: boolean;
  canceled_at: string | null;
  started_at: string | null;
  ends_at: string | null;
  ended_at: string | null;
  pause_at_period_end: boolean;
  paused_at: string | null;
  resumes_at: string | null;
  past_due_at: string | null;
  customer_id: string;
  product_id: string;
  discount_id: string | null;
  checkout_id: string | null;
  customer_cancellation_reason: CancellationReason | null;
  customer_cancellation_comment: string | null;
  metadata: Metadata;
  price_ids: string[];
  meters: SubscriptionMeterRecord[];
  pending_update: { id: string; created_at: string; modified_at: string | null; applies_at: string; product_id: string | null; seats: number | null } | null;
  seats: number | null;
  custom_field_data: Record<string, unknown>;
}

/** Orders records; negative when `a` comes first. */
export type Comparator<T> = (a: T, b: T) => number;

/**
 * One typed collection: records by id, by organization (insertion order), by named secondary
 * keys, and lazily sorted per organization for the orders that lists use by default.
 */
export class Collection<T extends BaseRecord> {
  private readonly byId = new Map<string, T>();
  private readonly byOrganization = new Map<string, T[]>();
  private readonly sorted = new Map<string, T[]>();
  private readonly indexes = new Map<string, Map<string, T[]>>();

  /** @param indexKeys secondary index name to the keys a record is filed under */
  constructor(private readonly indexKeys: Record<string, (record: T) => readonly string[]> = {}) {
    for (const name of Object.keys(indexKeys)) this.indexes.set(name, new Map());
  }

  /** Number of records. */
  get size(): number {
    return this.byId.size;
  }

  /** Adds a record. @throws Error when the id is already taken (a bug in the caller) */
  insert(record: T): T {
    if (this.byId.has(record.id)) throw new Error(`duplicate id ${record.id}`);
    this.byId.set(record.id, record);
    push(this.byOrganization, record.organization_id, record);
    for (const [name, keys] of Object.entries(this.indexKeys)) {
      for (const key of keys(record)) push(this.indexes.get(name)!, key, record);
    }
    for (const cacheKey of [...this.sorted.keys()]) {
      if (cacheKey.startsWith(`${record.organization_id}\u0000`)) this.sorted.delete(cacheKey);
    }
    return record;
  }

  /** The record with this id, or undefined. */
  get(id: string): T | undefined {
    return this.byId.get(id);
  }

  /** Every record, in insertion order. */
  all(): IterableIterator<T> {
    return this.byId.values();
  }

  /** The records of one organization, in insertion order (empty for an unknown organization). */
  inOrganization(organizationId: string): readonly T[] {
    return this.byOrganization.get(organizationId) ?? [];
  }

  /**
   * The records of one organization sorted by `compare`, cached under `orderName` until the
   * organization's next insert; callers must not mutate the array.
   */
  sortedInOrganization(organizationId: string, orderName: string, compare: Comparator<T>): readonly T[] {
    const cacheKey = `${organizationId}\u0000${orderName}`;
    let cached = this.sorted.get(cacheKey);
    if (!cached) {
      cached = [...this.inOrganization(organizationId)].sort(compare);
      this.sorted.set(cacheKey, cached);
    }
    return cached;
  }

  /** The records filed under `key` in the secondary index `indexName`. @throws Error for an unknown index */
  lookup(indexName: string, key: string): readonly T[] {
    const index = this.indexes.get(indexName);
    if (!index) throw new Error(`no index ${indexName}`);
    return index.get(key) ?? [];
  }
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Kinds of bearer token. @see shared/api-description.md, Authentication */
export type TokenKind = 'pat' | 'oat' | 'oidc';

/** A stored access token: only the sha256 digest of its secret is kept. */
export interface TokenRecord {
  /** sha256 of the token string. */
  digest: Buffer;
  kind: TokenKind;
  /** The user or organization the token acts for. */
  subject: string;
  organizationIds: string[];
  scopes: ReadonlySet<string>;
}

/** Everything the reference server holds; create it with {@link createStore}. */
export interface Store {
  /** The seed that produced the demo data and the demo tokens. */
  readonly seed: number;
  /** The one clock of the server; demo data does not read it, so that it is the same on every start. */
  readonly clock: () => Date;
  readonly organizations: Collection<OrganizationRecord>;
  readonly products: Collection<ProductRecord>;
  readonly prices: Collection<PriceRecord>;
  readonly benefits: Collection<BenefitRecord>;
  readonly medias: Collection<MediaRecord>;
  readonly customFields: Collection<CustomFieldRecord>;
  readonly customers: Collection<CustomerRecord>;
  readonly discounts: Collection<DiscountRecord>;
  readonly meters: Collection<MeterRecord>;
  /** Indexed by `product_id`. */
  readonly subscriptions: Collection<SubscriptionRecord>;
  readonly tokens: TokenRecord[];
}

/**
 * An empty store.
 * @param options.seed drives demo data and demo tokens (default 1)
 * @param options.clock current time (default the system clock)
 */
export function createStore(options: { seed?: number; clock?: () => Date } = {}): Store {
  return {
    seed: options.seed ?? 1,
    clock: options.clock ?? (() => new Date()),
    organizations: new Collection(),
    products: new Collection(),
    prices: new Collection(),
    benefits: new Collection(),
    medias: new Collection(),
    customFields: new Collection(),
    customers: new Collection(),
    discounts: new Collection({ product_id: (d) => d.product_ids }),
    meters: new Collection(),
    subscriptions: new Collection({ product_id: (s) => [s.product_id] }),
    tokens: [],
  };
}

/**
 * Whether a product may be deleted: false when a subscription or a discount references it.
 * @see shared/api-description.md, Product (is_deletable)
 */
export function isProductDeletable(store: Store, productId: string): boolean {
  return store.subscriptions.lookup('product_id', productId).length === 0 && store.discounts.lookup('product_id', productId).length === 0;
}
