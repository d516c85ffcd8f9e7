/**
 * The fault catalogue: known defects the reference server can switch on (`serve --fault ID`) to
 * prove that the harness finds each one and that its suites are not vacuous.
 * @see docs/design.md (Reference server: faults)
 */
import { HarnessError } from '../core/errors.js';
import type { ApiVersion, LoadedSpec, Operation } from '../core/spec/load.js';
import { WRITE_FAULTS, type WriteFaultId } from './write-faults.js';

/** One fault: what breaks, which API rule it breaks and the harness check expected to catch it. */
export interface FaultDefinition {
  /** snake_case, stable. */
  id: string;
  /** The rule of the API description that the fault breaks, by section. */
  rule: string;
  description: string;
  /**
   * The harness check id that must report the fault; `test:<file>` when the fault is of the server
   * itself rather than of its answers (a write lost on restart) and that test of the project
   * catches it; or `pending:#N` when only a check or suite of a later issue can. The fault
   * catalogue test runs the harness for check ids only.
   */
  detectedBy: string;
  /**
   * What the fault can change, so that the fault catalogue test can run several faults in one full
   * run without one's failures passing for another's: operationIds of the bundled document, or
   * groups of them: `@all`, `@lists` (paginated lists), `@path` (operations naming a resource in
   * their path), `@writes` (operations that change state), `@orders` (the organization's and the
   * customer portal's order operations), `@portal` (customer portal operations), `@products`
   * (operations whose answers hold products: the product operations and the subscription list),
   * `@webhooks` (the document's webhooks).
   */
  touches: readonly string[];
  /**
   * The API version whose serialization the fault changes, when it shows in one version only
   * (the fault catalogue test runs the harness against that version); default every version.
   */
  apiVersion?: ApiVersion;
}

