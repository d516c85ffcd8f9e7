/**
 * Records the control API creates that no operation of the API can (the API description shows no
 * operation creating customers, subscriptions or benefit grants): a customer with an external id,
 * a subscription of it in any of the eight statuses, and a license key granted to it. They let a
 * stateful scenario own everything a customer deletion cascades to, in every state, without
 * touching the demo data's records.
 * A new subscription is modelled on a demo subscription of the organization in the same status
 * (its product, prices, amounts, meters and timeline, the timeline moved so that it starts now), so
 * that its fields agree with its status the way the demo data's do.
 * @see docs/design.md (Targets, roles and verdicts: the target adapter); docs/server-behaviour.md (Control API)
 * @see spec/openapi.yaml, schemas Customer, Subscription, LicenseKey
 */
import { createHash } from 'node:crypto';
import type { MachineContext } from './events.js';
import type { CustomerRecord, LicenseKeyRecord, ProductRecord, SubscriptionRecord, SubscriptionStatus } from './records.js';
import { fail, ok, type Result } from './result.js';
import { newId, nowMicros, nowTimestamp } from './store.js';
import { formatTimestamp, parseTimestamp } from './timestamps.js';

/** The eight subscription statuses. @see spec/openapi.yaml, schema SubscriptionStatus */
export const SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ['incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused'];

/** Why a record cannot be created: NOT_FOUND (404 over HTTP), INVALID (400), CONFLICT (409). */
export interface RecordRefusal {
  code: 'NOT_FOUND' | 'INVALID' | 'CONFLICT';
  message: string;
}

/** What {@link createCustomer} creates; every field has a default. */
export interface CustomerInput {
  /** Unique among the organization's customers; default `cnf_` and 24 hex digits derived from the new id. */
  external_id?: string;
  /** Default `customer-<first 8 hex digits of the id>@example.com`. */
  email?: string;
  /** Default null. */
  name?: string;
}

/**
 * Creates a live customer (no deleted_at) in an organization, without payment methods.
 * @param organizationId the organization (the control API passes the demo organization A)
 * @returns the customer, or CONFLICT when another customer of the organization has the external id, INVALID for an empty one
 */
export function createCustomer(ctx: MachineContext, organizationId: string, input: CustomerInput = {}): Result<CustomerRecord, RecordRefusal> {
  const id = newId(ctx.store);
  const externalId = input.external_id ?? `cnf_${id.replace(/-/g, '').slice(0, 24)}`;
  if (externalId === '') return fail({ code: 'INVALID', message: 'external_id must not be empty.' });
  if (ctx.store.customers.lookup('external_id', externalId).some((c) => c.organization_id === organizationId)) {
    return fail({ code: 'CONFLICT', message: `A customer of the organization already has external_id ${externalId}.` });
  }
  return ok(
    ctx.store.customers.insert({
      id,
      organization_id: organizationId,
      created_at: nowTimestamp(ctx.store),
      modified_at: null,
      metadata: {},
      email_verified: false,
      type: 'individual',
      name: input.name ?? null,
      billing_name: null,
      billing_address: null,
      tax_id: null,
      deleted_at: null,
      first_user_event_at: null,
      avatar_url: null,
      external_id: externalId,
      email: input.email ?? `customer-${id.slice(0, 8)}@example.com`,
      locale: null,
      default_payment_method_id: null,
    }),
  );
}

/** What {@link createSubscription} creates. */
export interface SubscriptionInput {
  /** A live customer. */
  customer_id: string;
  /** One of {@link SUBSCRIPTION_STATUSES}. */
  status: string;
  /** Seats, which makes the subscription seat-based (invitations need a free one); default those of the model subscription. */
  seats?: number;
}

/** Timestamp fields of a subscription that move with its timeline. */
const TIMELINE_FIELDS = [
  'current_period_start',
  'current_period_end',
  'current_meter_period_start',
  'current_meter_period_end',
  'trial_start',
  'trial_end',
  'canceled_at',
  'started_at',
  'ends_at',
  'ended_at',
  'paused_at',
  'resumes_at',
  'past_due_at',
] as const satisfies readonly (keyof SubscriptionRecord)[];

function shifted(timestamp: string | null, deltaMicros: number): string | null {
  if (timestamp === null) return null;
  const micros = parseTimestamp(timestamp);
  return micros === undefined ? timestamp : formatTimestamp(micros + deltaMicros);
}

/**
 * Creates a subscription of a customer in a given status, modelled on a subscription of the
 * customer's organization in that status (a seat-based one when seats are asked for, if there is
 * one), with its timeline moved so that it is created now. No order, seat or benefit comes with it.
 * @returns the subscription; NOT_FOUND (customer, or no subscription of the status to model it on) or INVALID
 */
