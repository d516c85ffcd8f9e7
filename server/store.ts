/**
 * The reference server's one store: typed in-memory collections, each indexed by organization,
 * by the secondary keys that listing needs, and in the sorted orders lists ask for, all kept up
 * to date as records change, so that a list request costs its page rather than the table. A
 * stored record is changed only through {@link Collection.update}. Timestamps are stored as ISO
 * strings with microseconds (see timestamps.ts); references between records are ids, resolved at
 * serialization.
 * @see shared/design.md, Reference server
 */

import { createHash } from 'node:crypto';
import { formatTimestamp } from './timestamps.js';

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

/** A postal address. @see shared/api-description.md, Customer (billing_address) */
export interface AddressRecord {
  country: string;
  line1: string | null;
  line2: string | null;
  postal_code: string | null;
  city: string | null;
  state: string | null;
}

/** Order statuses. @see shared/api-description.md, States and transitions */
export type OrderStatus = 'pending' | 'paid';

/** One line of an order; `amount` and `tax_amount` in cents. @see shared/api-description.md, Order (items) */
export interface OrderItemRecord {
  id: string;
  created_at: string;
  modified_at: string | null;
  label: string;
  amount: number;
  tax_amount: number;
  proration_type: string;
  product_price_id: string;
}

/**
 * An order. Amounts are cents: subtotal = sum of item amounts, net = subtotal - discount,
 * total = net + tax. `invoice_generated_at` stays null until the invoice is generated explicitly.
 * @see shared/api-description.md, Order; Endpoints (invoices are generated explicitly)
 */
export interface OrderRecord extends BaseRecord {
  status: OrderStatus;
  customer_id: string;
  product_id: string;
  subscription_id: string | null;
  discount_id: string | null;
  checkout_id: string | null;
  billing_reason: string;
  currency: string;
  items: OrderItemRecord[];
  subtotal_amount: number;
  discount_amount: number;
  net_amount: number;
  tax_amount: number;
  total_amount: number;
  refunded_amount: number;
  refunded_tax_amount: number;
  billing_name: string | null;
  /** As given: the spec's Address requires no field, so a changed address may lack some. */
  billing_address: Partial<AddressRecord> | null;
  invoice_number: string;
  invoice_generated_at: string | null;
  metadata: Metadata;
}

/** A dispute of a payment; amounts in cents. @see shared/api-description.md, Refund (Dispute) */
export interface DisputeRecord {
  id: string;
  created_at: string;
  modified_at: string | null;
  status: string;
  resolved: boolean;
  closed: boolean;
  amount: number;
  tax_amount: number;
  currency: string;
  reason: string;
  evidence_due_by: string | null;
  past_due: boolean;
  order_id: string;
  payment_id: string;
}

/** A refund, with the dispute it settles if any; amounts in cents. @see shared/api-description.md, Refund */
export interface RefundRecord extends BaseRecord {
  metadata: Metadata;
  status: string;
  reason: string;
  amount: number;
  tax_amount: number;
  currency: string;
  order_id: string;
  subscription_id: string | null;
  customer_id: string;
  revoke_benefits: boolean;
  dispute: DisputeRecord | null;
}

/** A saved payment method; is_default is derived from the customer's default_payment_method_id. @see shared/api-description.md, Customer payment method */
export interface PaymentMethodRecord extends BaseRecord {
  customer_id: string;
  processor: string;
  type: string;
  method_metadata: { brand: string | null; last4: string | null; exp_month: number | null; exp_year: number | null; wallet: string | null };
}

/** License key statuses: granted until revoked. @see shared/api-description.md, License key (customer portal) */
export type LicenseKeyStatus = 'granted' | 'revoked';

/** A license key granted to a customer by a license_keys benefit; `key` is the secret value. @see shared/api-description.md, License key (customer portal) */
export interface LicenseKeyRecord extends BaseRecord {
  customer_id: string;
  benefit_id: string;
  key: string;
  status: LicenseKeyStatus;
  limit_activations: number | null;
  usage: number;
  limit_usage: number | null;
  validations: number;
  last_validated_at: string | null;
  expires_at: string | null;
}

/** A member of a customer (a person using a seat). @see shared/api-description.md, Customer seat (Member) */
export interface MemberRecord extends BaseRecord {
  customer_id: string;
  email: string;
  name: string | null;
  external_id: string | null;
  role: string;
}

