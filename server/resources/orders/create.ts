/**
 * Building an order from a product: one item per price, amounts in cents computed the way the
 * API names them (subtotal, discount, net, tax, total). Pure: the caller inserts the record and
 * fires the creation events through the order machine.
 * @see spec/openapi.yaml, schemas Order, OrderItem; spec/rules.yaml conventions.money_in_cents
 */
import type { AddressRecord, DiscountRecord, OrderRecord, PriceRecord, ProductRecord } from '../../records.js';
import type { Store } from '../../store.js';
import { sortAmount } from '../products/list.js';

/** Cents per seat of a seat-based price (the demo data's subscriptions use the same figure). */
export const SEAT_PRICE_CENTS = 1500;

/** What an order is made of; every id and timestamp is given, so the result is a pure function of it. */
export interface OrderDraft {
  id: string;
  /** One id per item; at least as many as the product has usable prices. */
  itemIds: string[];
  product: ProductRecord;
  customerId: string;
  subscriptionId: string | null;
  discount: DiscountRecord | null;
  checkoutId: string | null;
  billingReason: string;
  seats: number | null;
  /** Tax rate in basis points of the net amount (2000 = 20 %). */
  taxBasisPoints: number;
  createdAt: string;
  billingName: string | null;
  billingAddress: Partial<AddressRecord> | null;
  invoiceNumber: string;
}

/** The prices an order charges: the product's prices that are not archived, or all when every one is. */
export function chargedPrices(store: Store, product: ProductRecord): PriceRecord[] {
  const all = product.price_ids.map((id) => store.prices.get(id)!);
  return all.some((price) => !price.is_archived) ? all.filter((price) => !price.is_archived) : all;
}

function itemAmount(price: PriceRecord, seats: number | null): number {
  if (price.amount_type === 'seat_based') return (seats ?? 1) * SEAT_PRICE_CENTS;
  return sortAmount(price) ?? 0;
}

/**
 * A pending order record (status `pending`, no invoice) for a draft.
 * @returns the record; subtotal = sum of items, net = subtotal - discount (never below 0), total = net + tax
 * @throws Error when the draft has fewer item ids than the product has charged prices (a bug in the caller)
 */
export function draftOrder(store: Store, draft: OrderDraft): OrderRecord {
  const prices = chargedPrices(store, draft.product);
  if (draft.itemIds.length < prices.length) throw new Error(`order ${draft.id} needs ${prices.length} item ids`);
  const items = prices.map((price, index) => ({
    id: draft.itemIds[index]!,
    created_at: draft.createdAt,
    modified_at: null,
    label: price.amount_type === 'seat_based' ? `${draft.product.name} (${draft.seats ?? 1} seats)` : draft.product.name,
    amount: itemAmount(price, draft.seats),
    tax_amount: 0,
    proration_type: 'applied',
    product_price_id: price.id,
  }));
  const subtotal = items.reduce((sum, item) => sum + item.amount, 0);
  const discount = draft.discount;
  const discountAmount = discount === null ? 0 : Math.min(subtotal, discount.amount ?? Math.round((subtotal * (discount.basis_points ?? 0)) / 10_000));
  const net = subtotal - discountAmount;
  const tax = Math.round((net * draft.taxBasisPoints) / 10_000);
  // Tax is spread over the items in proportion to their amounts; the last item takes the rounding.
  let spread = 0;
  items.forEach((item, index) => {
    item.tax_amount = index === items.length - 1 ? tax - spread : subtotal === 0 ? 0 : Math.round((tax * item.amount) / subtotal);
    spread += item.tax_amount;
  });
  return {
    id: draft.id,
    organization_id: draft.product.organization_id,
    created_at: draft.createdAt,
    modified_at: null,
    status: 'pending',
    customer_id: draft.customerId,
    product_id: draft.product.id,
    subscription_id: draft.subscriptionId,
    discount_id: discount?.id ?? null,
    checkout_id: draft.checkoutId,
    billing_reason: draft.billingReason,
    currency: prices[0]?.price_currency ?? 'usd',
    items,
    subtotal_amount: subtotal,
    discount_amount: discountAmount,
    net_amount: net,
    tax_amount: tax,
    total_amount: net + tax,
    refunded_amount: 0,
    refunded_tax_amount: 0,
    billing_name: draft.billingName,
    billing_address: draft.billingAddress && { ...draft.billingAddress },
    invoice_number: draft.invoiceNumber,
    invoice_generated_at: null,
    metadata: {},
  };
}

/** The next invoice number of an organization (`<SLUG>-0042`), counting its orders. */
export function nextInvoiceNumber(store: Store, organizationId: string): string {
  const slug = store.organizations.get(organizationId)?.slug ?? 'org';
  const prefix = slug.replace(/[^a-z0-9]/g, '').slice(0, 6).toUpperCase() || 'ORG';
  return `${prefix}-${String(store.orders.inOrganization(organizationId).length + 1).padStart(4, '0')}`;
}
