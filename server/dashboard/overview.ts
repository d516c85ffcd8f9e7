/**
 * What the dashboard shows (`GET /__control/overview`): the store's records by kind, each as a row
 * of the fields a person scans (not the API's whole shape: that is one GET away), newest first;
 * every subscription's status history, read from the event log; the newest events; and the newest
 * webhook delivery attempts with their time, status code, latency and the endpoint's answer.
 * Amounts are cents with their currency, timestamps stored ones (ISO 8601, UTC, microseconds).
 * @see docs/dashboard.md; docs/server-behaviour.md (Control API)
 */
import type { MachineContext } from '../events.js';
import type { PriceAmountType, SubscriptionStatus } from '../records.js';
import { nowTimestamp } from '../store.js';
import type { WebhookDeliveryAttempt } from '../webhooks/deliveries.js';

/** Rows of each kind the overview gives by default (the newest). */
export const DEFAULT_OVERVIEW_ROWS = 100;
/** Most rows of each kind one overview gives. */
export const MAX_OVERVIEW_ROWS = 1000;

/** Options of {@link dashboardOverview}. */
export interface OverviewOptions {
  /** Rows of each kind, events and delivery attempts (the newest), 1 to {@link MAX_OVERVIEW_ROWS}; default {@link DEFAULT_OVERVIEW_ROWS}. */
  limit?: number;
}

/** A price as the dashboard shows it: its type, its amount in cents when it has a set one, its currency. */
export interface PriceRow {
  id: string;
  amount_type: PriceAmountType;
  /** Cents: a fixed price's amount, a custom price's minimum; null for a seat-based or metered one. */
  amount: number | null;
  currency: string;
  is_archived: boolean;
}

/** One change of a subscription, from the event log. */
export interface StatusChange {
  at: string;
  /** The event (`subscription.cycled`). */
  type: string;
  status: string;
}

/** What the dashboard shows. */
export interface DashboardOverview {
  /** The server's clock (ISO 8601) and how far the test clock has moved it, in milliseconds. */
  now: string;
  clock_offset_ms: number;
  organizations: { id: string; name: string }[];
  /** Records of each kind in the store (the rows are the newest of them). */
  counts: Record<'products' | 'customers' | 'subscriptions' | 'orders' | 'refunds' | 'license_keys' | 'seats' | 'webhook_endpoints' | 'events' | 'deliveries', number>;
  products: { id: string; organization_id: string; name: string; recurring_interval: string | null; recurring_interval_count: number | null; prices: PriceRow[]; benefits: string[]; visibility: string; is_archived: boolean; created_at: string }[];
  customers: { id: string; organization_id: string; email: string; name: string | null; external_id: string | null; deleted: boolean; created_at: string }[];
  subscriptions: {
    id: string;
    organization_id: string;
    customer: { id: string; email: string | null };
    product: { id: string; name: string | null };
    status: SubscriptionStatus;
    amount: number;
    currency: string;
    current_period_start: string;
    current_period_end: string | null;
    cancel_at_period_end: boolean;
    seats: number | null;
    /** Whether the test clock drives it (renewals, trial end, dunning), and whether its charges are marked to fail. */
    test_clock: boolean;
    fail_payments: boolean;
    started_at: string | null;
    created_at: string;
    /** Oldest first; empty when nothing happened to it since it was made (a demo or data file record). */
    history: StatusChange[];
  }[];
  orders: { id: string; organization_id: string; created_at: string; customer: { id: string; email: string | null }; product: { id: string; name: string | null }; subscription_id: string | null; billing_reason: string; status: string; total_amount: number; refunded_amount: number; currency: string }[];
  refunds: { id: string; created_at: string; order_id: string; amount: number; currency: string; status: string; reason: string }[];
  license_keys: { id: string; created_at: string; display_key: string; customer: { id: string; email: string | null }; benefit: string | null; status: string; expires_at: string | null; usage: number; limit_usage: number | null }[];
  seats: { id: string; created_at: string; subscription_id: string | null; status: string; email: string | null; claimed_at: string | null }[];
  webhook_endpoints: { id: string; organization_id: string; url: string; events: string[]; enabled: boolean; name: string | null }[];
  /** The newest events, newest first: the record they are about (`data.id`) and its status when it has one. */
  events: { id: string; type: string; timestamp: string; subject: string | null; status: string | null }[];
  /** The newest delivery attempts, newest first, as the delivery log keeps them. */
  deliveries: WebhookDeliveryAttempt[];
}

/** The newest `limit` of a list kept oldest first, newest first. */
function newest<T>(items: Iterable<T>, limit: number): T[] {
  const all = [...items];
  return all.slice(Math.max(0, all.length - limit)).reverse();
}

/** A license key as the API displays it: its last four characters after asterisks. @see spec/rules.yaml license_keys.display_key_masked */
function displayKey(key: string): string {
  return `****-${key.slice(-4)}`;
}

/**
 * The dashboard's view of a store.
 * @see docs/dashboard.md
 */