/** Seat statuses. @see shared/api-description.md, Customer seat */
export type SeatStatus = 'pending' | 'claimed' | 'revoked';

/**
 * A seat of a seat-based subscription. Only the sha256 (hex) of its invitation token is kept, and
 * only while the invitation can still be claimed.
 * @see shared/api-description.md, Customer seat
 */
export interface SeatRecord extends BaseRecord {
  subscription_id: string | null;
  order_id: string | null;
  status: SeatStatus;
  customer_id: string | null;
  member_id: string | null;
  email: string | null;
  invitation_token_digest: string | null;
  invitation_token_expires_at: string | null;
  claimed_at: string | null;
  revoked_at: string | null;
  seat_metadata: Record<string, unknown> | null;
}

/** Services a file belongs to (discriminator). @see shared/api-description.md, File */
export type FileService = 'downloadable' | 'product_media' | 'organization_avatar' | 'support_case_attachment';

/** A file of the files endpoints; product media files are the same records as {@link MediaRecord}s. @see shared/api-description.md, File */
export interface FileRecord extends MediaRecord {
  service: FileService;
  flagged_malicious_at: string | null;
}

/** One part of an upload in progress: its byte range (inclusive), expected checksum and, once PUT, what arrived. */
export interface UploadPartRecord {
  number: number;
  chunk_start: number;
  chunk_end: number;
  checksum_sha256_base64: string | null;
  expires_at: string;
  received: { etag: string; data: Buffer } | null;
}

/** A multipart upload of a file, from files:create until its last part arrives. @see shared/design.md, Files */
export interface UploadRecord extends BaseRecord {
  file_id: string;
  path: string;
  /** Expected sha256 of the whole file, base64, when the create body gave one. */
  checksum_sha256_base64: string | null;
  parts: UploadPartRecord[];
}

/** A webhook endpoint; `secret` is the Standard Webhooks signing secret (`whsec_` + base64). @see shared/api-description.md, Webhook endpoint */
export interface WebhookEndpointRecord extends BaseRecord {
  url: string;
  format: string;
  secret: string;
  events: string[];
  enabled: boolean;
  name: string | null;
}

/** An OAuth 2.0 client (client_secret_post); only the sha256 of its secret is kept. @see shared/api-description.md, Authentication */
export interface OAuthClientRecord extends BaseRecord {
  client_id: string;
  secret_digest: Buffer;
  client_name: string;
  redirect_uris: string[];
  /** Space-separated scopes the client may be granted. */
  scope: string;
}

/** Who an OAuth grant acts for. @see RFC 7662 section 2.2 (sub); shared/api-description.md, Authentication */
export interface OAuthSubject {
  type: 'user' | 'organization';
  id: string;
  organizationIds: string[];
}

/** An authorization code minted by the control API, kept by the sha256 (hex) of the code. @see RFC 6749 section 4.1.2 */
export interface AuthorizationCodeRecord {
  client_id: string;
  redirect_uri: string | null;
  scope: string;
  subject: OAuthSubject;
  nonce: string | null;
  /** Epoch milliseconds. */
  expiresAtMs: number;
  used: boolean;
  /** Digests of the tokens issued from this code, revoked if the code is presented again. @see RFC 6749 section 4.1.2 */
  issued: { access: Buffer[]; refresh: string[] };
}

/** A refresh token, kept by the sha256 (hex) of its value; rotated (revoked) when used. @see RFC 6749 section 6 */
export interface RefreshTokenRecord {
  client_id: string;
  scope: string;
  subject: OAuthSubject;
  /** Epoch milliseconds. */
  issuedAtMs: number;
  expiresAtMs: number;
  revoked: boolean;
}

/** One entry of the event log. @see shared/api-description.md, Events */
export interface EventRecord {
  id: string;
  /** Event kind (`order.paid`). */
  type: string;
  /** When it happened, stored timestamp format. */
  timestamp: string;
  /** The resource as serialized when the event happened. */
  data: Record<string, unknown>;
}

/** One attempt to deliver an event to a webhook endpoint (kept for the webhook delivery log). @see shared/design.md, Events and webhooks */
export interface WebhookDeliveryRecord {
  id: string;
  event_id: string;
  endpoint_id: string;
  created_at: string;
  attempt: number;
  status: 'pending' | 'succeeded' | 'failed';
  response_status: number | null;
}

/** Orders records; negative when `a` comes first. */
export type Comparator<T> = (a: T, b: T) => number;

