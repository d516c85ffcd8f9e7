/**
 * The one registry of the stateful engine: the scenarios (one vitest test each, in suites/stateful/)
 * and the model families (fast-check command sequences, in suites/model/), as data: the check id of
 * each cell (stable, never renamed; `--checks` selects by it), the operation it is reported under
 * (its row in the matrix), its conformance class and level, the rules of spec/rules.yaml it
 * enforces, and what it needs from the target (adapter capabilities, roles, fixtures). Kept free
 * of the scenarios' and commands' code, so that the CLI and `conformance run` select without
 * loading them. One selection rule for both: `selectStateful`.
 * @see docs/stateful.md; docs/architecture.md (Stateful engine)
 */
import type { AdapterCapability } from '../../core/adapter.js';
import type { ConformanceClass, RequirementLevel, Role, Severity } from '../../core/types.js';

/**
 * The entries of a registry a run selects: all, or those whose check id `checks` names (when it
 * names any), and whose operation `operations` names (when it names any).
 */
export function selectStateful<T extends { operationId: string }>(entries: readonly T[], checkIdOf: (entry: T) => string, checks?: readonly string[], operations?: readonly string[]): T[] {
  return entries.filter((entry) => (!checks?.length || checks.includes(checkIdOf(entry))) && (!operations?.length || operations.includes(entry.operationId)));
}

/**
 * The entry of a registry with this id. @throws Error for an unknown id (a bug in a suite)
 */
function lookup<T>(entries: readonly T[], idOf: (entry: T) => string, id: string, what: string): T {
  const found = entries.find((entry) => idOf(entry) === id);
  if (!found) throw new Error(`unknown ${what} ${id}`);
  return found;
}

// ---- scenarios

/** What every entry of the registry says, scenario or model family. */
export interface StatefulEntry {
  /** What it asserts, for people. */
  title: string;
  severity: Severity;
  /** The conformance class its verdicts count in (the reports' conformance statement). */
  conformanceClass: ConformanceClass;
  /** The requirement level of the rules it enforces (`--fail-on`). */
  level: RequirementLevel;
  /** The rule its cell is listed under, an id of spec/rules.yaml (a scenario's failures cite it; a family's failures cite their own). */
  rule: string;
  /** Every rule of spec/rules.yaml it enforces, `rule` first; each lists it in `enforced_by`. */
  enforces: string[];
  /** The operation its cell is reported under, the row of the matrix (webhook events use the document's webhook operationIds). */
  operationId: string;
  /** Adapter capabilities it cannot run without (a family's commands may use others when the adapter has them). */
  capabilities: AdapterCapability[];
  /** Roles whose credentials it sends. */
  roles: Role[];
  /** Target fixtures it needs. */
  fixtures: string[];
}

/** One stateful scenario of the registry. */
export interface Scenario extends StatefulEntry {
  /** snake_case, stable: the check id of its cell. */
  id: string;
  /** The file of suites/stateful/ that runs it (`orders` for suites/stateful/orders.suite.ts). */
  suite: string;
  /** Needs a target on this machine (a local webhook receiver must be reachable from it). */
  loopbackOnly?: boolean;
}

const ORDER_FLOW: AdapterCapability[] = ['createOrder', 'completeOrder'];
const WEBHOOK_FLOW: AdapterCapability[] = ['createWebhookEndpoint', 'setWebhookEndpointEnabled', 'createOrder', 'completeOrder'];
/** What the test clock's scenarios need: subscriptions the target's clock drives, the clock, its event log. @see docs/lifecycle.md */
const CLOCK_FLOW: AdapterCapability[] = ['createClockSubscription', 'advanceClock', 'listEvents'];

