/**
 * The records of the reference server's store: one interface per stored resource (organizations,
 * products, prices, customers, subscriptions, orders, refunds, files, tokens, the event log's
 * entries ...) and the status and discriminator types they use. Timestamps are stored as ISO
 * strings with microseconds (see timestamps.ts); references between records are ids, resolved at
 * serialization. The collections that hold them are in collection.ts, the store in store.ts.
 * @see docs/design.md (Reference server)
 */

/** Values of a metadata object. @see spec/openapi.yaml products:get (Metadata) */
export type MetadataValue = string | number | boolean;
/** A metadata object. @see spec/openapi.yaml products:get (Metadata) */
export type Metadata = Record<string, MetadataValue>;
/** Billing and trial intervals. @see spec/openapi.yaml products:get (Interval) */
export type Interval = 'day' | 'week' | 'month' | 'year';
/** Product visibility. @see spec/openapi.yaml products:get (ProductVisibility) */
export type ProductVisibility = 'draft' | 'private' | 'public';
/** Price amount types (discriminator). @see spec/openapi.yaml products:get (PriceAmountType) */
export type PriceAmountType = 'fixed' | 'custom' | 'seat_based' | 'unit_based' | 'metered_unit' | 'metered_tiers';
/** Benefit types (discriminator). @see spec/openapi.yaml products:get (BenefitType) */
export type BenefitType =
  | 'custom'
  | 'discord'
  | 'downloadables'
  | 'feature_flag'
  | 'github_repository'
  | 'license_keys'
  | 'meter_credit'
  | 'slack_shared_channel';
/** Subscription statuses. @see spec/openapi.yaml subscriptions:get (SubscriptionStatus) */
export type SubscriptionStatus =
  | 'incomplete'
  | 'incomplete_expired'
  | 'trialing'
  | 'active'
  | 'past_due'
  | 'canceled'
  | 'unpaid'
  | 'paused';
/** Reasons a customer gives for canceling. @see spec/openapi.yaml subscriptions:get (CustomerCancellationReason) */
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

/** A price; legacy fields are present only on legacy and on fixed/custom prices. @see spec/openapi.yaml products:get (Price) */
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

/** A benefit. @see spec/openapi.yaml products:get (Benefit) */
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

/** A product media file. @see spec/openapi.yaml products:get (ProductMediaFile) */
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

/** A text custom field. @see spec/openapi.yaml products:get (AttachedCustomField and CustomField) */
export interface CustomFieldRecord extends BaseRecord {
  metadata: Metadata;
  type: string;
  slug: string;
  name: string;
  properties: Record<string, unknown>;
}

/** A product; prices, benefits, medias and custom fields are referenced by id, in display order. @see spec/openapi.yaml products:get (Product) */
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

/** A customer. @see spec/openapi.yaml customers:get (Customer) */
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

/** A discount; `product_ids` (internal) restricts it to products and makes them non-deletable. @see spec/openapi.yaml subscriptions:get (Discount) */
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

/** A meter. @see spec/openapi.yaml subscriptions:get (Meter) */
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

/** A subscription's usage of one meter. @see spec/openapi.yaml subscriptions:get (SubscriptionMeter) */
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

/** A subscription; customer, product, discount and prices are referenced by id. @see spec/openapi.yaml subscriptions:get (Subscription) */
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
  /** Present on a subscription the test clock drives (one the control API created); absent on the demo data's, which stay as seeded. Not shown by the API. @see docs/lifecycle.md */
  test_clock?: SubscriptionClockRecord;
}

/** What the test clock keeps of a subscription it drives. @see docs/lifecycle.md; server/clock/lifecycle.ts */
export interface SubscriptionClockRecord {
  /** The instant billing periods are counted from (the first period's start: the start, or the trial's end), a stored timestamp. */
  anchor: string;
  /** Billing periods begun since the anchor (0: the first); -1 when the anchor is the current period's end (a subscription placed with only its period's end given, server/clock/lifecycle.ts placeSubscription). */
  cycle: number;
  /** Whether charges fail (set through the control API); a failed charge makes the subscription past_due. */
  fail_payments: boolean;
  /** The open dunning of a failed charge, or null: the unpaid order, failed attempts so far and when the next attempt is (stored timestamp). */
  dunning: { order_id: string; attempts: number; next_attempt_at: string } | null;
}

/** A postal address. @see spec/openapi.yaml customers:get (Address, the customer's billing_address) */
export interface AddressRecord {
  country: string;
  line1: string | null;
  line2: string | null;
  postal_code: string | null;
  city: string | null;
  state: string | null;
}

/** Order statuses. @see spec/rules.yaml orders.created_pending */
export type OrderStatus = 'pending' | 'paid';