/** A value a record is filed under in a secondary index (compared as Map keys are: SameValueZero). */
export type IndexValue = string | number | boolean | null;

/** Secondary indexes of a collection: index name to the values a record is filed under (none, one or several). */
export type IndexKeys<T> = Record<string, (record: T) => readonly IndexValue[]>;

/** Told of every record a collection inserts, updates or deletes (state persistence journals them). */
export type RecordListener = (collection: Collection<BaseRecord>, id: string, deleted: boolean) => void;

/** Counts the changes of all the collections of one store, so that a cache can tell whether anything changed. */
export class ChangeCounter {
  /** Changes so far: records inserted, updated or deleted, collections cleared, notices counted with {@link markStoreChanged}. */
  count = 0;
  /** Set by {@link trackRecordChanges}. */
  onRecord: RecordListener | undefined;
  /** Set by {@link trackRecordChanges}: called when {@link clearStore} empties the store. */
  onClear: (() => void) | undefined;
}

/**
 * An append-only log that keeps only its newest entries: once it holds more than `capacity` plus a
 * quarter, the oldest are dropped down to `capacity` (amortized constant time per entry).
 * `appended` counts every entry ever pushed, dropped ones included.
 */
export class BoundedLog<T> extends Array<T> {
  // Methods that build a new array (slice, filter, map) build a plain one.
  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }

  /** Entries kept at least (the newest ones). */
  declare readonly capacity: number;
  /** Entries pushed since the log was created. */
  declare appended: number;

  constructor(capacity: number) {
    super();
    // Not enumerable: the log compares, prints and serializes as the array of its entries.
    Object.defineProperty(this, 'capacity', { value: capacity, enumerable: false });
    Object.defineProperty(this, 'appended', { value: 0, writable: true, enumerable: false });
  }

  override push(...items: T[]): number {
    for (const item of items) super.push(item);
    this.appended += items.length;
    if (this.length > this.capacity + Math.ceil(this.capacity / 4)) this.splice(0, this.length - this.capacity);
    return this.length;
  }
}

/** Events the store keeps (the newest; older ones are dropped): the control API's window on the event log. */
export const MAX_KEPT_EVENTS = 10_000;
/** Webhook delivery attempts the store keeps (the newest). */
export const MAX_KEPT_DELIVERIES = 10_000;

/** One order of a collection kept up to date: per organization, every record sorted by `compare`. */
interface KeptOrder<T> {
  compare: Comparator<T>;
  /** The order reads other collections' records (a subscription sorted by its product's name). */
  foreign: boolean;
  /** Changes elsewhere in the store when it was built; a foreign order is dropped once they differ. */
  foreignStamp: number;
  /** Built lazily, per organization, on first use. */
  byOrganization: Map<string, T[]>;
}

const EMPTY_SET: ReadonlySet<never> = new Set();

/** The key of one value of one index in {@link Collection}'s membership stamps (values of different types never share one). */
function keyOf(indexName: string, value: IndexValue): string {
  return `${indexName}\u0000${typeof value}\u0000${String(value)}`;
}

/** The first position of `list` whose record sorts after `record`: where to insert it. */
function insertPosition<T>(list: readonly T[], record: T, compare: Comparator<T>): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compare(list[middle]!, record) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The position of `record` in `list` (sorted by `compare`, which ties no two records), or -1. */
function positionOf<T>(list: readonly T[], record: T, compare: Comparator<T>): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compare(list[middle]!, record) < 0) low = middle + 1;
    else high = middle;
  }
  // A record changed behind the collection's back is no longer where its values say: find it anyway.
  return list[low] === record ? low : list.indexOf(record);
}

/** Removes `record` from `list` (sorted by `compare`), if it is there. */
function removeFrom<T>(list: T[], record: T, compare: Comparator<T>): void {
  const position = positionOf(list, record, compare);
  if (position >= 0) list.splice(position, 1);
}

/**
 * What a function read from the collections while {@link recordReads} watched it, as a flat list
 * of entries `[collection, kind, key, value, stamp]`: kind 0 a record by id (`value` the record or
 * undefined, `stamp` its change stamp), kind 1 the membership of one index value (`count`), kind 2
 * the whole collection (a scan or a set of records, `stamp` the collection's change count), kind 3
 * the record `read` was given (`collection` null, `value` the record).
 */
export type Reads = unknown[];

