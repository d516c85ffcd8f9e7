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
import { ALL_SCOPES, findToken, registerToken } from './auth.js';
import type { MachineContext } from './events.js';
import type {
  AddressRecord,
  BaseRecord,
  BenefitRecord,
  BenefitType,
  CustomerRecord,
  Interval,
  LicenseKeyRecord,
  LicenseKeyStatus,
  Metadata,
  OrderRecord,
  OrganizationRecord,
  PriceRecord,
  ProductRecord,
  ProductVisibility,
  SubscriptionRecord,
  SubscriptionStatus,
} from './records.js';
import { fail, ok, type Result } from './result.js';
import { draftOrder, nextInvoiceNumber } from './resources/orders/create.js';
import { createOrder as insertOrder, fireOrderTransition } from './resources/orders/machine.js';
import { atInstant, newId, nowMicros, nowTimestamp, type Store } from './store.js';
import { formatTimestamp, parseTimestamp } from './timestamps.js';

/** The eight subscription statuses. @see spec/openapi.yaml, schema SubscriptionStatus */
export const SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ['incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused'];

/** Why a record cannot be created: NOT_FOUND (404 over HTTP), INVALID (400), CONFLICT (409). */
export interface RecordRefusal {
  code: 'NOT_FOUND' | 'INVALID' | 'CONFLICT';
  message: string;
  /** The input field at fault, when one is (`product_id`, `benefit_ids`): a data file's loader names the line it came from. */
  field?: string;
}

/** A refusal naming the input field at fault. */
function refuse(code: RecordRefusal['code'], field: string, message: string): { ok: false; error: RecordRefusal } {
  return fail({ code, message, field });
}

/**
 * The id a new record gets: `id` when given (a UUID, lowercased; CONFLICT when a record of
 * `collection` already has it), else a new one from the store's sequence.
 */
function recordId(store: Store, collection: { get(id: string): BaseRecord | undefined }, id: string | undefined, kind: string): Result<string, RecordRefusal> {
  if (id === undefined) return ok(newId(store));
  const lower = id.toLowerCase();
  if (!UUID.test(lower)) return refuse('INVALID', 'id', `id ${id} is not a UUID.`);
  if (collection.get(lower)) return refuse('CONFLICT', 'id', `Another ${kind} already has the id ${lower}.`);
  return ok(lower);
}

/** A UUID in its canonical text form (RFC 9562 section 4), any version. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A stored timestamp for `given` (RFC 3339, any offset) or, without one, the store's now; INVALID names `field`. */
function stamp(store: Store, given: string | undefined, field: string): Result<string, RecordRefusal> {
  if (given === undefined) return ok(nowTimestamp(store));
  const micros = parseTimestamp(given);
  return micros === undefined ? refuse('INVALID', field, `${field} ${given} is not an RFC 3339 date-time.`) : ok(formatTimestamp(micros));
}

/** Whether a value is a metadata object: string keys to strings, numbers or booleans. @see spec/openapi.yaml products:get (Metadata) */
function isMetadata(value: unknown): value is Metadata {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every((v) => ['string', 'number', 'boolean'].includes(typeof v));
}

/** What {@link createOrganization} creates. */
export interface OrganizationInput {
  /** A UUID; default a new id. */
  id?: string;
  name: string;
  /** Unique among organizations; default the name in lower case, runs of other characters as `-`. */
  slug?: string;
  /** RFC 3339; default now. */
  created_at?: string;
}

/**
 * Creates an organization (the API shows no operation for it; every other record belongs to one).
 * @returns the organization; INVALID (empty name, bad id or date) or CONFLICT (id or slug taken)
 * @see docs/data-file.md (Shape)
 */