/** Every scenario, in report order. */
export const SCENARIOS: readonly Scenario[] = [
  {
    id: 'order_paid_transition',
    title: 'An order is created pending and becomes paid, with order.created, then order.updated and order.paid',
    severity: 'high',
    conformanceClass: 'state',
    level: 'must',
    rule: 'orders.paid_transition_events',
    enforces: ['orders.paid_transition_events', 'orders.created_pending', 'orders.paid_flag', 'events.order_created', 'events.order_created_before_paid', 'events.order_paid', 'deprecations.order_items', 'deprecations.order_net_amount'],
    operationId: 'webhooks:order_paid',
    suite: 'orders',
    capabilities: ['createOrder', 'completeOrder', 'listEvents'],
    roles: [],
    fixtures: [],
  },
  {
    id: 'invoice_only_after_generation',
    title: 'An order has no invoice until POST /v1/orders/{id}/invoice generates it',
    severity: 'high',
    conformanceClass: 'state',
    level: 'must',
    rule: 'orders.invoice_generated_explicitly',
    enforces: ['orders.invoice_generated_explicitly'],
    operationId: 'orders:get_invoice',
    suite: 'orders',
    capabilities: ORDER_FLOW,
    roles: ['admin'],
    fixtures: [],
  },
  {
    id: 'billing_details_until_invoice',
    title: 'Billing name and address change before the invoice is generated and are refused after',
    severity: 'medium',
    conformanceClass: 'state',
    level: 'must',
    rule: 'orders.billing_details_before_invoice',
    enforces: ['orders.billing_details_before_invoice'],
    operationId: 'orders:update',
    suite: 'orders',
    capabilities: ORDER_FLOW,
    roles: ['admin'],
    fixtures: [],
  },
  {
    id: 'portal_invoice_only_after_generation',
    title: 'On the customer portal, an order has no invoice until it is generated',
    severity: 'high',
    conformanceClass: 'state',
    level: 'must',
    rule: 'orders.invoice_generated_explicitly',
    enforces: ['orders.invoice_generated_explicitly'],
    operationId: 'customer_portal:orders:get_invoice',
    suite: 'orders',
    capabilities: ORDER_FLOW,
    roles: ['customer_session'],
    fixtures: ['customer_id'],
  },
  {
    id: 'portal_billing_details_until_invoice',
    title: 'On the customer portal, billing details change before the invoice is generated and are refused after',
    severity: 'medium',
    conformanceClass: 'state',
    level: 'must',
    rule: 'orders.billing_details_before_invoice',
    enforces: ['orders.billing_details_before_invoice'],
    operationId: 'customer_portal:orders:update',
    suite: 'orders',
    capabilities: ORDER_FLOW,
    roles: ['customer_session'],
    fixtures: ['customer_id'],
  },
  {
    id: 'portal_isolation',
    title: "A customer session finds only its own customer's orders (another customer's is 404) and license keys",
    severity: 'critical',
    conformanceClass: 'tenancy',
    level: 'must',
    rule: 'orders.customer_portal_own_orders',
    // The portal half of the list rule: the session's license key list holds only its customer's keys.
    enforces: ['orders.customer_portal_own_orders', 'auth.tenant_isolation.lists'],
    operationId: 'customer_portal:orders:update',
    suite: 'orders',
    capabilities: ['createOrder'],
    roles: ['customer_session', 'admin'],
    fixtures: ['customer_id'],
  },
  {
    id: 'refund_emits_order_updated',
    title: 'A partial refund of a paid order emits order.updated (event log, and a webhook delivery when a local receiver can get one) and is listed by GET /v1/refunds/',
    severity: 'high',
    conformanceClass: 'state',
    level: 'must',
    rule: 'orders.refund_emits_updated',
    enforces: ['orders.refund_emits_updated', 'events.order_updated', 'refunds.readable'],
    operationId: 'webhooks:order_updated',
    suite: 'refunds',
    capabilities: ['createOrder', 'completeOrder', 'refundOrder', 'listEvents'],
    roles: ['admin'],
    fixtures: [],
  },
  {
    id: 'receipt_fetchable',
    title: 'The receipt URL of a paid order is absolute and serves the receipt PDF without the API credentials',
    severity: 'medium',
    conformanceClass: 'state',
    level: 'must',
    rule: 'orders.receipt_presigned_url',
    enforces: ['orders.receipt_presigned_url'],
    operationId: 'orders:get_receipt',
    suite: 'orders',
    capabilities: [],
    roles: ['admin'],
    fixtures: ['order_id'],
  },
  {
    id: 'customer_deletion_cascades',
    title: 'Deleting a customer by external id cancels its active subscriptions immediately; it is then gone (404)',
    severity: 'critical',
    conformanceClass: 'state',
    level: 'must',
    rule: 'customers.delete_external.cancels_subscriptions',
    enforces: ['customers.delete_external.cancels_subscriptions', 'customers.delete_external'],
    operationId: 'customers:delete_external',
    suite: 'customers',
    capabilities: [],
    roles: ['admin'],
    fixtures: ['customer_external_id'],
  },
  {
    id: 'customer_deletion_anonymizes',
    title: "Deleting with anonymize=true replaces the customer's personal data",
    severity: 'high',
    conformanceClass: 'state',
    level: 'must',
    rule: 'customers.delete_external.anonymize',
    enforces: ['customers.delete_external.anonymize'],
    operationId: 'customers:delete_external',
    suite: 'customers',
    capabilities: [],
    roles: ['admin'],
    fixtures: ['customer_external_id'],
  },
  {
    id: 'customer_deletion_cascades_all_states',
    title: 'Deleting a customer cancels its active subscription at once; its subscriptions of every other status, seats and license keys are followed through the cascade',
    severity: 'high',
    conformanceClass: 'state',
    level: 'must',
    rule: 'customers.delete_external.cancels_subscriptions',
    enforces: ['customers.delete_external.cancels_subscriptions', 'customers.delete_external.revokes_benefits'],
    operationId: 'customers:delete_external',
    suite: 'customers',
    capabilities: ['createCustomer', 'createSubscription', 'createSeatInvitation', 'grantLicenseKey', 'listEvents'],
    roles: ['admin'],
    fixtures: [],
  },
  {
    id: 'seat_claim_single_use',
    title: 'An invitation token claims its seat once, without credentials, and opens a session of that customer only',
    severity: 'critical',
    conformanceClass: 'state',
    level: 'must',
    rule: 'seats.invitation_single_use',
    enforces: ['seats.invitation_single_use', 'seats.claim', 'auth.seat_claim_without_credentials'],
    operationId: 'customer_seats:claim',
    suite: 'seats',
    capabilities: ['createSeatInvitation'],
    roles: [],
    fixtures: [],
  },
  {
    id: 'seat_claim_expired',
    title: 'An invitation token past its expiry no longer claims its seat',
    severity: 'high',
    conformanceClass: 'state',
    level: 'must',
    rule: 'seats.invitation_expires',
    enforces: ['seats.invitation_expires'],
    operationId: 'customer_seats:claim',
    suite: 'seats',
    capabilities: ['createSeatInvitation', 'advanceClock'],
    roles: [],
    fixtures: [],
  },
  {
    id: 'product_benefits_replaced',
    title: "POST /v1/products/{id}/benefits replaces the product's benefits as a set, idempotently",
    severity: 'high',
    conformanceClass: 'state',
    level: 'must',
    rule: 'products.benefits_replaced',
    enforces: ['products.benefits_replaced'],
    operationId: 'products:update_benefits',
    suite: 'products',
    capabilities: [],
    roles: ['admin'],
    fixtures: ['product_id'],
  },
  {
    id: 'product_benefits_same_organization',
    title: "A benefit of another organization is refused and the product's benefits stay as they were",
    severity: 'critical',
    conformanceClass: 'state',
    level: 'must',
    rule: 'products.benefits_same_organization',
    enforces: ['products.benefits_same_organization'],
    operationId: 'products:update_benefits',
    suite: 'products',
    capabilities: [],
    roles: ['admin'],
    fixtures: ['product_id', 'other_organization_benefit_id'],
  },
  {
    id: 'file_upload_completes',
    title: 'A file whose every part is PUT to its URL becomes uploaded',
    severity: 'high',
    conformanceClass: 'state',
    level: 'must',
    rule: 'files.upload_completes',
    enforces: ['files.upload_completes'],
    operationId: 'files:create',
    suite: 'files',
    capabilities: [],
    roles: ['admin'],
    fixtures: [],
  },
  {
    id: 'upload_checksum_enforced',
    title: 'A part whose bytes do not match its sha256 is refused and the file is not uploaded',
    severity: 'high',
    conformanceClass: 'state',
    level: 'must',
    rule: 'files.part_checksum_verified',
    enforces: ['files.part_checksum_verified'],
    operationId: 'files:create',
    suite: 'files',
    capabilities: [],
    roles: ['admin'],
    fixtures: [],
  },
  {
    id: 'upload_part_expiry',
    title: 'A part URL past its expires_at is refused',
    severity: 'medium',
    conformanceClass: 'state',
    level: 'must',
    rule: 'files.part_url_expires',
    enforces: ['files.part_url_expires'],
    operationId: 'files:create',
    suite: 'files',
    capabilities: ['advanceClock'],
    roles: ['admin'],
    fixtures: [],
  },
  {
    id: 'oauth_code_single_use',
    title: 'An authorization code is exchanged for tokens once; the access token is accepted; a second exchange is invalid_grant',
    severity: 'critical',
    conformanceClass: 'auth',
    level: 'must',
    rule: 'oauth2.authorization_code_single_use',
    enforces: ['oauth2.authorization_code_single_use', 'oauth2.token_authorization_code', 'auth.oidc_product_benefits'],
    operationId: 'oauth2:token',
    suite: 'oauth2',
    capabilities: ['mintAuthorizationCode'],
    roles: ['oauth_client'],
    fixtures: [],
  },
  {
    id: 'oauth_redirect_uri_bound',
    title: 'An authorization code exchanged with another redirect_uri is invalid_grant',
    severity: 'high',
    conformanceClass: 'auth',
    level: 'must',
    rule: 'oauth2.redirect_uri_must_match',
    enforces: ['oauth2.redirect_uri_must_match'],
    operationId: 'oauth2:token',
    suite: 'oauth2',
    capabilities: ['mintAuthorizationCode'],
    roles: ['oauth_client'],
    fixtures: [],
  },
  {
    id: 'oauth_refresh_works',
    title: 'A refresh token is exchanged for a new, active access token',
    severity: 'medium',
    conformanceClass: 'auth',
    level: 'must',
    rule: 'oauth2.refresh_token_grant',
    enforces: ['oauth2.refresh_token_grant'],
    operationId: 'oauth2:token',
    suite: 'oauth2',
    capabilities: ['mintAuthorizationCode'],
    roles: ['oauth_client'],
    fixtures: [],
  },
  {
    id: 'oauth_client_authenticated',
    title: 'The token and introspection endpoints refuse a wrong client_secret',
    severity: 'critical',
    conformanceClass: 'auth',
    level: 'must',
    rule: 'auth.client_credentials',
    enforces: ['auth.client_credentials'],
    operationId: 'oauth2:token',
    suite: 'oauth2',
    capabilities: [],
    roles: [],
    fixtures: ['oauth_client_id'],
  },
  {
    id: 'introspection_after_expiry',
    title: 'An issued access token introspects active, and inactive once expired',
    severity: 'high',
    conformanceClass: 'auth',
    level: 'must',
    rule: 'oauth2.introspection',
    enforces: ['oauth2.introspection'],
    operationId: 'oauth2:introspect',
    suite: 'oauth2',
    capabilities: ['mintAuthorizationCode', 'advanceClock'],
    roles: ['oauth_client'],
    fixtures: [],
  },
  {
    id: 'introspection_unknown_inactive',
    title: 'An unknown token introspects inactive',
    severity: 'high',
    conformanceClass: 'auth',
    level: 'must',
    rule: 'oauth2.introspection',
    enforces: ['oauth2.introspection'],
    operationId: 'oauth2:introspect',
    suite: 'oauth2',
    capabilities: [],
    roles: ['oauth_client'],
    fixtures: ['oauth_client_id'],
  },
  {
    id: 'subscription_renewal_order',
    title: 'At a period end the clock renews a subscription with a new order (billing_reason subscription_cycle, its items, paid); a failed charge makes it past_due, then it ends',
    severity: 'high',
    conformanceClass: 'state',
    level: 'must',
    rule: 'lifecycle.renewal_order',
    enforces: ['lifecycle.renewal_order', 'lifecycle.failed_payment'],
    operationId: 'orders:get',
    suite: 'lifecycle',
    capabilities: CLOCK_FLOW,
    roles: ['admin'],
    fixtures: ['customer_id'],
  },
  {
    id: 'subscription_period_renews',
    title: 'A renewal moves the period (the new one starts where the old one ended); a trial\'s end makes the subscription active',
    severity: 'high',
    conformanceClass: 'state',
    level: 'must',
    rule: 'lifecycle.period_moves',
    enforces: ['lifecycle.period_moves', 'lifecycle.trial_end'],
    operationId: 'subscriptions:get',
    suite: 'lifecycle',
    capabilities: CLOCK_FLOW,
    roles: ['admin'],
    fixtures: ['customer_id'],
  },
  {
    id: 'subscription_cancel_at_period_end',
    title: 'A subscription set to cancel at period end is canceled at that instant, with ended_at, and not renewed',
    severity: 'high',
    conformanceClass: 'state',
    level: 'must',
    rule: 'lifecycle.cancel_at_period_end',
    enforces: ['lifecycle.cancel_at_period_end'],
    operationId: 'subscriptions:list',
    suite: 'lifecycle',
    capabilities: CLOCK_FLOW,
    roles: ['admin'],
    fixtures: ['customer_id'],
  },
  {
    id: 'renewal_order_events_ordered',
    title: 'The order of a renewal is announced order.created before order.paid',
    severity: 'high',
    conformanceClass: 'state',
    level: 'must',
    rule: 'events.order_created_before_paid',
    enforces: ['events.order_created_before_paid', 'events.order_created', 'events.order_paid'],
    operationId: 'webhooks:order_created',
    suite: 'lifecycle',
    capabilities: CLOCK_FLOW,
    roles: [],
    fixtures: ['customer_id'],
  },
  {
    id: 'webhook_signed',
    title: "Every webhook delivery is a {type, timestamp, data} envelope the platform's verifiers accept: keyed with the UTF-8 bytes of the endpoint's secret, stamped with the wall clock",
    severity: 'critical',
    conformanceClass: 'webhooks',
    level: 'must',
    rule: 'webhooks.standard_webhooks_signature',
    enforces: ['webhooks.standard_webhooks_signature', 'webhooks.signature_timestamp_wall_clock'],
    operationId: 'webhooks:order_created',
    suite: 'webhooks',
    capabilities: WEBHOOK_FLOW,
    roles: [],
    fixtures: [],
    loopbackOnly: true,
  },
  {
    id: 'webhook_subscribed_only',
    title: 'Events reach the enabled endpoints subscribed to them, and no other; order.created before order.paid',
    severity: 'high',
    conformanceClass: 'webhooks',
    level: 'must',
    rule: 'events.delivery_to_subscribed_endpoints',
    enforces: ['events.delivery_to_subscribed_endpoints', 'events.order_created', 'events.order_created_before_paid'],
    operationId: 'webhooks:order_paid',
    suite: 'webhooks',
    capabilities: WEBHOOK_FLOW,
    roles: [],
    fixtures: [],
    loopbackOnly: true,
  },
];