let recording: Reads | undefined;
/** Grows with every change of any record or index value, in every store: equal stamps mean no change. */
let lastStamp = 0;
/** The change stamp of every stored record (one record may be stored in two collections: a product media file is also a file). */
const stamps = new WeakMap<object, number>();

/**
 * Runs `read` and notes every read it makes of any collection (see {@link Reads}), so that a value
 * computed from the store (a serialized record) can later be told still current or not by
 * {@link readsCurrent}, record by record rather than by the whole store's revision. Reads outside
 * the collections (the clock, tokens, the event log) are not noted: `read` must not depend on them.
 * @param subject the stored record `read` is given (and reads without a lookup), noted as read
 * @returns what `read` returned and the reads it made
 */
export function recordReads<R>(read: () => R, subject?: object): { result: R; reads: Reads } {
  const outer = recording;
  const reads: Reads = subject === undefined ? [] : [null, 3, '', subject, stamps.get(subject)];
  recording = reads;
  try {
    return { result: read(), reads };
  } finally {
    recording = outer;
    // A nested recording's reads are the outer one's too.
    if (outer) for (const read of reads) outer.push(read);
  }
}

/** Whether every read of `reads` would read the same today: no record, index value or scanned collection it read has changed. */
export function readsCurrent(reads: Reads): boolean {
  for (let i = 0; i < reads.length; i += 5) {
    const collection = reads[i] as Collection<BaseRecord> | null;
    if (collection === null) {
      if (stamps.get(reads[i + 3] as object) !== reads[i + 4]) return false;
    } else if (collection.readStamp(reads[i + 1] as number, reads[i + 2] as string, reads[i + 3]) !== reads[i + 4]) return false;
  }
  return true;
}

/**
 * One typed collection: records by id, by organization (insertion order), by secondary index
 * (value, then organization), and in the orders that lists use, kept sorted per organization as
 * records are inserted, updated and deleted. Records are plain objects shared with callers, so a
 * change to a stored record must go through {@link Collection.update}: a field assigned directly
 * leaves the indexes and orders describing the old value.
 * @see shared/design.md, Reference server (one store with the secondary indexes that listing needs)
 */
export class Collection<T extends BaseRecord> {
  private readonly byId = new Map<string, T>();
  private readonly byOrganization = new Map<string, T[]>();
  private readonly indexes = new Map<string, Map<IndexValue, Map<string, Set<T>>>>();
  private readonly multiValued = new Set<string>();
  private readonly orders = new Map<string, KeptOrder<T>>();
  private ownChanges = 0;
  /** The stamp of the last change of membership of each index value, by {@link keyOf}. */
  private readonly keyStamps = new Map<string, number>();

  /**
   * @param indexKeys secondary index name to the values a record is filed under
   * @param changes the change counter shared by the collections of one store
   */
  private readonly indexKeys: IndexKeys<T>;
  readonly changes: ChangeCounter;

  constructor(indexKeys: IndexKeys<T> = {}, changes: ChangeCounter = new ChangeCounter()) {
    this.indexKeys = indexKeys;
    this.changes = changes;
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
    stamps.set(record, ++lastStamp);
    const list = this.byOrganization.get(record.organization_id);
    if (list) list.push(record);
    else this.byOrganization.set(record.organization_id, [record]);
    for (const name of this.indexes.keys()) this.file(name, record, this.valuesOf(name, record));
    for (const order of this.currentOrders()) {
      const sorted = order.byOrganization.get(record.organization_id);
      sorted?.splice(insertPosition(sorted, record, order.compare), 0, record);
    }
    this.changed();
    this.changes.onRecord?.(this as unknown as Collection<BaseRecord>, record.id, false);
    return record;
  }

