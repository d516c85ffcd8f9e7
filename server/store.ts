/**
 * The reference server's one store: its typed in-memory collections (collection.ts) of records
 * (records.ts), its tokens, OAuth grants, event log and webhook delivery log, one clock and one
 * seed for ids; created by {@link createStore}, emptied by {@link clearStore}, its changes counted
 * by {@link storeRevision}. A stored record is changed only through `Collection.update`.
 * Timestamps are stored as ISO strings with microseconds (see timestamps.ts); references between
 * records are ids, resolved at serialization.
 * @see docs/design.md (Reference server)
 */

import { createHash } from 'node:crypto';
import { ChangeCounter, Collection, type IndexKeys, type RecordListener } from './collection.js';
import type {
  AuthorizationCodeRecord,
  BaseRecord,
  BenefitRecord,
  CustomerRecord,
  CustomFieldRecord,
  DiscountRecord,
  EventRecord,
  FileRecord,
  LicenseKeyRecord,
  MediaRecord,
  MemberRecord,
  MeterRecord,
  OAuthClientRecord,
  OrderRecord,
  OrganizationRecord,
  PaymentMethodRecord,
  PriceRecord,
  ProductRecord,
  RefreshTokenRecord,
  RefundRecord,
  SeatRecord,
  SubscriptionRecord,
  TokenRecord,
  UploadRecord,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
} from './records.js';
import { formatTimestamp } from './timestamps.js';

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

/** Instants a store's clock is held at while {@link atInstant} runs, by store. */
const pinnedInstants = new WeakMap<Store, number>();

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
  /** The event log, oldest first: the newest {@link MAX_KEPT_EVENTS} at least. @see docs/reference-server.md (Durability (--state), Bounded logs) */
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
    clock: () => new Date(pinnedInstants.get(store) ?? base().getTime() + store.clockOffsetMs),
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


/**
 * Runs `work` with the store's clock held at `instantMs` (epoch milliseconds), then lets it run
 * again: what the test clock applies is stamped with the time it fell due, not the time of the
 * advance (docs/lifecycle.md). Not reentrant: a nested call holds the inner instant until it returns.
 * @returns what `work` returns
 */
export function atInstant<T>(store: Store, instantMs: number, work: () => T): T {
  const previous = pinnedInstants.get(store);
  pinnedInstants.set(store, instantMs);
  try {
    return work();
  } finally {
    if (previous === undefined) pinnedInstants.delete(store);
    else pinnedInstants.set(store, previous);
  }
}

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

/**
 * Replaces everything `target` holds with what `source` holds, at once: `target` is emptied as by
 * {@link clearStore} (its clock offset back to 0), then every record of `source` is inserted through
 * its collection (so a state file journals each, and a record two collections share stays shared),
 * with `source`'s tokens, maps and id sequence. The event and delivery logs stay empty: what made
 * `source` (a data file's records, server/data/load.ts) is not a history of `target`.
 * @throws Error when the two stores do not have the same fields (a bug)
 */
export function moveStoreContents(target: Store, source: Store): void {
  clearStore(target);
  const into = target as unknown as Record<string, unknown>;
  for (const [name, value] of Object.entries(source)) {
    const destination = into[name];
    if (value instanceof BoundedLog) continue;
    if (value instanceof Collection && destination instanceof Collection) {
      for (const record of value.all()) destination.insert(record);
    } else if (value instanceof Map && destination instanceof Map) {
      for (const [key, entry] of value) destination.set(key, entry);
    } else if (Array.isArray(value) && Array.isArray(destination)) {
      destination.push(...value);
    } else if (typeof value !== 'number' && typeof value !== 'function') {
      throw new Error(`cannot move the store field ${name}`);
    }
  }
  target.idSequence = source.idSequence;
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
 * @see spec/rules.yaml products.is_deletable_when_referenced
 */
export function isProductDeletable(store: Store, productId: string): boolean {
  return (
    store.subscriptions.count('product_id', productId) === 0 &&
    store.orders.count('product_id', productId) === 0 &&
    store.discounts.count('product_id', productId) === 0
  );
}