export function dashboardOverview(ctx: MachineContext, options: OverviewOptions = {}): DashboardOverview {
  const { store } = ctx;
  const limit = Math.min(MAX_OVERVIEW_ROWS, Math.max(1, Math.trunc(options.limit ?? DEFAULT_OVERVIEW_ROWS)));
  const email = (id: string | null) => (id === null ? null : (store.customers.get(id)?.email ?? null));
  const productName = (id: string) => store.products.get(id)?.name ?? null;
  const history = new Map<string, StatusChange[]>();
  for (const event of store.events) {
    if (!event.type.startsWith('subscription.') || typeof event.data.id !== 'string') continue;
    const changes = history.get(event.data.id) ?? [];
    changes.push({ at: event.timestamp, type: event.type, status: String(event.data.status ?? '') });
    history.set(event.data.id, changes);
  }
  const deliveries = store.deliveries as unknown as WebhookDeliveryAttempt[];
  return {
    now: nowTimestamp(store),
    clock_offset_ms: store.clockOffsetMs,
    organizations: [...store.organizations.all()].map((o) => ({ id: o.id, name: o.name })),
    counts: {
      products: store.products.size,
      customers: store.customers.size,
      subscriptions: store.subscriptions.size,
      orders: store.orders.size,
      refunds: store.refunds.size,
      license_keys: store.licenseKeys.size,
      seats: store.seats.size,
      webhook_endpoints: store.webhookEndpoints.size,
      events: store.events.length,
      deliveries: deliveries.length,
    },
    products: newest(store.products.all(), limit).map((p) => ({
      id: p.id,
      organization_id: p.organization_id,
      name: p.name,
      recurring_interval: p.recurring_interval,
      recurring_interval_count: p.recurring_interval_count,
      prices: p.price_ids.flatMap((id) => {
        const price = store.prices.get(id);
        if (!price) return [];
        const amount = price.amount_type === 'fixed' ? (price.price_amount ?? 0) : price.amount_type === 'custom' ? (price.minimum_amount ?? 0) : null;
        return [{ id: price.id, amount_type: price.amount_type, amount, currency: price.price_currency, is_archived: price.is_archived }];
      }),
      benefits: p.benefit_ids.map((id) => store.benefits.get(id)?.description ?? id),
      visibility: p.visibility,
      is_archived: p.is_archived,
      created_at: p.created_at,
    })),
    customers: newest(store.customers.all(), limit).map((c) => ({ id: c.id, organization_id: c.organization_id, email: c.email, name: c.name, external_id: c.external_id, deleted: c.deleted_at !== null, created_at: c.created_at })),
    subscriptions: newest(store.subscriptions.all(), limit).map((s) => ({
      id: s.id,
      organization_id: s.organization_id,
      customer: { id: s.customer_id, email: email(s.customer_id) },
      product: { id: s.product_id, name: productName(s.product_id) },
      status: s.status,
      amount: s.amount,
      currency: s.currency,
      current_period_start: s.current_period_start,
      current_period_end: s.current_period_end,
      cancel_at_period_end: s.cancel_at_period_end,
      seats: s.seats,
      test_clock: s.test_clock !== undefined,
      fail_payments: s.test_clock?.fail_payments ?? false,
      started_at: s.started_at,
      created_at: s.created_at,
      history: history.get(s.id) ?? [],
    })),
    orders: newest(store.orders.all(), limit).map((o) => ({
      id: o.id,
      organization_id: o.organization_id,
      created_at: o.created_at,
      customer: { id: o.customer_id, email: email(o.customer_id) },
      product: { id: o.product_id, name: productName(o.product_id) },
      subscription_id: o.subscription_id,
      billing_reason: o.billing_reason,
      status: o.status,
      total_amount: o.total_amount,
      refunded_amount: o.refunded_amount,
      currency: o.currency,
    })),
    refunds: newest(store.refunds.all(), limit).map((r) => ({ id: r.id, created_at: r.created_at, order_id: r.order_id, amount: r.amount, currency: r.currency, status: r.status, reason: r.reason })),
    license_keys: newest(store.licenseKeys.all(), limit).map((k) => ({
      id: k.id,
      created_at: k.created_at,
      display_key: displayKey(k.key),
      customer: { id: k.customer_id, email: email(k.customer_id) },
      benefit: store.benefits.get(k.benefit_id)?.description ?? null,
      status: k.status,
      expires_at: k.expires_at,
      usage: k.usage,
      limit_usage: k.limit_usage,
    })),
    seats: newest(store.seats.all(), limit).map((s) => ({ id: s.id, created_at: s.created_at, subscription_id: s.subscription_id, status: s.status, email: s.email, claimed_at: s.claimed_at })),
    webhook_endpoints: newest(store.webhookEndpoints.all(), limit).map((e) => ({ id: e.id, organization_id: e.organization_id, url: e.url, events: [...e.events], enabled: e.enabled, name: e.name })),
    events: newest(store.events, limit).map((event) => ({
      id: event.id,
      type: event.type,
      timestamp: event.timestamp,
      subject: typeof event.data.id === 'string' ? event.data.id : null,
      status: typeof event.data.status === 'string' ? event.data.status : null,
    })),
    deliveries: newest(deliveries, limit).map((attempt) => ({ ...attempt, response_body: attempt.response_body ?? null })),
  };
}