  /**
   * Changes fields of a stored record in place and moves it in every index and order; the only
   * way to change a stored record.
   * @returns the same record, changed
   * @throws Error when the record is not the one stored under its id, or the patch changes its id or organization (bugs)
   */
  update(record: T, patch: Partial<T>): T {
    if (this.byId.get(record.id) !== record) throw new Error(`record ${record.id} is not stored in this collection`);
    if ((patch.id !== undefined && patch.id !== record.id) || (patch.organization_id !== undefined && patch.organization_id !== record.organization_id)) {
      throw new Error(`record ${record.id}: id and organization_id never change`);
    }
    const before = new Map([...this.indexes.keys()].map((name) => [name, this.valuesOf(name, record)]));
    const orders = this.currentOrders();
    const lists = orders.map((order) => order.byOrganization.get(record.organization_id));
    lists.forEach((sorted, i) => {
      if (sorted) removeFrom(sorted, record, orders[i]!.compare);
    });
    Object.assign(record, patch);
    stamps.set(record, ++lastStamp);
    for (const [name, old] of before) {
      const now = this.valuesOf(name, record);
      if (now.length === old.length && now.every((value, i) => value === old[i])) continue;
      this.unfile(name, record, old);
      this.file(name, record, now);
    }
    lists.forEach((sorted, i) => {
      if (sorted) sorted.splice(insertPosition(sorted, record, orders[i]!.compare), 0, record);
    });
    this.changed();
    this.changes.onRecord?.(this as unknown as Collection<BaseRecord>, record.id, false);
    return record;
  }

  /** Removes the record with this id from the collection and every index and order. @returns the removed record, or undefined */
  delete(id: string): T | undefined {
    const record = this.byId.get(id);
    if (!record) return undefined;
    for (const order of this.currentOrders()) {
      const sorted = order.byOrganization.get(record.organization_id);
      if (sorted) removeFrom(sorted, record, order.compare);
    }
    for (const name of this.indexes.keys()) this.unfile(name, record, this.valuesOf(name, record));
    const list = this.byOrganization.get(record.organization_id)!;
    list.splice(list.indexOf(record), 1);
    if (list.length === 0) this.byOrganization.delete(record.organization_id);
    this.byId.delete(id);
    this.changed();
    this.changes.onRecord?.(this as unknown as Collection<BaseRecord>, id, true);
    return record;
  }

  /** The record with this id, or undefined. */
  get(id: string): T | undefined {
    const record = this.byId.get(id);
    if (recording) recording.push(this, 0, id, record, record === undefined ? 0 : stamps.get(record));
    return record;
  }

  /** Every record, in insertion order. */
  all(): IterableIterator<T> {
    this.scanned();
    return this.byId.values();
  }

  /** The records of one organization, in insertion order (empty for an unknown organization); callers must not mutate the array. */
  inOrganization(organizationId: string): readonly T[] {
    this.scanned();
    return this.byOrganization.get(organizationId) ?? [];
  }

  /**
   * The stamp a read of {@link Reads} would note now: kind 0 the stamp of the record stored under
   * `key` if it is `value` (else -1), kind 1 the membership stamp of the index value `key`, kind 2
   * the collection's change count.
   */
  readStamp(kind: number, key: string, value: unknown): number | undefined {
    if (kind === 0) {
      const record = this.byId.get(key);
      if (record !== value) return -1;
      return record === undefined ? 0 : stamps.get(record);
    }
    if (kind === 1) return this.keyStamps.get(key) ?? 0;
    return this.ownChanges;
  }

  /**
   * The records of one organization sorted by `compare`, which must tie no two records (end with
   * the id). The order is built on first use under `orderName` and then kept up to date by
   * insert, update and delete; callers must not mutate the array.
   * @param orderName names the order `compare` gives (the same name must always mean the same order)
   * @param foreign whether `compare` reads other collections' records: such an order is rebuilt after any change elsewhere in the store
   */
  sorted(organizationId: string, orderName: string, compare: Comparator<T>, foreign = false): readonly T[] {
    this.scanned();
    let order = this.orders.get(orderName);
    if (!order || this.isStale(order)) {
      order = { compare, foreign, foreignStamp: this.foreignChanges(), byOrganization: new Map() };
      this.orders.set(orderName, order);
    }
    let sorted = order.byOrganization.get(organizationId);
    if (!sorted) {
      sorted = [...this.inOrganization(organizationId)].sort(order.compare);
      order.byOrganization.set(organizationId, sorted);
    }
    return sorted;
  }

  /** Removes every record (the control API's reset). */
  clear(): void {
    this.byId.clear();
    this.byOrganization.clear();
    this.orders.clear();
    for (const index of this.indexes.values()) index.clear();
    for (const key of this.keyStamps.keys()) this.keyStamps.set(key, ++lastStamp);
    this.multiValued.clear();
    this.changed();
  }