/** The faults of reads, auth and state, each planted where its behaviour lives. */
const BASE_FAULTS = [
  {
    id: 'limit_unbounded',
    rule: 'Limits: page size maximum 100',
    description: 'A limit above 100 is honoured: no 422, and more than 100 items come back.',
    detectedBy: 'pagination_limit_respected',
    touches: ['@lists'],
  },
  {
    id: 'total_count_off_by_one',
    rule: 'Conventions: paginated list response (total_count, max_page)',
    description: 'pagination.total_count is one higher than the number of matching items; max_page is computed from it.',
    detectedBy: 'pagination_counts_consistent',
    touches: ['@lists'],
  },
  {
    id: 'scopes_ignored',
    rule: 'Authentication: each endpoint lists the scopes that suffice',
    description: 'A valid token without any of the operation\'s scopes is served 200 instead of 403.',
    detectedBy: 'insufficient_scope_rejected',
    touches: ['@all'],
  },
  {
    id: 'missing_auth_accepted',
    rule: 'Errors: 401 for missing credentials',
    description: 'A request without an Authorization header is served as the admin token of the first organization.',
    detectedBy: 'missing_auth_rejected',
    touches: ['@all'],
  },
  {
    id: 'sorting_ignored',
    rule: 'Endpoints, List filters: sorting applies in order',
    description: 'The sorting parameter is ignored; lists always come in their default order.',
    detectedBy: 'sorting_respected',
    touches: ['@lists'],
  },
  {
    id: 'filter_ignored',
    rule: 'Endpoints, List filters',
    description: 'The status filter of subscriptions and the visibility filter of products are ignored.',
    detectedBy: 'filter_respected',
    touches: ['subscriptions:list', 'products:list'],
  },
  {
    id: 'server_error_on_bad_limit',
    rule: 'Errors: 422 when the request fails validation',
    description: 'A limit that is not an integer (limit=abc) crashes the handler with a 500.',
    detectedBy: 'not_a_server_error',
    touches: ['@lists'],
  },
  {
    id: 'wrong_content_type',
    rule: 'Endpoints: request and response bodies are JSON',
    description: 'List responses are served as text/plain (the body is still JSON text).',
    detectedBy: 'content_type_conformance',
    touches: ['@lists'],
  },
  {
    id: 'missing_field',
    rule: 'Product: is_archived (boolean)',
    description: 'Products of the product list come without is_archived.',
    detectedBy: 'response_schema_conformance',
    touches: ['@products'],
  },
  {
    id: 'pages_overlap',
    rule: 'Limits: pages do not overlap and together hold every item once',
    description: 'No id tie-breaker, and ties are ordered differently on every request, so consecutive pages overlap or skip items.',
    detectedBy: 'pages_disjoint_and_complete',
    touches: ['@lists'],
  },
  {
    id: 'undocumented_status',
    rule: 'Endpoints: 200 paginated list',
    description: 'An empty list is answered 204 No Content instead of 200 with no items.',
    detectedBy: 'status_code_conformance',
    touches: ['@lists'],
  },
  {
    id: 'tenant_leak',
    rule: 'Tenancy: a resource of another organization is answered like a missing one (404 ResourceNotFound)',
    description: 'Resources named by id in the path (products, customers, orders) are found in any organization, so another organization\'s token is served them.',
    detectedBy: 'tenant_isolation',
    touches: ['@path'],
  },
  {
    id: 'portal_isolation_broken',
    rule: 'Authentication: a customer session authenticates one customer of an organization',
    description: 'Customer portal operations show and change the license keys and orders of every customer of the organization, not only the session\'s customer.',
    detectedBy: 'portal_isolation',
    touches: ['@portal'],
  },
  {
    id: 'benefits_foreign_accepted',
    rule: 'Endpoints: each benefit must belong to the same organization as the product',
    description: 'products:update_benefits accepts benefits of another organization instead of answering 422.',
    detectedBy: 'product_benefits_same_organization',
    touches: ['products:update_benefits'],
  },
  {
    id: 'invitation_token_reusable',
    rule: 'Endpoints: the invitation_token is the credential of the seat claim',
    description: 'An invitation token stays valid after its seat is claimed, so the seat can be claimed again.',
    detectedBy: 'seat_claim_single_use',
    touches: ['customer_seats:claim'],
  },
  {
    id: 'no_cascade_on_delete',
    rule: 'Endpoints: deleting a customer cancels its active subscriptions immediately and revokes its active benefits',
    description: 'customers:delete_external deletes the customer but leaves its subscriptions active and its license keys granted.',
    detectedBy: 'customer_deletion_cascades',
    touches: ['customers:delete_external', 'subscriptions:list', 'customer_portal:license_keys:list'],
  },
  {
    id: 'invoice_generated_implicitly',
    rule: 'Versioning 2025-06-02: invoices must be generated explicitly',
    description: 'Every order has an invoice without a call to generate it: get_invoice answers 200 right after the order is created.',
    detectedBy: 'invoice_only_after_generation',
    touches: ['@orders'],
  },
  {
    id: 'event_skipped',
    rule: 'States and transitions: pending to paid emits order.paid',
    description: 'Completing an order emits order.updated but not order.paid.',
    detectedBy: 'order_paid_transition',
    touches: ['@webhooks'],
  },
  {
    id: 'refund_event_skipped',
    rule: 'States and transitions: a refund, partial or full, emits order.updated',
    description: 'Refunding an order records the refund but emits no order.updated (order.refunded still comes).',
    detectedBy: 'refund_emits_order_updated',
    touches: ['@webhooks', 'refunds:list'],
  },
  {
    id: 'renewal_without_order',
    rule: 'Test clock: a period end renews the subscription with a new order (billing_reason subscription_cycle) (docs/lifecycle.md)',
    description: 'A subscription the test clock renews gets its new period, but no order is created for it (and no order event comes).',
    detectedBy: 'subscription_renewal_order',
    touches: ['orders:get'],
  },
  {
    id: 'renewal_period_unchanged',
    rule: 'Test clock: a renewal moves current_period_start and current_period_end to the next period (docs/lifecycle.md)',
    description: 'A renewal charges the next period, but the subscription keeps showing the old period\'s dates.',
    detectedBy: 'subscription_period_renews',
    touches: ['subscriptions:get'],
  },
  {
    id: 'cancel_at_period_end_ignored',
    rule: 'Test clock: cancel_at_period_end ends the subscription at its period end (docs/lifecycle.md)',
    description: 'A subscription set to cancel at period end is renewed instead: it never becomes canceled and gets no ended_at.',
    detectedBy: 'subscription_cancel_at_period_end',
    touches: ['subscriptions:list'],
  },
  {
    id: 'order_paid_before_created',
    rule: 'Events: order.created comes before order.paid (spec/rules.yaml events.order_created_before_paid)',
    description: 'The order of a renewal is announced order.paid first, then order.created and order.updated.',
    detectedBy: 'renewal_order_events_ordered',
    touches: ['webhooks:order_created'],
  },
  {
    id: 'introspect_unknown_active',
    rule: 'Authentication: introspection tells whether a token is active (RFC 7662 section 2.2)',
    description: 'Introspecting an unknown token answers active true with made-up claims.',
    detectedBy: 'introspection_unknown_inactive',
    touches: ['oauth2:introspect'],
  },
  {
    id: 'oauth_code_reusable',
    rule: 'RFC 6749 section 4.1.2: an authorization code is used once',
    description: 'An authorization code can be exchanged for tokens again after its first use.',
    detectedBy: 'oauth_code_single_use',
    touches: ['oauth2:token'],
  },
  {
    id: 'upload_checksum_ignored',
    rule: 'Create file body: a part may carry checksum_sha256_base64',
    description: 'A part PUT whose bytes do not match the part\'s sha256 is accepted, and the file completes with the wrong content.',
    detectedBy: 'upload_checksum_enforced',
    touches: ['files:create', 'files:list'],
  },
  {
    id: 'receipt_5xx',
    rule: 'Endpoints: GET /v1/orders/{id}/receipt answers 200 with a presigned URL',
    description: 'The receipt of an order crashes the handler with a 500.',
    detectedBy: 'not_a_server_error',
    touches: ['orders:get_receipt', 'customer_portal:orders:get_receipt'],
  },
  {
    id: 'error_body_wrong',
    rule: 'Errors: 401 carries {error: Unauthorized, detail}',
    description: '401 answers carry only detail, without the error field.',
    detectedBy: 'missing_auth_rejected',
    touches: ['@all'],
  },
  {
    id: 'rate_limit_ignored',
    rule: 'Limits: 100 requests per second per IP address',
    description: 'The rate limit is not enforced: a burst far above 100 requests per second from one address never gets a 429.',
    detectedBy: 'rate_limit_enforced',
    touches: ['products:list'],
  },
  {
    id: 'retry_after_malformed',
    rule: 'Limits: 100 requests per second per IP address (RFC 9110 section 10.2.3: Retry-After is delay-seconds or an HTTP-date)',
    description: 'The 429 of an exceeded rate limit carries Retry-After: "1 seconds", neither delay-seconds nor an HTTP-date.',
    detectedBy: 'rate_limit_enforced',
    touches: ['products:list'],
  },
  {
    id: 'date_header_malformed',
    rule: 'What the service does: an HTTP API (RFC 9110 section 6.6.1: Date is an IMF-fixdate)',
    description: 'Every response carries its Date header as an ISO 8601 timestamp (2026-11-22T10:00:00.000Z) instead of an IMF-fixdate (Sun, 22 Nov 2026 10:00:00 GMT).',
    detectedBy: 'response_headers_conformance',
    touches: ['@all'],
  },
  {
    id: 'webhook_unsigned',
    rule: 'Events: deliveries are signed (Standard Webhooks webhook-signature header)',
    description: 'Webhook deliveries carry webhook-id and webhook-timestamp but no webhook-signature.',
    detectedBy: 'webhook_signed',
    touches: ['@webhooks'],
  },
  {
    id: 'webhook_wrong_signature',
    rule: 'Events: deliveries are signed with the endpoint\'s secret (Standard Webhooks)',
    description: 'Webhook deliveries are signed with a key other than the endpoint\'s secret, so verification with the secret fails.',
    detectedBy: 'webhook_signed',
    touches: ['@webhooks'],
  },
  {
    id: 'webhook_decoded_key',
    rule: 'Events: deliveries are signed as the platform signs them, keyed with the UTF-8 bytes of the endpoint\'s secret',
    description: 'Webhook deliveries are signed with the base64-decoded part of the secret after whsec_ (the Standard Webhooks libraries\' default reading), which only the fallback of @polar-sh/sdk 1.x accepts.',
    detectedBy: 'webhook_signed',
    touches: ['@webhooks'],
  },
  {
    id: 'webhook_test_clock_timestamp',
    rule: 'Events: webhook-timestamp is the wall-clock second of the send, whatever the test clock says',
    description: 'Webhook deliveries are stamped and signed with the test clock\'s time, so once the clock is advanced every verifier\'s 5-minute tolerance rejects them.',
    detectedBy: 'webhook_signed',
    touches: ['@webhooks'],
  },
  {
    id: 'webhook_disabled_delivered',
    rule: 'Events: only enabled webhook endpoints receive events',
    description: 'Disabled webhook endpoints receive the events they subscribe to, as if they were enabled.',
    detectedBy: 'webhook_subscribed_only',
    touches: ['@webhooks'],
  },
  {
    id: 'timestamps_without_fraction',
    rule: 'Versioning: timestamps of 2026-10 carry microseconds',
    description: 'In API version 2026-10, every timestamp is answered in whole seconds, without its microseconds (as version 2026-04 answers it).',
    detectedBy: 'timestamp_precision_of_version',
    touches: ['@all'],
    apiVersion: '2026-10',
  },
  {
    id: 'is_deletable_in_2026_04',
    rule: 'Versioning: is_deletable is a field of 2026-10 products; 2026-04 products do not carry it',
    description: 'In API version 2026-04, products (listed, answered by the benefits update, embedded in subscriptions) carry is_deletable as in 2026-10.',
    detectedBy: 'version_fields',
    touches: ['@products'],
    apiVersion: '2026-04',
  },
  {
    id: 'write_scope_refused',
    rule: 'Authentication: where an endpoint lists a read and a write scope, either suffices',
    description: 'An operation that lists a read scope serves only tokens that hold it: a token with the write scope alone gets 403.',
    detectedBy: 'write_scope_accepted',
    touches: ['@all'],
  },
  {
    id: 'list_leaks_other_org',
    rule: 'Tenancy: every record belongs to an organization; a list holds only the caller\'s',
    description: 'Lists ignore the caller\'s organizations: products, subscriptions, files, refunds and webhook endpoints of every organization are listed to any token.',
    detectedBy: 'tenant_isolation_lists',
    touches: ['@lists'],
  },
  {
    id: 'not_found_error_value_wrong',
    rule: 'Errors: 404 carries {error: ResourceNotFound, detail}',
    description: 'A 404 of an operation (a product, customer or order that does not exist) carries error "NotFound" instead of "ResourceNotFound".',
    detectedBy: 'not_found_error_body',
    touches: ['@path'],
  },
  {
    id: 'pat_refused',
    rule: 'Authentication: pat (personal access token) accepted on management endpoints',
    description: 'Personal access tokens are refused with 403 on every operation, as if no operation accepted them.',
    detectedBy: 'pat_token_accepted',
    touches: ['@all'],
  },
  {
    id: 'member_session_refused',
    rule: 'Authentication: member_session accepted on customer portal endpoints',
    description: 'Member session tokens are refused with 403 on the customer portal operations.',
    detectedBy: 'member_session_acts_for_customer',
    touches: ['@portal'],
  },
  {
    id: 'timestamps_not_utc',
    rule: 'Conventions: timestamps are ISO 8601 date-times in UTC',
    description: 'Every timestamp is answered in local time at +02:00 (the same instant, 2026-03-01T12:00:00.123456+02:00 for 10:00 UTC).',
    detectedBy: 'timestamps_utc',
    touches: ['@all'],
  },
  {
    id: 'embedded_customer_mismatch',
    rule: 'Subscription: customer (Customer) is the one customer_id names',
    description: 'Every subscription embeds the first customer of its organization, whatever its customer_id names.',
    detectedBy: 'embedded_references_consistent',
    touches: ['subscriptions:list'],
  },
  {
    id: 'one_time_interval_count',
    rule: 'Product: recurring_interval_count is null for one-time products',
    description: 'One-time products (recurring_interval null) carry recurring_interval_count 1.',
    detectedBy: 'product_recurring_consistent',
    touches: ['@products'],
  },
  {
    id: 'meter_interval_count_without_cycle',
    rule: 'Product: meter_interval_count is null when no meter cycle is set',
    description: 'Products without a meter cycle (meter_interval null) carry meter_interval_count 1.',
    detectedBy: 'product_meter_interval_count_null',
    touches: ['@products'],
  },
  {
    id: 'referenced_product_deletable',
    rule: 'Product: is_deletable is false when the product is referenced by an order, subscription, trial or discount',
    description: 'is_deletable is true on every product, referenced or not (2026-10, where products carry it).',
    detectedBy: 'referenced_product_not_deletable',
    touches: ['@products'],
    apiVersion: '2026-10',
  },
  {
    id: 'subscription_product_one_time',
    rule: 'What the service does: a purchase of a recurring product leads to a subscription',
    description: 'Subscriptions embed their product as a one-time purchase: is_recurring false, recurring_interval and recurring_interval_count null.',
    detectedBy: 'subscription_product_recurring',
    touches: ['subscriptions:list'],
  },
  {
    id: 'display_key_unmasked',
    rule: 'License key (customer portal): display_key is the masked form of the key',
    description: 'License keys carry the whole key as their display_key.',
    detectedBy: 'license_key_display_key_masked',
    touches: ['customer_portal:license_keys:list'],
  },
  {
    id: 'payment_methods_of_organization',
    rule: 'Endpoints: GET /v1/customers/{id}/payment-methods lists the payment methods of the customer in the path',
    description: 'The payment methods of a customer are those of every customer of its organization.',
    detectedBy: 'payment_methods_of_customer',
    touches: ['customers:list_payment_methods'],
  },
  {
    id: 'cross_tenant_write',
    rule: 'Tenancy (spec/rules.yaml auth.tenant_isolation): a resource of another organization is answered like a missing one',
    description: 'A request that changes state finds the records of every organization: another organization\'s token can update an order, generate its invoice and replace a product\'s benefits (reads stay isolated).',
    detectedBy: 'tenant_isolation',
    touches: ['@writes'],
  },
  {
    id: 'pat_refused_on_writes',
    rule: 'Authentication: pat accepted on management endpoints',
    description: 'A personal access token is refused (403) on every operation that changes state; reads still accept it.',
    detectedBy: 'pat_token_accepted',
    touches: ['@writes'],
  },
  {
    id: 'member_session_refused_on_writes',
    rule: 'Authentication: member_session on customer portal endpoints',
    description: 'A member session is refused (403) on the customer portal\'s operations that change state; portal reads still accept it.',
    detectedBy: 'member_session_acts_for_customer',
    touches: ['customer_portal:orders:update', 'customer_portal:orders:generate_invoice'],
  },
  {
    id: 'benefits_update_not_persisted',
    rule: 'Endpoints: POST /v1/products/{id}/benefits replaces the set of benefits',
    description: 'Replacing a product\'s benefits answers 200 with the product showing the new set, but nothing is stored.',
    detectedBy: 'write_effect_visible',
    touches: ['products:update_benefits'],
  },
  {
    id: 'write_not_persisted',
    rule: 'docs/reference-server.md, State file: every acknowledged write survives a restart',
    description: 'With --state, changes of orders (a billing update, a generated invoice, a new or paid order) are answered but never written to the journal: gone after a restart.',
    detectedBy: 'test:test/server/persistence-every-write.test.ts',
    touches: ['@orders'],
  },
  {
    id: 'upload_part_ranges_shifted',
    rule: 'Create file body: the response carries upload.parts for each part (the parts requested)',
    description: 'POST /v1/files/ answers each upload part with chunk_end one byte past the one requested (the parts are stored as requested).',
    detectedBy: 'upload_parts_match_request',
    touches: ['files:create'],
  },
  {
    id: 'upload_links_expired',
    rule: 'Create file body: each part has a url and the expires_at until which it can be used',
    description: 'POST /v1/files/ answers each upload part with an expires_at two hours before the answer (the link itself works for an hour).',
    detectedBy: 'upload_links_unexpired',
    touches: ['files:create'],
  },
  {
    id: 'order_paid_flag_stale',
    rule: 'Versioning: Order.paid added (true once the order is paid)',
    description: 'The order operations answer paid false for paid orders (the event payloads and the control API show them right).',
    detectedBy: 'order_fields_consistent',
    touches: ['@orders'],
  },
  {
    id: 'order_amount_not_net',
    rule: 'Versioning: net_amount replaces the deprecated amount, same value',
    description: 'The order operations answer the deprecated amount with the total (taxes included), not the net amount.',
    detectedBy: 'order_fields_consistent',
    touches: ['@orders'],
  },
  {
    id: 'introspection_iat_in_milliseconds',
    rule: 'Authentication: introspection (RFC 7662 section 2.2: iat and exp are NumericDate seconds)',
    description: 'Introspection answers iat in milliseconds since the epoch, exp in seconds.',
    detectedBy: 'introspection_times_in_seconds',
    touches: ['oauth2:introspect'],
  },
  {
    id: 'token_expires_in_milliseconds',
    rule: 'Endpoints: POST /v1/oauth2/token answers expires_in (integer, seconds)',
    description: 'The token response gives expires_in in milliseconds (3600000 for a token that lives an hour).',
    detectedBy: 'token_lifetime_matches_introspection',
    touches: ['oauth2:token'],
  },
  {
    id: 'modified_before_created',
    rule: 'Conventions: created_at, modified_at (a record is modified after it is created)',
    description: 'Products answer a modified_at one day before their created_at (when they have one).',
    detectedBy: 'timestamps_ordered',
    touches: ['@products'],
  },
  {
    id: 'claim_answer_seat_pending',
    rule: 'Endpoints: POST /v1/customer-seats/claim answers the seat (now claimed)',
    description: 'Claiming a seat answers the seat with status pending, although it is stored claimed (claimed_at set).',
    detectedBy: 'seat_claim_answer',
    touches: ['customer_seats:claim'],
  },
  {
    id: 'billing_address_ignored',
    rule: 'Endpoints: PATCH /v1/orders/{id} changes billing name and address',
    description: 'Updating an order\'s billing details stores and answers the billing name and leaves the address as it was.',
    detectedBy: 'write_answer_reflects_request',
    touches: ['orders:update', 'customer_portal:orders:update'],
  },
  {
    id: 'modified_at_not_stored',
    rule: 'docs/design.md: a write\'s answer is the record as stored (the next read shows it)',
    description: 'Updating an order\'s billing details answers a new modified_at but stores the old one.',
    detectedBy: 'write_read_consistent',
    touches: ['orders:update', 'customer_portal:orders:update'],
  },
  {
    id: 'list_depends_on_page_size',
    rule: 'Limits and Conventions: total_count counts all matching items, whatever the page size',
    description: 'Listing products 50 or more at a time leaves out archived products unless is_archived is given (smaller pages count them).',
    detectedBy: 'pagination_total_stable',
    touches: ['products:list'],
  },
  {
    id: 'customer_read_flaps',
    rule: 'docs/design.md: a record read twice without a change reads the same (RFC 9110 section 9.2.1)',
    description: 'Every second read of a customer answers its name as null (a stale replica), with the same modified_at.',
    detectedBy: 'record_read_stable',
    touches: ['customers:get'],
  },
] as const satisfies readonly FaultDefinition[];