/** Scenario ids, for `--checks` and the rules test. */
export const SCENARIO_IDS: readonly string[] = SCENARIOS.map((s) => s.id);

/**
 * The scenarios a run selects: all, or those `checks` names (when it names any id at all) whose
 * operation `operations` names (when given).
 * @param checks `--checks` ids (check and scenario ids mixed); undefined or empty selects every scenario
 * @param operations `--operations` ids; undefined or empty selects every operation
 */
export function selectScenarios(checks?: readonly string[], operations?: readonly string[]): Scenario[] {
  return selectStateful(SCENARIOS, (s) => s.id, checks, operations);
}

/**
 * The scenario of an id.
 * @throws Error for an unknown id (a bug in a suite)
 */
export function scenario(id: string): Scenario {
  return lookup(SCENARIOS, (s) => s.id, id, 'stateful scenario');
}

// ---- model families

/** A family's name (`orders`); its suite is `suites/model/<id>.suite.ts`, its commands `engine/stateful/<id>.ts`. */
export type FamilyId = 'orders' | 'seats' | 'product-benefits' | 'customers' | 'files';

/** What a family of model-based commands is and needs. */
export interface FamilyInfo extends StatefulEntry {
  id: FamilyId;
  /** The check id of its cell: `model_` and the id in snake_case; stable, never renamed. */
  checkId: string;
}