  /** The records filed under `value` in the secondary index `indexName`, of every organization. @throws Error for an unknown index */
  lookup(indexName: string, value: IndexValue): readonly T[] {
    this.scanned();
    const byOrganization = this.index(indexName).get(value);
    if (!byOrganization) return [];
    const records: T[] = [];
    for (const set of byOrganization.values()) records.push(...set);
    return records;
  }

  /** How many records are filed under `value` in `indexName`, without listing them. @throws Error for an unknown index */
  count(indexName: string, value: IndexValue): number {
    if (recording) {
      const key = keyOf(indexName, value);
      recording.push(this, 1, key, undefined, this.keyStamps.get(key) ?? 0);
    }
    let total = 0;
    for (const set of this.index(indexName).get(value)?.values() ?? []) total += set.size;
    return total;
  }

  /** The records of one organization filed under `value` in `indexName`; callers must not mutate the set. @throws Error for an unknown index */
  filedUnder(indexName: string, organizationId: string, value: IndexValue): ReadonlySet<T> {
    this.scanned();
    return this.index(indexName).get(value)?.get(organizationId) ?? EMPTY_SET;
  }

  /** The values of `indexName` that at least one record of the organization is filed under. @throws Error for an unknown index */
  valuesInOrganization(indexName: string, organizationId: string): IndexValue[] {
    this.scanned();
    return [...this.index(indexName)].filter(([, byOrganization]) => byOrganization.has(organizationId)).map(([value]) => value);
  }

  /** Whether a record has ever been filed under two values of `indexName` at once (so that its sets may overlap). */
  isMultiValued(indexName: string): boolean {
    return this.multiValued.has(indexName);
  }

  /** Notes, while {@link recordReads} watches, a read that depends on the whole collection. */
  private scanned(): void {
    if (recording) recording.push(this, 2, '', undefined, this.ownChanges);
  }

  private index(name: string): Map<IndexValue, Map<string, Set<T>>> {
    const index = this.indexes.get(name);
    if (!index) throw new Error(`no index ${name}`);
    return index;
  }

  private valuesOf(name: string, record: T): IndexValue[] {
    return [...new Set(this.indexKeys[name]!(record))];
  }

  private file(name: string, record: T, values: readonly IndexValue[]): void {
    if (values.length > 1) this.multiValued.add(name);
    const index = this.indexes.get(name)!;
    for (const value of values) {
      this.keyStamps.set(keyOf(name, value), ++lastStamp);
      let byOrganization = index.get(value);
      if (!byOrganization) index.set(value, (byOrganization = new Map()));
      let set = byOrganization.get(record.organization_id);
      if (!set) byOrganization.set(record.organization_id, (set = new Set()));
      set.add(record);
    }
  }

  private unfile(name: string, record: T, values: readonly IndexValue[]): void {
    const index = this.indexes.get(name)!;
    for (const value of values) {
      this.keyStamps.set(keyOf(name, value), ++lastStamp);
      const byOrganization = index.get(value);
      const set = byOrganization?.get(record.organization_id);
      if (!byOrganization || !set) continue;
      set.delete(record);
      if (set.size === 0) byOrganization.delete(record.organization_id);
      if (byOrganization.size === 0) index.delete(value);
    }
  }

  private changed(): void {
    this.ownChanges++;
    this.changes.count++;
  }

  private foreignChanges(): number {
    return this.changes.count - this.ownChanges;
  }

  private isStale(order: KeptOrder<T>): boolean {
    return order.foreign && order.foreignStamp !== this.foreignChanges();
  }

  /** The orders to keep up to date; stale foreign orders are dropped (rebuilt when next asked for). */
  private currentOrders(): KeptOrder<T>[] {
    const current: KeptOrder<T>[] = [];
    for (const [name, order] of this.orders) {
      if (this.isStale(order)) this.orders.delete(name);
      else current.push(order);
    }
    return current;
  }
}

/** Kinds of bearer token. @see shared/api-description.md, Authentication */
export type TokenKind = 'pat' | 'oat' | 'oidc' | 'customer_session' | 'member_session';

/** A stored access token: only the sha256 digest of its secret is kept. */
export interface TokenRecord {
  /** sha256 of the token string. */
  digest: Buffer;
  kind: TokenKind;
  /** The user, organization, customer or member the token acts for. */
  subject: string;
  organizationIds: string[];
  scopes: ReadonlySet<string>;
  /** customer_session and member_session tokens: the customer whose portal they open. */
  customerId?: string;
  /** member_session tokens: the member. */
  memberId?: string;
  /** Epoch milliseconds; absent for tokens that do not expire (the demo tokens). */
  expiresAtMs?: number;
  /** Epoch milliseconds. */
  issuedAtMs?: number;
  /** OAuth-issued tokens: the client they were issued to and whose subject type (RFC 7662 sub_type). */
  oauth?: { clientId: string; subjectType: 'user' | 'organization' };
  /** Set when the token was revoked (an authorization code presented twice). */
  revoked?: boolean;
}