/** The id of a fault of the reference server. */
export type FaultId = (typeof BASE_FAULTS)[number]['id'] | WriteFaultId;

/**
 * Every fault the reference server has: those of reads, auth and state, then the write-side faults
 * (server/write-faults.ts), five kinds on each of eight operations that change state.
 */
export const FAULTS: readonly (FaultDefinition & { id: FaultId })[] = [...BASE_FAULTS, ...WRITE_FAULTS];

/** The faults switched on in one server. */
export type FaultSet = ReadonlySet<FaultId>;

const KNOWN = new Set<string>(FAULTS.map((fault) => fault.id));

/** Whether `id` names a fault of {@link FAULTS}. */
export function isFaultId(id: string): id is FaultId {
  return KNOWN.has(id);
}

/**
 * Checks fault ids against the catalogue.
 * @param ids fault ids as given on the command line or in options
 * @throws HarnessError CNF_ERR_FAULT_UNKNOWN naming the first unknown id and the known ones
 */
export function resolveFaults(ids: readonly string[]): FaultSet {
  for (const id of ids) {
    if (!isFaultId(id)) {
      throw new HarnessError('CNF_ERR_FAULT_UNKNOWN', `unknown fault "${id}"; known faults: ${[...KNOWN].join(', ')}`);
    }
  }
  return new Set(ids as FaultId[]);
}