export function createOrganization(store: Store, input: OrganizationInput): Result<OrganizationRecord, RecordRefusal> {
  if (typeof input.name !== 'string' || input.name.trim() === '') return refuse('INVALID', 'name', 'name must not be empty.');
  const slug = input.slug ?? input.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  if (slug === '') return refuse('INVALID', 'slug', 'slug must not be empty.');
  if ([...store.organizations.all()].some((o) => o.slug === slug)) return refuse('CONFLICT', 'slug', `Another organization already has the slug ${slug}.`);
  const id = recordId(store, store.organizations, input.id, 'organization');
  if (!id.ok) return id;
  const created = stamp(store, input.created_at, 'created_at');
  if (!created.ok) return created;
  return ok(store.organizations.insert({ id: id.value, organization_id: id.value, created_at: created.value, modified_at: null, name: input.name, slug }));
}

/**
 * Registers an organization access token (kind `oat`) that a developer's app is configured with:
 * only its sha256 is kept, as for every token.
 * @param token the bearer string as the app sends it (`[A-Za-z0-9-._~+/]`, then `=` padding, 8 characters or more)
 * @param scopes scopes of {@link ALL_SCOPES}; default all of them
 * @returns nothing; NOT_FOUND (organization), INVALID (token characters, unknown scope) or CONFLICT (a token already registered)
 * @see spec/rules.yaml auth.bearer_tokens_management; RFC 6750 section 2.1 (b64token)
 */
export function registerOrganizationToken(store: Store, organizationId: string, token: string, scopes?: readonly string[]): Result<void, RecordRefusal> {
  if (!store.organizations.get(organizationId)) return refuse('NOT_FOUND', 'organization_id', `Organization ${organizationId} not found.`);
  if (typeof token !== 'string' || token.length < 8 || !/^[A-Za-z0-9\-._~+/]+=*$/.test(token)) {
    return refuse('INVALID', 'token', 'token must be 8 characters or more of A-Z, a-z, 0-9, -._~+/ (then = padding), as a Bearer token is sent.');
  }
  const unknown = (scopes ?? []).filter((scope) => !(ALL_SCOPES as readonly string[]).includes(scope));
  if (unknown.length > 0) return refuse('INVALID', 'scopes', `Unknown scope ${unknown.join(', ')}; the scopes are ${ALL_SCOPES.join(', ')}.`);
  if (findToken(store, token)) return refuse('CONFLICT', 'token', 'This token is already registered (a token acts for one organization).');
  registerToken(store, token, { kind: 'oat', subject: organizationId, organizationIds: [organizationId], scopes: new Set(scopes ?? ALL_SCOPES) });
  return ok(undefined);
}

/** Benefit types a data file or the control API may create: those whose properties the reference can complete without an outside service. @see spec/openapi.yaml, schema Benefit */
export const CREATABLE_BENEFIT_TYPES: readonly BenefitType[] = ['custom', 'feature_flag', 'license_keys', 'downloadables', 'slack_shared_channel'];

/** What {@link createBenefit} creates. */
export interface BenefitInput {
  id?: string;
  /** One of {@link CREATABLE_BENEFIT_TYPES}. */
  type: string;
  description: string;
  /** Shown as the API shows them, completed for the type (a license_keys benefit: `prefix`, `expires`, `activations`, `limit_usage`). */
  properties?: Record<string, unknown>;
  metadata?: Metadata;
  created_at?: string;
}

/**
 * Creates a benefit of an organization (public, selectable, deletable).
 * @returns the benefit; INVALID (type, description, properties, metadata) or CONFLICT (id)
 * @see spec/openapi.yaml, schema Benefit
 */
export function createBenefit(store: Store, organizationId: string, input: BenefitInput): Result<BenefitRecord, RecordRefusal> {
  if (!(CREATABLE_BENEFIT_TYPES as readonly string[]).includes(input.type)) return refuse('INVALID', 'type', `type must be one of ${CREATABLE_BENEFIT_TYPES.join(', ')}.`);
  if (typeof input.description !== 'string' || input.description.trim() === '') return refuse('INVALID', 'description', 'description must not be empty.');
  const properties = input.properties ?? {};
  if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) return refuse('INVALID', 'properties', 'properties must be an object.');
  if (input.metadata !== undefined && !isMetadata(input.metadata)) return refuse('INVALID', 'metadata', 'metadata values must be strings, numbers or booleans.');
  const id = recordId(store, store.benefits, input.id, 'benefit');
  if (!id.ok) return id;
  const created = stamp(store, input.created_at, 'created_at');
  if (!created.ok) return created;
  return ok(
    store.benefits.insert({
      id: id.value,
      organization_id: organizationId,
      created_at: created.value,
      modified_at: null,
      type: input.type as BenefitType,
      description: input.description,
      selectable: true,
      deletable: true,
      is_deleted: false,
      metadata: { ...input.metadata },
      visibility: 'public',
      properties: structuredClone(properties),
      visibility_configurable: false,
    }),
  );
}