/** Everything the reference server holds; create it with {@link createStore}. */
export interface Store {
  /** The seed that produced the demo data and the demo tokens. */
  readonly seed: number;
  /** The one clock of the server: the base clock plus {@link Store.clockOffsetMs}; demo data does not read it. */
  readonly clock: () => Date;
  /** Milliseconds the control API has advanced the clock by. */
  clockOffsetMs: number;
  /** How many ids {@link newId} has handed out. */
  idSequence: number;
  readonly organizations: Collection<OrganizationRecord>;
  /** Indexed by `visibility`, `is_archived`, `is_recurring` and `benefit_id` (the list filters). */
  readonly products: Collection<ProductRecord>;
  readonly prices: Collection<PriceRecord>;
  readonly benefits: Collection<BenefitRecord>;
  readonly medias: Collection<MediaRecord>;
  readonly customFields: Collection<CustomFieldRecord>;
  /** Indexed by `external_id`. */
  readonly customers: Collection<CustomerRecord>;
  readonly discounts: Collection<DiscountRecord>;
  readonly meters: Collection<MeterRecord>;
  /** Indexed by `product_id`, `customer_id`, `discount_id`, `status`, `cancel_at_period_end` and `customer_cancellation_reason`. */
  readonly subscriptions: Collection<SubscriptionRecord>;
  /** Indexed by `product_id` and `customer_id`. */
  readonly orders: Collection<OrderRecord>;
  /** Indexed by `order_id`, `subscription_id`, `customer_id` and `status`. */
  readonly refunds: Collection<RefundRecord>;
  /** Indexed by `customer_id`. */
  readonly paymentMethods: Collection<PaymentMethodRecord>;
  /** Indexed by `customer_id` and `benefit_id`. */
  readonly licenseKeys: Collection<LicenseKeyRecord>;
  /** Indexed by `customer_id`. */
  readonly members: Collection<MemberRecord>;
  /** Indexed by `subscription_id`. */
  readonly seats: Collection<SeatRecord>;
  readonly files: Collection<FileRecord>;
  readonly uploads: Collection<UploadRecord>;
  readonly webhookEndpoints: Collection<WebhookEndpointRecord>;
  /** Indexed by `client_id`. */
  readonly oauthClients: Collection<OAuthClientRecord>;
  readonly tokens: TokenRecord[];
  /** Authorization codes by the sha256 (hex) of the code. */
  readonly authorizationCodes: Map<string, AuthorizationCodeRecord>;
  /** Refresh tokens by the sha256 (hex) of the token. */
  readonly refreshTokens: Map<string, RefreshTokenRecord>;
  /** The event log, oldest first: the newest {@link MAX_KEPT_EVENTS} at least. @see shared/api-description.md, Events */
  readonly events: BoundedLog<EventRecord>;
  /** The webhook delivery log, oldest first: the newest {@link MAX_KEPT_DELIVERIES} at least. */
  readonly deliveries: BoundedLog<WebhookDeliveryRecord>;
}

/**
 * An empty store.
 * @param options.seed drives demo data, demo tokens and ids (default 1)
 * @param options.clock current time (default the system clock); the control API can advance it
 */