/** The operations of the groups a fault's `touches` may name, in a document. */
const TOUCH_GROUPS: Readonly<Record<string, (operation: Operation) => boolean>> = {
  '@all': () => true,
  '@lists': (o) => o.paginated,
  '@path': (o) => o.parameters.some((p) => p.in === 'path'),
  '@writes': (o) => !['GET', 'HEAD', 'OPTIONS'].includes(o.method),
  '@orders': (o) => /^(customer_portal:)?orders:/.test(o.operationId),
  '@portal': (o) => o.operationId.startsWith('customer_portal:'),
  '@products': (o) => o.operationId.startsWith('products:') || o.operationId === 'subscriptions:list',
  '@webhooks': (o) => o.operationId.startsWith('webhooks:') && o.operationId !== 'webhooks:list_endpoints',
};

/**
 * The operationIds of a document that a fault can change ({@link FaultDefinition.touches} resolved).
 * @throws Error for a group the catalogue does not define (a bug of the catalogue)
 */
export function touchedOperations(spec: Pick<LoadedSpec, 'operations'>, fault: Pick<FaultDefinition, 'touches'>, webhookIds: readonly string[] = []): Set<string> {
  const touched = new Set<string>();
  const all = [...spec.operations.map((o) => ({ operation: o, id: o.operationId })), ...webhookIds.map((id) => ({ operation: { operationId: id, method: 'POST', paginated: false, parameters: [] } as unknown as Operation, id }))];
  for (const name of fault.touches) {
    if (!name.startsWith('@')) {
      touched.add(name);
      continue;
    }
    const inGroup = TOUCH_GROUPS[name];
    if (!inGroup) throw new Error(`fault catalogue: unknown group ${name}`);
    for (const { operation, id } of all) if (inGroup(operation)) touched.add(id);
  }
  return touched;
}