/** What {@link createCustomer} creates; every field has a default. */
export interface CustomerInput {
  /** Unique among the organization's customers; default `cnf_` and 24 hex digits derived from the new id. */
  external_id?: string;
  /** Default `customer-<first 8 hex digits of the id>@example.com`. */
  email?: string;
  /** Default null. */
  name?: string;
  /** A UUID; default a new id. */
  id?: string;
  /** Default `{}`. */
  metadata?: Metadata;
  /** Default null. */
  billing_name?: string | null;
  /** Default null; `country` is required (ISO 3166-1 alpha-2). */
  billing_address?: Partial<AddressRecord> | null;
  /** RFC 3339; default now. */
  created_at?: string;
}

/**
 * Creates a live customer (no deleted_at) in an organization, without payment methods.
 * @param organizationId the organization (the control API passes the demo organization A)
 * @returns the customer, or CONFLICT when another customer of the organization has the external id, INVALID for an empty one
 */
export function createCustomer(ctx: MachineContext, organizationId: string, input: CustomerInput = {}): Result<CustomerRecord, RecordRefusal> {
  const given = recordId(ctx.store, ctx.store.customers, input.id, 'customer');
  if (!given.ok) return given;
  const id = given.value;
  const externalId = input.external_id ?? `cnf_${id.replace(/-/g, '').slice(0, 24)}`;
  if (externalId === '') return refuse('INVALID', 'external_id', 'external_id must not be empty.');
  if (ctx.store.customers.lookup('external_id', externalId).some((c) => c.organization_id === organizationId)) {
    return refuse('CONFLICT', 'external_id', `A customer of the organization already has external_id ${externalId}.`);
  }
  if (input.metadata !== undefined && !isMetadata(input.metadata)) return refuse('INVALID', 'metadata', 'metadata values must be strings, numbers or booleans.');
  const address = input.billing_address ?? null;
  if (address !== null && (typeof address !== 'object' || typeof address.country !== 'string' || !/^[A-Z]{2}$/.test(address.country))) {
    return refuse('INVALID', 'billing_address', 'billing_address needs a country, two capital letters (ISO 3166-1 alpha-2).');
  }
  const created = stamp(ctx.store, input.created_at, 'created_at');
  if (!created.ok) return created;
  return ok(
    ctx.store.customers.insert({
      id,
      organization_id: organizationId,
      created_at: created.value,
      modified_at: null,
      metadata: { ...input.metadata },
      email_verified: false,
      type: 'individual',
      name: input.name ?? null,
      billing_name: input.billing_name ?? null,
      billing_address: address === null ? null : { country: address.country!, line1: address.line1 ?? null, line2: address.line2 ?? null, postal_code: address.postal_code ?? null, city: address.city ?? null, state: address.state ?? null },
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
  /** A UUID; default a new id. */
  id?: string;
  /** The key itself, unique; default the benefit's prefix and 32 hex digits derived from the seed and the id. */
  key?: string;
  /** Default granted. */
  status?: LicenseKeyStatus;
  /** RFC 3339 or null (the default): never expires. */
  expires_at?: string | null;
  /** Default null (no limit). */
  limit_activations?: number | null;
  /** Default null (no limit). */
  limit_usage?: number | null;
  /** Default 0. */
  usage?: number;
  /** RFC 3339; default now. */
  created_at?: string;
}

/**
 * Grants a license key to a customer through a license_keys benefit (status granted, no limits,
 * unused). The key is derived from the seed and the new id, like every other id of the store.
 * @returns the key; NOT_FOUND (customer, benefit) or INVALID (a benefit of another type or organization, or deleted)
 */
export function grantLicenseKey(ctx: MachineContext, input: LicenseKeyInput): Result<LicenseKeyRecord, RecordRefusal> {
  const { store } = ctx;
  const customer = typeof input.customer_id === 'string' ? store.customers.get(input.customer_id.toLowerCase()) : undefined;
  if (!customer || customer.deleted_at !== null) return refuse('NOT_FOUND', 'customer_id', `Customer ${input.customer_id} not found.`);
  const benefit =
    input.benefit_id !== undefined
      ? store.benefits.get(input.benefit_id.toLowerCase())
      : store.benefits.inOrganization(customer.organization_id).find((b) => b.type === 'license_keys' && !b.is_deleted);
  if (!benefit) return refuse('NOT_FOUND', 'benefit_id', input.benefit_id === undefined ? 'The organization has no license_keys benefit.' : `Benefit ${input.benefit_id} not found.`);
  if (benefit.organization_id !== customer.organization_id) {
    return refuse('INVALID', 'benefit_id', `Benefit ${benefit.id} belongs to organization ${benefit.organization_id}, not to the customer's organization ${customer.organization_id}.`);
  }
  if (benefit.type !== 'license_keys' || benefit.is_deleted) {
    return refuse('INVALID', 'benefit_id', `Benefit ${benefit.id} is ${benefit.is_deleted ? 'deleted' : `a ${benefit.type} benefit`}; a license key needs a license_keys benefit that is not deleted.`);
  }
  for (const field of ['limit_activations', 'limit_usage', 'usage'] as const) {
    const value = input[field];
    if (value !== undefined && value !== null && (!Number.isInteger(value) || value < 0)) return refuse('INVALID', field, `${field} must be an integer of 0 or more.`);
  }
  if (input.status !== undefined && input.status !== 'granted' && input.status !== 'revoked') return refuse('INVALID', 'status', 'status must be granted or revoked.');
  const given = recordId(store, store.licenseKeys, input.id, 'license key');
  if (!given.ok) return given;
  const id = given.value;
  const hex = createHash('sha256').update(`reference-license-key:${store.seed}:${id}`).digest('hex').slice(0, 32).toUpperCase();
  const prefix = typeof benefit.properties.prefix === 'string' && benefit.properties.prefix !== '' ? benefit.properties.prefix : 'KEY';
  const key = input.key ?? `${prefix}-${hex.replace(/(.{8})(?!$)/g, '$1-')}`;
  if (typeof key !== 'string' || key.trim() === '') return refuse('INVALID', 'key', 'key must not be empty.');
  if ([...store.licenseKeys.all()].some((other) => other.key === key)) return refuse('CONFLICT', 'key', 'Another license key already has this key.');
  const created = stamp(store, input.created_at, 'created_at');
  if (!created.ok) return created;
  const expires = input.expires_at === undefined || input.expires_at === null ? ok(null) : stamp(store, input.expires_at, 'expires_at');
  if (!expires.ok) return expires;
  return ok(
    store.licenseKeys.insert({
      id,
      organization_id: customer.organization_id,
      created_at: created.value,
      modified_at: null,
      customer_id: customer.id,
      benefit_id: benefit.id,
      key,
      status: input.status ?? 'granted',
      limit_activations: input.limit_activations ?? null,
      usage: input.usage ?? 0,
      limit_usage: input.limit_usage ?? null,
      validations: 0,
      last_validated_at: null,
      expires_at: expires.value,
    }),
  );
}

/** What {@link createProduct} creates; every field has a default. */
export interface ProductInput {
  /** Default `Conformance product ` and the first 8 hex digits of the new id. */
  name?: string;
  /** A UUID; default a new id. */
  id?: string;
  /** Default null. */
  description?: string | null;
  /** The billing interval of a recurring product; default null: a one-time product. */
  recurring_interval?: Interval | null;
  /** Intervals per billing period, 1 to 999 (default 1 for a recurring product). */
  recurring_interval_count?: number | null;
  /** A free trial's interval (recurring products only); default null. */
  trial_interval?: Interval | null;
  /** A free trial's length in `trial_interval`s, 1 to 1000. */
  trial_interval_count?: number | null;
  /** Default public. */
  visibility?: ProductVisibility;
  /** Default false. */
  is_archived?: boolean;
  /** Default `{}`. */
  metadata?: Metadata;
  /** Benefits of the product's organization, in display order; default none. */
  benefit_ids?: string[];
  /** RFC 3339; default now. */
  created_at?: string;
}

const INTERVALS: readonly Interval[] = ['day', 'week', 'month', 'year'];
const VISIBILITIES: readonly ProductVisibility[] = ['draft', 'private', 'public'];

/**
 * Creates a one-time, public, unarchived product of an organization with no prices, benefits,
 * media or custom fields, which nothing references: a product that a case replacing a product's
 * benefits (`POST /v1/products/{id}/benefits`) can own without touching the demo data's products.
 * @param organizationId the organization (the control API passes the demo organization A)
 * @returns the product; INVALID for an empty name
 * @see spec/openapi.yaml, schema Product; operationId products:update_benefits
 */
export function createProduct(ctx: MachineContext, organizationId: string, input: ProductInput = {}): Result<ProductRecord, RecordRefusal> {
  const { store } = ctx;
  const interval = input.recurring_interval ?? null;
  if (interval !== null && !INTERVALS.includes(interval)) return refuse('INVALID', 'recurring_interval', `recurring_interval must be one of ${INTERVALS.join(', ')}, or null for a one-time product.`);
  const count = input.recurring_interval_count ?? (interval === null ? null : 1);
  if (interval === null && count !== null) return refuse('INVALID', 'recurring_interval_count', 'A one-time product has no recurring_interval_count.');
  if (count !== null && (!Number.isInteger(count) || count < 1 || count > 999)) return refuse('INVALID', 'recurring_interval_count', 'recurring_interval_count must be an integer from 1 to 999.');
  const trial = input.trial_interval ?? null;
  const trialCount = input.trial_interval_count ?? null;
  if ((trial === null) !== (trialCount === null)) return refuse('INVALID', trial === null ? 'trial_interval' : 'trial_interval_count', 'trial_interval and trial_interval_count come together.');
  if (trial !== null && interval === null) return refuse('INVALID', 'trial_interval', 'Only a recurring product has a trial.');
  if (trial !== null && !INTERVALS.includes(trial)) return refuse('INVALID', 'trial_interval', `trial_interval must be one of ${INTERVALS.join(', ')}.`);
  if (trialCount !== null && (!Number.isInteger(trialCount) || trialCount < 1 || trialCount > 1000)) return refuse('INVALID', 'trial_interval_count', 'trial_interval_count must be an integer from 1 to 1000.');
  if (input.visibility !== undefined && !VISIBILITIES.includes(input.visibility)) return refuse('INVALID', 'visibility', `visibility must be one of ${VISIBILITIES.join(', ')}.`);
  if (input.metadata !== undefined && !isMetadata(input.metadata)) return refuse('INVALID', 'metadata', 'metadata values must be strings, numbers or booleans.');
  const benefitIds: string[] = [];
  for (const given of input.benefit_ids ?? []) {
    const benefit = typeof given === 'string' ? store.benefits.get(given.toLowerCase()) : undefined;
    if (!benefit || benefit.is_deleted) return refuse('NOT_FOUND', 'benefit_ids', `Benefit ${String(given)} not found.`);
    if (benefit.organization_id !== organizationId) return refuse('INVALID', 'benefit_ids', `Benefit ${benefit.id} belongs to organization ${benefit.organization_id}, not to the product's organization ${organizationId}.`);
    if (benefitIds.includes(benefit.id)) return refuse('INVALID', 'benefit_ids', `Benefit ${benefit.id} is listed twice.`);
    benefitIds.push(benefit.id);
  }
  const given = recordId(store, store.products, input.id, 'product');
  if (!given.ok) return given;
  const id = given.value;
  const name = input.name ?? `Conformance product ${id.slice(0, 8)}`;
  if (name === '') return refuse('INVALID', 'name', 'name must not be empty.');
  const created = stamp(store, input.created_at, 'created_at');
  if (!created.ok) return created;
  return ok(
    store.products.insert({
      id,
      organization_id: organizationId,
      created_at: created.value,
      modified_at: null,
      name,
      description: input.description ?? null,
      visibility: input.visibility ?? 'public',
      recurring_interval: interval,
      recurring_interval_count: count,
      trial_interval: trial,
      trial_interval_count: trialCount,
      meter_interval: null,
      meter_interval_count: null,
      is_archived: input.is_archived ?? false,
      metadata: { ...input.metadata },
      price_ids: [],
      benefit_ids: benefitIds,
      media_ids: [],
      attached_custom_fields: [],
    }),
  );
}

/** Price amount types a data file or the control API may create. @see spec/openapi.yaml, schema Price */
export const CREATABLE_PRICE_TYPES = ['fixed', 'custom', 'seat_based'] as const;

/** What {@link createPrice} creates. */
export interface PriceInput {
  id?: string;
  /** One of {@link CREATABLE_PRICE_TYPES}: fixed (`price_amount`; 0 for a free tier), custom (pay what you want) or seat_based (per seat, a recurring product's). */
  amount_type: string;
  /** Cents, fixed prices; required there. */
  price_amount?: number;
  /** Cents, custom prices: the least a customer may pay (default 0), the most (default null: no limit) and the amount proposed (default null). */
  minimum_amount?: number;
  maximum_amount?: number | null;
  preset_amount?: number | null;
  /** ISO 4217, lower case; default usd. Every price of a product has the same. */
  price_currency?: string;
  /** Default false. */
  is_archived?: boolean;
  /** RFC 3339; default the product's created_at. */
  created_at?: string;
}

/**
 * Adds a price to a product of an organization (after its other prices).
 * @param organizationId the organization the price is declared in: it must be the product's
 * @returns the price; NOT_FOUND (product), INVALID (a product of another organization, the amounts, a currency other than the product's other prices', a seat-based price of a one-time product) or CONFLICT (id)
 * @see spec/openapi.yaml, schema Price
 */
export function createPrice(store: Store, organizationId: string, productId: string, input: PriceInput): Result<PriceRecord, RecordRefusal> {
  const product = typeof productId === 'string' ? store.products.get(productId.toLowerCase()) : undefined;
  if (!product) return refuse('NOT_FOUND', 'product_id', `Product ${productId} not found.`);
  if (product.organization_id !== organizationId) {
    const named = (id: string) => `${store.organizations.get(id)?.name ?? 'organization'} (${id})`;
    return refuse('INVALID', 'product_id', `Product ${product.id} (${product.name}) belongs to ${named(product.organization_id)}, not to ${named(organizationId)}: a price cannot be a price of another organization's product.`);
  }
  if (!(CREATABLE_PRICE_TYPES as readonly string[]).includes(input.amount_type)) return refuse('INVALID', 'amount_type', `amount_type must be one of ${CREATABLE_PRICE_TYPES.join(', ')}.`);
  const cents = (field: 'price_amount' | 'minimum_amount' | 'maximum_amount' | 'preset_amount', value: unknown) =>
    value === undefined || value === null || (Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 99_999_999) ? undefined : refuse('INVALID', field, `${field} must be a whole number of cents from 0 to 99999999.`);
  for (const field of ['price_amount', 'minimum_amount', 'maximum_amount', 'preset_amount'] as const) {
    const bad = cents(field, input[field]);
    if (bad) return bad;
  }
  if (input.amount_type === 'fixed' && input.price_amount === undefined) return refuse('INVALID', 'price_amount', 'A fixed price needs price_amount (cents; 0 for a free tier).');
  if (input.amount_type !== 'fixed' && input.price_amount !== undefined) return refuse('INVALID', 'price_amount', `A ${input.amount_type} price has no price_amount.`);
  if (input.amount_type !== 'custom' && (input.minimum_amount !== undefined || input.maximum_amount !== undefined || input.preset_amount !== undefined)) {
    return refuse('INVALID', 'minimum_amount', 'minimum_amount, maximum_amount and preset_amount belong to custom prices.');
  }
  if (input.amount_type === 'seat_based' && product.recurring_interval === null) return refuse('INVALID', 'amount_type', 'A seat_based price belongs to a recurring product.');
  const minimum = input.minimum_amount ?? 0;
  const maximum = input.maximum_amount ?? null;
  const preset = input.preset_amount ?? null;
  if (maximum !== null && maximum < minimum) return refuse('INVALID', 'maximum_amount', 'maximum_amount must not be below minimum_amount.');
  if (preset !== null && (preset < minimum || (maximum !== null && preset > maximum))) return refuse('INVALID', 'preset_amount', 'preset_amount must be from minimum_amount to maximum_amount.');
  const currency = input.price_currency ?? 'usd';
  if (typeof currency !== 'string' || !/^[a-z]{3}$/.test(currency)) return refuse('INVALID', 'price_currency', 'price_currency must be three lower-case letters (ISO 4217).');
  const other = product.price_ids.map((id) => store.prices.get(id)!).find((price) => price.price_currency !== currency);
  if (other) return refuse('INVALID', 'price_currency', `The product's other prices are in ${other.price_currency}: every price of a product has the same currency.`);
  const given = recordId(store, store.prices, input.id, 'price');
  if (!given.ok) return given;
  const created = input.created_at === undefined ? ok(product.created_at) : stamp(store, input.created_at, 'created_at');
  if (!created.ok) return created;
  const price: PriceRecord = {
    id: given.value,
    organization_id: product.organization_id,
    created_at: created.value,
    modified_at: null,
    product_id: product.id,
    source: 'catalog',
    amount_type: input.amount_type as PriceRecord['amount_type'],
    price_currency: currency,
    tax_behavior: null,
    is_archived: input.is_archived ?? false,
  };
  if (input.amount_type === 'fixed') price.price_amount = input.price_amount!;
  if (input.amount_type === 'custom') Object.assign(price, { minimum_amount: minimum, maximum_amount: maximum, preset_amount: preset });
  store.prices.insert(price);
  store.products.update(product, { price_ids: [...product.price_ids, price.id] });
  return ok(price);
}

/** Billing reasons of an order. @see spec/openapi.yaml, schema Order (billing_reason) */
export const ORDER_BILLING_REASONS = ['purchase', 'subscription_create', 'subscription_cycle', 'subscription_update'] as const;

/** What {@link recordOrder} creates. */
export interface OrderInput {
  /** A UUID; default a new id. */
  id?: string;
  /** A live customer. */
  customer_id: string;
  /** A product of the customer's organization with prices; one item per price it charges. */
  product_id: string;
  /** The subscription the order bills: the same customer's subscription of the same product; a one-time product's order has none. */
  subscription_id?: string | null;
  /** Whether the order comes from a checkout (a new checkout id, and checkout.created first); default false. */
  checkout?: boolean;
  /** Seats, for a seat_based price (default 1 there). */
  seats?: number;
  /** One of {@link ORDER_BILLING_REASONS}; default purchase, or subscription_cycle for a subscription's order. */
  billing_reason?: string;
  /** Default pending; paid completes it at its creation instant. */
  status?: 'pending' | 'paid';
  /** Tax in basis points of the net amount (2000 = 20 %). */
  tax_basis_points: number;
  /** RFC 3339, at or before now; default now. */
  created_at?: string;
}

/**
 * Creates an order through the order machine: pending (checkout.created when from a checkout,
 * then order.created), then paid when asked (order.updated, order.paid), at its creation instant.
 * Its invoice is not generated.
 * @returns the order; NOT_FOUND (customer, product, subscription), INVALID (a product of another
 *   organization, a subscription of another customer or product, a one-time
 *   product's order naming a subscription, seats, billing reason, status, a date after now) or CONFLICT (id)
 * @see spec/rules.yaml orders.created_pending, orders.paid_transition_events; docs/server-behaviour.md (Control API: POST orders)
 */
export function recordOrder(ctx: MachineContext, input: OrderInput): Result<OrderRecord, RecordRefusal> {
  const { store } = ctx;
  const customer = typeof input.customer_id === 'string' ? store.customers.get(input.customer_id.toLowerCase()) : undefined;
  if (!customer || customer.deleted_at !== null) return refuse('NOT_FOUND', 'customer_id', `Customer ${input.customer_id} not found.`);
  const product = typeof input.product_id === 'string' ? store.products.get(input.product_id.toLowerCase()) : undefined;
  if (!product) return refuse('NOT_FOUND', 'product_id', `Product ${input.product_id} not found.`);
  if (product.organization_id !== customer.organization_id) return refuse('INVALID', 'product_id', 'The product and the customer belong to different organizations.');
  if (input.seats !== undefined && (!Number.isInteger(input.seats) || input.seats < 1)) return refuse('INVALID', 'seats', 'seats must be a positive integer.');
  const subscriptionId = input.subscription_id ?? null;
  if (subscriptionId !== null) {
    const subscription = store.subscriptions.get(subscriptionId.toLowerCase());
    if (!subscription) return refuse('NOT_FOUND', 'subscription_id', `Subscription ${subscriptionId} not found.`);
    if (product.recurring_interval === null) return refuse('INVALID', 'subscription_id', `Product ${product.id} (${product.name}) is a one-time product: its orders bill no subscription.`);
    if (subscription.customer_id !== customer.id || subscription.product_id !== product.id) {
      return refuse('INVALID', 'subscription_id', `Subscription ${subscription.id} is of another ${subscription.customer_id !== customer.id ? 'customer' : 'product'}: an order bills a subscription of its own customer and product.`);
    }
  }
  const reason = input.billing_reason ?? (subscriptionId === null ? 'purchase' : 'subscription_cycle');
  if (!(ORDER_BILLING_REASONS as readonly string[]).includes(reason)) return refuse('INVALID', 'billing_reason', `billing_reason must be one of ${ORDER_BILLING_REASONS.join(', ')}.`);
  if ((reason === 'purchase') !== (subscriptionId === null)) return refuse('INVALID', 'billing_reason', reason === 'purchase' ? 'A subscription\'s order is not a purchase.' : `A ${reason} order bills a subscription: name it.`);
  const status = input.status ?? 'pending';
  if (status !== 'pending' && status !== 'paid') return refuse('INVALID', 'status', 'status must be pending or paid.');
  const created = stamp(store, input.created_at, 'created_at');
  if (!created.ok) return created;
  const createdMs = Math.floor(parseTimestamp(created.value)! / 1000);
  if (createdMs > store.clock().getTime()) return refuse('INVALID', 'created_at', `created_at ${created.value} is after the clock's now (${nowTimestamp(store)}).`);
  let id: string;
  if (input.id === undefined) {
    id = newId(store);
  } else {
    const given = recordId(store, store.orders, input.id, 'order');
    if (!given.ok) return given;
    id = given.value;
  }
  const order = draftOrder(store, {
    id,
    itemIds: product.price_ids.map(() => newId(store)),
    product,
    customerId: customer.id,
    subscriptionId: subscriptionId === null ? null : subscriptionId.toLowerCase(),
    discount: null,
    checkoutId: input.checkout === true ? newId(store) : null,
    billingReason: reason,
    seats: input.seats ?? null,
    taxBasisPoints: input.tax_basis_points,
    createdAt: created.value,
    billingName: customer.billing_name ?? customer.name,
    billingAddress: customer.billing_address,
    invoiceNumber: nextInvoiceNumber(store, customer.organization_id),
  });
  // Made at its creation instant: a paid order's modified_at and events are dated then, not now.
  return ok(
    atInstant(store, createdMs, () => {
      insertOrder(ctx, order);
      if (status === 'paid') fireOrderTransition(ctx, order, 'complete');
      return order;
    }),
  );
}