export function createStore(options: { seed?: number; clock?: () => Date } = {}): Store {
  const base = options.clock ?? (() => new Date());
  const changes = new ChangeCounter();
  const collection = <T extends BaseRecord>(indexKeys: IndexKeys<T> = {}) => new Collection<T>(indexKeys, changes);
  const store: Store = {
    seed: options.seed ?? 1,
    clock: () => new Date(base().getTime() + store.clockOffsetMs),
    clockOffsetMs: 0,
    idSequence: 0,
    organizations: collection(),
    products: collection({
      visibility: (p) => [p.visibility],
      is_archived: (p) => [p.is_archived],
      is_recurring: (p) => [p.recurring_interval !== null],
      benefit_id: (p) => p.benefit_ids,
    }),
    prices: collection(),
    benefits: collection(),
    medias: collection(),
    customFields: collection(),
    customers: collection({ external_id: (c) => (c.external_id === null ? [] : [c.external_id]) }),
    discounts: collection({ product_id: (d) => d.product_ids }),
    meters: collection(),
    subscriptions: collection({
      product_id: (s) => [s.product_id],
      customer_id: (s) => [s.customer_id],
      discount_id: (s) => [s.discount_id],
      status: (s) => [s.status],
      cancel_at_period_end: (s) => [s.cancel_at_period_end],
      customer_cancellation_reason: (s) => [s.customer_cancellation_reason],
    }),
    orders: collection({ product_id: (o) => [o.product_id], customer_id: (o) => [o.customer_id] }),
    refunds: collection({ order_id: (r) => [r.order_id], subscription_id: (r) => [r.subscription_id], customer_id: (r) => [r.customer_id], status: (r) => [r.status] }),
    paymentMethods: collection({ customer_id: (m) => [m.customer_id] }),
    licenseKeys: collection({ customer_id: (k) => [k.customer_id], benefit_id: (k) => [k.benefit_id] }),
    members: collection({ customer_id: (m) => [m.customer_id] }),
    seats: collection({ subscription_id: (s) => (s.subscription_id === null ? [] : [s.subscription_id]) }),
    files: collection(),
    uploads: collection(),
    webhookEndpoints: collection(),
    oauthClients: collection({ client_id: (c) => [c.client_id] }),
    tokens: [],
    authorizationCodes: new Map(),
    refreshTokens: new Map(),
    events: new BoundedLog<EventRecord>(MAX_KEPT_EVENTS),
    deliveries: new BoundedLog<WebhookDeliveryRecord>(MAX_KEPT_DELIVERIES),
  };
  changeCounters.set(store, changes);
  return store;
}

const changeCounters = new WeakMap<Store, ChangeCounter>();

function changeCounter(store: Store): ChangeCounter {
  const counter = changeCounters.get(store);
  if (!counter) throw new Error('not a store made by createStore');
  return counter;
}

/**
 * A number that grows with every change to the store's collections (insert, update, delete,
 * clear) and every {@link markStoreChanged}: equal numbers mean no change in between.
 * @throws Error for a store not made by {@link createStore}
 */
export function storeRevision(store: Store): number {
  return changeCounter(store).count;
}

/** Counts a change the collections cannot see (a notice that the store may have changed), for {@link storeRevision}. */
export function markStoreChanged(store: Store): void {
  changeCounter(store).count++;
}

/**
 * Tells `listener` of every record inserted, updated or deleted in any collection of the store,
 * and `onClear` of every {@link clearStore}; one listener per store (state persistence).
 * @throws Error for a store not made by {@link createStore}
 */
export function trackRecordChanges(store: Store, listener: RecordListener | undefined, onClear?: () => void): void {
  const counter = changeCounter(store);
  counter.onRecord = listener;
  counter.onClear = onClear;
}

/** Empties a store and rewinds its clock and id sequence, keeping its seed (the control API's reset). */
export function clearStore(store: Store): void {
  changeCounters.get(store)?.onClear?.();
  for (const value of Object.values(store)) {
    if (value instanceof Collection || value instanceof Map) value.clear();
    else if (Array.isArray(value)) value.length = 0;
  }
  store.clockOffsetMs = 0;
  store.idSequence = 0;
}

/** The store's current time in epoch microseconds. */
export function nowMicros(store: Store): number {
  return store.clock().getTime() * 1000;
}

/** The store's current time as a stored timestamp (`2026-03-01T10:00:00.123000Z`). */
export function nowTimestamp(store: Store): string {
  return formatTimestamp(nowMicros(store));
}

/**
 * A new record id: a version 4 UUID derived from the seed and a sequence number, so that the same
 * seed and the same requests give the same ids.
 */
export function newId(store: Store): string {
  const hex = createHash('sha256').update(`reference-id:${store.seed}:${store.idSequence++}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Whether a product may be deleted: false when an order, a subscription (trials included) or a
 * discount references it.
 * @see shared/api-description.md, Product (is_deletable)
 */
export function isProductDeletable(store: Store, productId: string): boolean {
  return (
    store.subscriptions.count('product_id', productId) === 0 &&
    store.orders.count('product_id', productId) === 0 &&
    store.discounts.count('product_id', productId) === 0
  );
}