/**
 * Groups faults into runs of the fault catalogue test: faults of one API version whose touched
 * operations are pairwise disjoint share a run, so that a failure on a fault's own operations can
 * only be that fault's; a fault that touches everything runs alone. First fit, widest faults first.
 * @param defaultVersion the version of a run that names none (a fault without `apiVersion` runs in it)
 * @returns the batches, each a list of faults
 */
export function batchFaults<F extends Pick<FaultDefinition, 'touches' | 'apiVersion'>>(faults: readonly F[], touched: (fault: F) => ReadonlySet<string>, defaultVersion: ApiVersion = '2026-10'): F[][] {
  const batches: { version: string | undefined; faults: F[]; ops: Set<string> }[] = [];
  // First fit, widest faults first: those that touch most are hardest to place.
  const widest = faults.map((fault) => ({ fault, ops: touched(fault) })).sort((a, b) => b.ops.size - a.ops.size);
  for (const { fault, ops } of widest) {
    const version = fault.apiVersion ?? defaultVersion;
    const batch = batches.find((b) => b.version === version && [...ops].every((op) => !b.ops.has(op)));
    if (batch) {
      batch.faults.push(fault);
      for (const op of ops) batch.ops.add(op);
    } else {
      batches.push({ version, faults: [fault], ops: new Set(ops) });
    }
  }
  return batches.map((b) => b.faults);
}
