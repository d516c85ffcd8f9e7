// The bodies the data-invariant checks' tests judge: a product and a subscription as the API
// answers them (fields overridden per case), the ids they name, and the operations they list under.
export const CUSTOMER = '0b7e3c1a-5b0e-4b8e-9d43-2a1f5e6c7d01';
export const OTHER_CUSTOMER = '0b7e3c1a-5b0e-4b8e-9d43-2a1f5e6c7d02';
export const PRODUCT = '6a1c1b54-0a5c-4a43-9d5e-4e3f0c1d2a11';
export const OTHER_PRODUCT = '6a1c1b54-0a5c-4a43-9d5e-4e3f0c1d2a12';
export const DISCOUNT = '9f0e8d7c-6b5a-4c3d-8e2f-1a0b9c8d7e61';

/** A recurring product of PRODUCT, not deletable, with one price of its own; `fields` override. */
export function product(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: PRODUCT,
    created_at: '2026-01-02T03:04:05.123456Z',
    modified_at: null,
    recurring_interval: 'month',
    recurring_interval_count: 1,
    meter_interval: null,
    meter_interval_count: null,
    is_recurring: true,
    is_deletable: false,
    metadata: {},
    prices: [{ id: 'p1', product_id: PRODUCT, created_at: '2026-01-02T03:04:05Z' }],
    ...fields,
  };
}

/** A subscription of CUSTOMER to PRODUCT, both embedded, without a discount; `fields` override. */
export function subscription(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'sub-1',
    created_at: '2026-01-02T03:04:05.123456Z',
    current_period_start: '2026-01-02T03:04:05.123456Z',
    cancel_at_period_end: false,
    canceled_at: null,
    customer_id: CUSTOMER,
    customer: { id: CUSTOMER, created_at: '2026-01-01T00:00:00Z', deleted_at: null },
    product_id: PRODUCT,
    product: product(),
    discount_id: null,
    discount: null,
    metadata: {},
    ...fields,
  };
}

export const SUBSCRIPTIONS = 'subscriptions:list';
export const LICENSE_KEYS = 'customer_portal:license_keys:list';