export function createSubscription(ctx: MachineContext, input: SubscriptionInput): Result<SubscriptionRecord, RecordRefusal> {
  const { store } = ctx;
  const customer = typeof input.customer_id === 'string' ? store.customers.get(input.customer_id.toLowerCase()) : undefined;
  if (!customer || customer.deleted_at !== null) return fail({ code: 'NOT_FOUND', message: `Customer ${input.customer_id} not found.` });
  if (!(SUBSCRIPTION_STATUSES as readonly string[]).includes(input.status)) return fail({ code: 'INVALID', message: `status must be one of ${SUBSCRIPTION_STATUSES.join(', ')}.` });
  if (input.seats !== undefined && (!Number.isInteger(input.seats) || input.seats < 1)) return fail({ code: 'INVALID', message: 'seats must be a positive integer.' });
  const status = input.status as SubscriptionStatus;
  const candidates = store.subscriptions.lookup('status', status).filter((s) => s.organization_id === customer.organization_id && !store.products.get(s.product_id)?.is_archived);
  const model = (input.seats !== undefined ? candidates.find((s) => s.seats !== null) : undefined) ?? candidates[0];
  if (!model) return fail({ code: 'NOT_FOUND', message: `No subscription of the organization is ${status} to model a new one on.` });
  const now = nowMicros(store);
  const delta = now - (parseTimestamp(model.created_at) ?? now);
  const created = formatTimestamp(now);
  const timeline = Object.fromEntries(TIMELINE_FIELDS.map((field) => [field, shifted(model[field], delta)])) as Pick<SubscriptionRecord, (typeof TIMELINE_FIELDS)[number]>;
  return ok(
    store.subscriptions.insert({
      ...model,
      ...timeline,
      current_period_start: timeline.current_period_start ?? created,
      id: newId(store),
      created_at: created,
      modified_at: null,
      customer_id: customer.id,
      checkout_id: null,
      customer_cancellation_reason: null,
      customer_cancellation_comment: null,
      metadata: {},
      price_ids: [...model.price_ids],
      meters: model.meters.map((meter) => ({ ...meter, id: newId(store), created_at: created, modified_at: null })),
      pending_update: null,
      seats: input.seats ?? model.seats,
      custom_field_data: {},
    }),
  );
}

/** What {@link grantLicenseKey} grants. */
export interface LicenseKeyInput {
  /** A live customer. */
  customer_id: string;
  /** A license_keys benefit of the customer's organization that is not deleted; default the first one. */
  benefit_id?: string;
}

/**
 * Grants a license key to a customer through a license_keys benefit (status granted, no limits,
 * unused). The key is derived from the seed and the new id, like every other id of the store.
 * @returns the key; NOT_FOUND (customer, benefit) or INVALID (a benefit of another type or organization, or deleted)
 */
export function grantLicenseKey(ctx: MachineContext, input: LicenseKeyInput): Result<LicenseKeyRecord, RecordRefusal> {
  const { store } = ctx;
  const customer = typeof input.customer_id === 'string' ? store.customers.get(input.customer_id.toLowerCase()) : undefined;
  if (!customer || customer.deleted_at !== null) return fail({ code: 'NOT_FOUND', message: `Customer ${input.customer_id} not found.` });
  const benefit =
    input.benefit_id !== undefined
      ? store.benefits.get(input.benefit_id.toLowerCase())
      : store.benefits.inOrganization(customer.organization_id).find((b) => b.type === 'license_keys' && !b.is_deleted);
  if (!benefit) return fail({ code: 'NOT_FOUND', message: input.benefit_id === undefined ? 'The organization has no license_keys benefit.' : `Benefit ${input.benefit_id} not found.` });
  if (benefit.organization_id !== customer.organization_id || benefit.type !== 'license_keys' || benefit.is_deleted) {
    return fail({ code: 'INVALID', message: `Benefit ${benefit.id} is not a license_keys benefit of the customer's organization that is not deleted.` });
  }
  const id = newId(store);
  const hex = createHash('sha256').update(`reference-license-key:${store.seed}:${id}`).digest('hex').slice(0, 32).toUpperCase();
  const prefix = typeof benefit.properties.prefix === 'string' && benefit.properties.prefix !== '' ? benefit.properties.prefix : 'KEY';
  return ok(
    store.licenseKeys.insert({
      id,
      organization_id: customer.organization_id,
      created_at: nowTimestamp(store),
      modified_at: null,
      customer_id: customer.id,
      benefit_id: benefit.id,
      key: `${prefix}-${hex.replace(/(.{8})(?!$)/g, '$1-')}`,
      status: 'granted',
      limit_activations: null,
      usage: 0,
      limit_usage: null,
      validations: 0,
      last_validated_at: null,
      expires_at: null,
    }),
  );
}

/** What {@link createProduct} creates; every field has a default. */
export interface ProductInput {
  /** Default `Conformance product ` and the first 8 hex digits of the new id. */
  name?: string;
}

/**
 * Creates a one-time, public, unarchived product of an organization with no prices, benefits,
 * media or custom fields, which nothing references: a product that a case replacing a product's
 * benefits (`POST /v1/products/{id}/benefits`) can own without touching the demo data's products.
 * @param organizationId the organization (the control API passes the demo organization A)
 * @returns the product; INVALID for an empty name
 * @see spec/openapi.yaml, schema Product; operationId products:update_benefits
 */
export function createProduct(ctx: MachineContext, organizationId: string, input: ProductInput = {}): Result<ProductRecord, RecordRefusal> {
  const id = newId(ctx.store);
  const name = input.name ?? `Conformance product ${id.slice(0, 8)}`;
  if (name === '') return fail({ code: 'INVALID', message: 'name must not be empty.' });
  return ok(
    ctx.store.products.insert({
      id,
      organization_id: organizationId,
      created_at: nowTimestamp(ctx.store),
      modified_at: null,
      name,
      description: null,
      visibility: 'public',
      recurring_interval: null,
      recurring_interval_count: null,
      trial_interval: null,
      trial_interval_count: null,
      meter_interval: null,
      meter_interval_count: null,
      is_archived: false,
      metadata: {},
      price_ids: [],
      benefit_ids: [],
      media_ids: [],
      attached_custom_fields: [],
    }),
  );
}