/** Every family, in report order. */
export const MODEL_FAMILIES: readonly FamilyInfo[] = [
  {
    id: 'orders',
    checkId: 'model_orders',
    title: 'Orders created, completed and refunded through the adapter, invoices generated and read, billing details changed, receipts, in any order',
    severity: 'high',
    conformanceClass: 'state',
    level: 'must',
    rule: 'orders.invoice_generated_explicitly',
    enforces: ['orders.created_pending', 'orders.paid_flag', 'orders.paid_transition_events', 'orders.refund_emits_updated', 'orders.invoice_generated_explicitly', 'orders.billing_details_before_invoice', 'orders.receipt_presigned_url'],
    operationId: 'orders:generate_invoice',
    capabilities: ['createOrder', 'completeOrder'],
    roles: ['admin'],
    fixtures: [],
  },
  {
    id: 'seats',
    checkId: 'model_seats',
    title: 'Seat invitations claimed, claimed again, claimed after time passed, and the sessions of claims, in any order',
    severity: 'critical',
    conformanceClass: 'state',
    level: 'must',
    rule: 'seats.invitation_single_use',
    enforces: ['seats.claim', 'seats.invitation_single_use', 'seats.invitation_expires'],
    operationId: 'customer_seats:claim',
    capabilities: ['createSeatInvitation'],
    roles: [],
    fixtures: [],
  },
  {
    id: 'product-benefits',
    checkId: 'model_product_benefits',
    title: "A product's benefits replaced by random sets (duplicates, a benefit of another organization) and read back",
    severity: 'high',
    conformanceClass: 'state',
    level: 'must',
    rule: 'products.benefits_replaced',
    enforces: ['products.benefits_replaced', 'products.benefits_same_organization'],
    operationId: 'products:update_benefits',
    capabilities: [],
    roles: ['admin'],
    fixtures: ['product_id'],
  },
  {
    id: 'customers',
    checkId: 'model_customers',
    title: 'Customers deleted by external id (anonymized or not), deleted again, read back with their subscriptions',
    severity: 'critical',
    conformanceClass: 'state',
    level: 'must',
    rule: 'customers.delete_external',
    enforces: ['customers.delete_external', 'customers.delete_external.cancels_subscriptions', 'customers.delete_external.anonymize'],
    operationId: 'customers:delete_external',
    capabilities: [],
    roles: ['admin'],
    fixtures: [],
  },
  {
    id: 'files',
    checkId: 'model_files',
    title: 'Files created in parts, parts uploaded with the right or the wrong bytes, files read back',
    severity: 'high',
    conformanceClass: 'state',
    level: 'must',
    rule: 'files.upload_completes',
    enforces: ['files.upload_parts', 'files.not_uploaded_at_creation', 'files.upload_completes', 'files.part_checksum_verified'],
    operationId: 'files:create',
    capabilities: [],
    roles: ['admin'],
    fixtures: [],
  },
];

/** The check ids of the families, for `--checks`. */
export const MODEL_CHECK_IDS: readonly string[] = MODEL_FAMILIES.map((family) => family.checkId);

/**
 * The families a run selects: all, or those whose check id `checks` names (when it names any),
 * and whose operation `operations` names (when it names any).
 */
export function selectFamilies(checks?: readonly string[], operations?: readonly string[]): FamilyInfo[] {
  return selectStateful(MODEL_FAMILIES, (f) => f.checkId, checks, operations);
}

/**
 * The family of an id.
 * @throws Error for an unknown id (a bug in a suite)
 */
export function familyInfo(id: FamilyId): FamilyInfo {
  return lookup(MODEL_FAMILIES, (f) => f.id, id, 'model family');
}