/** One line of an order; `amount` and `tax_amount` in cents. @see spec/openapi.yaml orders:get (OrderItem) */
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
 * @see spec/openapi.yaml orders:get (Order); spec/rules.yaml orders.invoice_generated_explicitly
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

/** A dispute of a payment; amounts in cents. @see spec/openapi.yaml refunds:list (Dispute) */
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

/** A refund, with the dispute it settles if any; amounts in cents. @see spec/openapi.yaml refunds:list (Refund) */
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

/** A saved payment method; is_default is derived from the customer's default_payment_method_id. @see spec/openapi.yaml customers:list_payment_methods (CustomerPaymentMethod) */
export interface PaymentMethodRecord extends BaseRecord {
  customer_id: string;
  processor: string;
  type: string;
  method_metadata: { brand: string | null; last4: string | null; exp_month: number | null; exp_year: number | null; wallet: string | null };
}

/** License key statuses: granted until revoked. @see spec/openapi.yaml customer_portal:license_keys:list (LicenseKey) */
export type LicenseKeyStatus = 'granted' | 'revoked';

/** A license key granted to a customer by a license_keys benefit; `key` is the secret value. @see spec/openapi.yaml customer_portal:license_keys:list (LicenseKey); spec/rules.yaml license_keys.display_key_masked */
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

/** A member of a customer (a person using a seat). @see spec/openapi.yaml customer_seats:claim (Member) */
export interface MemberRecord extends BaseRecord {
  customer_id: string;
  email: string;
  name: string | null;
  external_id: string | null;
  role: string;
}

/** Seat statuses. @see spec/openapi.yaml customer_seats:claim (CustomerSeat) */
export type SeatStatus = 'pending' | 'claimed' | 'revoked';

/**
 * A seat of a seat-based subscription. Only the sha256 (hex) of its invitation token is kept, and
 * only while the invitation can still be claimed.
 * @see spec/openapi.yaml customer_seats:claim (CustomerSeat); spec/rules.yaml seats.invitation_single_use and seats.invitation_expires
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

/** Services a file belongs to (discriminator). @see spec/openapi.yaml files:list (FileService) */
export type FileService = 'downloadable' | 'product_media' | 'organization_avatar' | 'support_case_attachment';

/** A file of the files endpoints; product media files are the same records as {@link MediaRecord}s. @see spec/openapi.yaml files:list (File) */
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

/** A multipart upload of a file, from files:create until its last part arrives. @see spec/openapi.yaml files:create (FileUpload); spec/rules.yaml files.upload_completes */
export interface UploadRecord extends BaseRecord {
  file_id: string;
  path: string;
  /** Expected sha256 of the whole file, base64, when the create body gave one. */
  checksum_sha256_base64: string | null;
  parts: UploadPartRecord[];
}

/** A webhook endpoint; `secret` is its signing secret (`whsec_` + a token), whose UTF-8 bytes key the signatures (server/webhooks/signature.ts). @see spec/openapi.yaml webhooks:list_endpoints (WebhookEndpoint) */
export interface WebhookEndpointRecord extends BaseRecord {
  url: string;
  format: string;
  secret: string;
  events: string[];
  enabled: boolean;
  name: string | null;
}

/** An OAuth 2.0 client (client_secret_post); only the sha256 of its secret is kept. @see spec/rules.yaml auth.client_credentials */
export interface OAuthClientRecord extends BaseRecord {
  client_id: string;
  secret_digest: Buffer;
  client_name: string;
  redirect_uris: string[];
  /** Space-separated scopes the client may be granted. */
  scope: string;
}

/** Who an OAuth grant acts for. @see RFC 7662 section 2.2 (sub); spec/rules.yaml oauth2.introspection */
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

/** One entry of the event log. @see spec/openapi.yaml webhooks:order_created (Event); docs/server-behaviour.md (Control API: GET events) */
export interface EventRecord {
  id: string;
  /** Event kind (`order.paid`). */
  type: string;
  /** When it happened, stored timestamp format. */
  timestamp: string;
  /** The resource as serialized when the event happened. */
  data: Record<string, unknown>;
}

/** One attempt to deliver an event to a webhook endpoint (kept for the webhook delivery log). @see docs/server-behaviour.md (Webhooks) */
export interface WebhookDeliveryRecord {
  id: string;
  event_id: string;
  endpoint_id: string;
  created_at: string;
  attempt: number;
  status: 'pending' | 'succeeded' | 'failed';
  response_status: number | null;
}

/** Kinds of bearer token. @see spec/rules.yaml auth.bearer_tokens_management, auth.oidc_product_benefits and auth.customer_portal_sessions */
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
