/**
 * The target adapter: the state changes that no public operation of the API can trigger (an
 * order's processing completing, a refund being issued, an invitation being sent, a user
 * authorizing an OAuth client, time passing, a webhook endpoint being registered) and the records
 * no operation creates (customers, subscriptions in a given status, license key grants), which the
 * stateful suites need. The embedded
 * reference gets {@link createReferenceAdapter} over its control API; a remote target may supply a
 * module (`conformance run --adapter ./my-adapter.js`) exporting `createAdapter(target)`. Every
 * capability is optional: a scenario that needs one the adapter lacks is skipped with the reason
 * (`needs adapter capability completeOrder`), never passed.
 *
 * Module format (ESM, JavaScript or TypeScript, loaded in vitest's workers):
 * ```js
 * // my-adapter.js
 * export function createAdapter(target) {        // target: the run's Target (baseUrl, roles, fixtures)
 *   return {
 *     name: 'staging back office',
 *     async createOrder({ customerId, productId }) { ... return order },   // the order as the API shows it, pending
 *     async completeOrder(orderId) { ... return order },                  // the order, now paid
 *   };
 * }
 * ```
 * A capability reports a refusal by throwing; the harness turns it into an {@link AdapterError}
 * (a harness error, exit 2), since a scenario that cannot set up its state says nothing of the API.
 * @see docs/stateful.md ("The target adapter"); docs/design.md (Targets, roles and verdicts)
 */
import type { Operation } from './spec/load.js';
import { HarnessError } from './errors.js';
import type { Target } from './target.js';

/** Every capability an adapter may have, in the order reports list them. */
export const ADAPTER_CAPABILITIES = [
  'createOrder',
  'completeOrder',
  'createSeatInvitation',
  'mintAuthorizationCode',
  'advanceClock',
  'createWebhookEndpoint',
  'setWebhookEndpointEnabled',
  'listEvents',
  'refundOrder',
  'createCustomer',
  'createProduct',
  'createSubscription',
  'grantLicenseKey',
  'clockNow',
  'createClockSubscription',
  'setPaymentFailure',
] as const;

/** The name of an adapter capability (a method of {@link TargetAdapter}). */
export type AdapterCapability = (typeof ADAPTER_CAPABILITIES)[number];

/** A JSON object as the API shows it (an order, a seat, a webhook endpoint), snake_case fields. */
export type ApiObject = Record<string, unknown>;

/** What {@link TargetAdapter.createOrder} creates; absent fields are the adapter's choice. */
export interface OrderInput {
  /** The customer who buys (a customer id of the target). */
  customerId?: string;
  /** A one-time product of the customer's organization. */
  productId?: string;
}

/** What {@link TargetAdapter.refundOrder} refunds; absent fields are the adapter's choice. */
export interface RefundInput {
  /** Cents to refund (a part of the order's net amount, as the Refund's `amount` field counts them); absent: a full refund. */
  amount?: number;
}

/** What {@link TargetAdapter.createCustomer} creates; absent fields are the adapter's choice. */
export interface CustomerInput {
  /** The merchant's own identifier (`external_id`); absent: a new unique one. */
  externalId?: string;
  email?: string;
}

/** What {@link TargetAdapter.createProduct} creates; absent fields are the adapter's choice. */
export interface ProductInput {
  name?: string;
}

/** What {@link TargetAdapter.createSubscription} creates. */
export interface SubscriptionInput {
  /** A customer of the `admin` role's organization. */
  customerId: string;
  /** One of the eight subscription statuses (`past_due`). @see spec/openapi.yaml, schema SubscriptionStatus */
  status: string;
  /** Seats: the subscription is seat-based with this many, so that seat invitations can be sent to it. */
  seats?: number;
}

/**
 * What {@link TargetAdapter.createClockSubscription} starts: a subscription that the target's
 * clock drives (its trial ends, it renews, it is charged and ends as {@link TargetAdapter.advanceClock}
 * moves time). Absent fields are the adapter's choice. @see docs/lifecycle.md
 */
export interface ClockSubscriptionInput {
  /** A customer of the `admin` role's organization. */
  customerId: string;
  /** Days of trial (status trialing until then); absent or 0: active at once. */
  trialDays?: number;
  /** The subscription is canceled at its period's end. */
  cancelAtPeriodEnd?: boolean;
  /** Its charges fail (past_due, then the target's dunning). */
  failPayments?: boolean;
}

/** What {@link TargetAdapter.grantLicenseKey} grants. */
export interface LicenseKeyInput {
  /** A customer of the `admin` role's organization. */
  customerId: string;
  /** A license_keys benefit of that organization; absent: the adapter's choice. */
  benefitId?: string;
}

/** What {@link TargetAdapter.createSeatInvitation} creates; absent fields are the adapter's choice. */
export interface SeatInvitationInput {
  /** A seat-based subscription with a free seat. */
  subscriptionId?: string;
  /** The invited email. */
  email?: string;
}

/** A sent seat invitation: the pending seat as the API shows it (`id`, `customer_id`, `created_at`, `invitation_token_expires_at`) and its secret token. */
export interface SeatInvitation {
  seat: ApiObject;
  invitationToken: string;
}

/** What {@link TargetAdapter.mintAuthorizationCode} is asked for; absent fields are the adapter's choice. */
export interface AuthorizationCodeInput {
  /** One of the client's redirect URIs. */
  redirectUri?: string;
  /** Space-separated scopes. */
  scope?: string;
}

/** An authorization code as an authorization endpoint would hand it to the client. @see RFC 6749 section 4.1.2 */
export interface AuthorizationCode {
  code: string;
  /** The client the code was issued to (the `oauth_client_id` of the token request). */
  clientId: string;
  /** The redirect_uri the code is bound to; null when it is bound to none. */
  redirectUri: string | null;
  /** Space-separated scopes granted, when known. */
  scope?: string;
}

/** What {@link TargetAdapter.createWebhookEndpoint} registers, in the organization of the `admin` role. */
export interface WebhookEndpointInput {
  /** Absolute URL the events are POSTed to. */
  url: string;
  /** Subscribed event kinds (`order.paid`). */
  events: string[];
  /** Default true. */
  enabled?: boolean;
}

/** A registered webhook endpoint as the API shows it; `secret` is its signing secret. @see spec/openapi.yaml, schema WebhookEndpoint */
export type WebhookEndpoint = ApiObject & { id: string; secret: string };

/**
 * One event of the target's event log. `data` is the resource the event is about (an order for `order.*`), with its `id`.
 * @see spec/openapi.yaml, schema Event
 */
export interface TargetEvent {
  id?: string;
  /** Event kind (`order.paid`). */
  type: string;
  /** ISO 8601 date-time. */
  timestamp: string;
  data: ApiObject;
}

/**
 * What a target offers the stateful suites besides its API. Every method is optional and
 * asynchronous, throws to refuse, and acts on the target the adapter was created for.
 */
export interface TargetAdapter {
  /** Shown in messages (`reference control API`, `staging back office`). */
  readonly name: string;
  /** Creates a pending order, as a checkout would, emitting order.created; its invoice is not generated. @returns the order as the API shows it */
  createOrder?(input: OrderInput): Promise<ApiObject>;
  /** Completes a pending order's processing: it becomes paid (order.updated, order.paid). @returns the order as the API shows it */
  completeOrder?(orderId: string): Promise<ApiObject>;
  /** Sends a seat invitation: a new pending seat and the token that claims it. */
  createSeatInvitation?(input: SeatInvitationInput): Promise<SeatInvitation>;
  /** Mints an authorization code for the `oauth_client` role's client, as if its user had just consented. */
  mintAuthorizationCode?(input: AuthorizationCodeInput): Promise<AuthorizationCode>;
  /** Moves the target's clock forward by `ms` milliseconds (tokens, codes, invitations and URLs expire by it). */
  advanceClock?(ms: number): Promise<void>;
  /** Registers a webhook endpoint in the `admin` role's organization. */
  createWebhookEndpoint?(input: WebhookEndpointInput): Promise<WebhookEndpoint>;
  /** Enables or disables a webhook endpoint. */
  setWebhookEndpointEnabled?(id: string, enabled: boolean): Promise<void>;
  /** The target's event log, oldest first, optionally of one kind. */
  listEvents?(filter?: { type?: string }): Promise<TargetEvent[]>;
  /**
   * Refunds a paid order, partially (`amount`) or fully; the target records it as a refund
   * (GET /v1/refunds/) and emits order.updated. @returns the refund as the API shows it (`id`, `amount`, `order_id`)
   */
  refundOrder?(orderId: string, input: RefundInput): Promise<ApiObject>;
  /** Creates a customer with an external id in the `admin` role's organization. @returns the customer as the API shows it (`id`, `external_id`) */
  createCustomer?(input: CustomerInput): Promise<ApiObject>;
  /**
   * Creates a product in the `admin` role's organization that nothing references (no order,
   * subscription or discount), so that a case replacing a product's benefits owns it.
   * @returns the product as the API shows it (`id`)
   */
  createProduct?(input: ProductInput): Promise<ApiObject>;
  /** Creates a subscription of a customer in a given status. @returns the subscription as the API shows it (`id`, `status`, `customer_id`) */
  createSubscription?(input: SubscriptionInput): Promise<ApiObject>;
  /** Grants a customer a license key (a license_keys benefit). @returns the key as the customer portal shows it (`id`, `status` granted) */
  grantLicenseKey?(input: LicenseKeyInput): Promise<ApiObject>;
  /** The target's current (test clock) time, ISO 8601, which {@link advanceClock} moves; a delivery's signature is stamped with the wall clock whatever it says (docs/lifecycle.md). */
  clockNow?(): Promise<string>;
  /**
   * Starts a subscription the target's clock drives (the capability "can advance time for
   * subscriptions"): advancing the clock past its trial or period end ends the trial, renews it
   * with an order, charges it or ends it as docs/lifecycle.md says.
   * @returns the subscription as the API shows it (`id`, `status`, `current_period_end`)
   */
  createClockSubscription?(input: ClockSubscriptionInput): Promise<ApiObject>;
  /** Makes the charges of a subscription started by {@link createClockSubscription} fail (`fail` true) or succeed again from now on; a past_due subscription then recovers at its next retry. */
  setPaymentFailure?(subscriptionId: string, fail: boolean): Promise<void>;
  /**
   * Waits until the target's webhook deliveries have settled (none queued, waiting for a retry or
   * in flight), or `timeoutMs` (milliseconds) has passed: an optimisation, suites otherwise wait by
   * polling. An answer of `{ pending: 0 }` tells the suites that a delivery which has not arrived
   * will not come, so they stop waiting for it (core/webhook-receiver.ts `awaitDeliveries`); no
   * answer, or deliveries still pending, and they wait for it until their own deadline.
   */
  settleDeliveries?(timeoutMs: number): Promise<void | SettledDeliveries>;
  /**
   * True when the target's event log is current once a write has been answered: every event of a
   * write (an API call or a capability of this adapter) is in {@link listEvents} by the time its
   * answer came. A model-based step that expects events then reads the log once; otherwise it
   * polls it for up to a second, for a target whose log lags (engine/stateful/orders.ts). Absent:
   * false. An optimisation: a target whose events never come is failed either way.
   */
  readonly eventsAtOnce?: boolean;
  /** Releases what the adapter holds (connections). */
  close?(): Promise<void>;
}

/** What {@link TargetAdapter.settleDeliveries} may answer. */
export interface SettledDeliveries {
  /** Deliveries still queued, waiting for a retry or in flight when it returned; 0: everything settled. */
  pending: number;
}

/** The export of an adapter module. */
export type AdapterFactory = (target: Target) => TargetAdapter | Promise<TargetAdapter>;

/**
 * Which adapter a run uses, as it crosses to the workers in the run context: the built-in adapter
 * of the reference server's control API, or a module file (absolute path).
 */
export type AdapterSource = { kind: 'reference' } | { kind: 'module'; file: string };

/** The `--adapter` value that selects the built-in reference adapter (for a reference started with `conformance serve`). */
export const REFERENCE_ADAPTER_NAME = 'reference';

/**
 * An adapter capability failed: the scenario cannot set up its state, which says nothing about the
 * API. A harness error (exit 2) with code CNF_ERR_ADAPTER.
 */
export class AdapterError extends HarnessError {
  /** The capability that failed. */
  readonly capability: string;
  constructor(capability: string, message: string, options?: { cause?: unknown }) {
    super('CNF_ERR_ADAPTER', message, options);
    this.name = 'AdapterError';
    this.capability = capability;
  }
}

/**
 * Why a scenario cannot run with this adapter, or undefined when it has every capability needed.
 * @returns `needs adapter capability createOrder` (the first missing one, in `needs` order), with
 *   `(no adapter: pass --adapter FILE)` when the run has no adapter at all
 */
export function missingCapability(adapter: TargetAdapter | undefined, needs: readonly AdapterCapability[]): string | undefined {
  const missing = needs.find((capability) => typeof adapter?.[capability] !== 'function');
  if (missing === undefined) return undefined;
  return `needs adapter capability ${missing}${adapter ? '' : ' (no adapter: pass --adapter FILE)'}`;
}

/** The capabilities an adapter has, in {@link ADAPTER_CAPABILITIES} order. */
export function capabilitiesOf(adapter: TargetAdapter): AdapterCapability[] {
  return ADAPTER_CAPABILITIES.filter((capability) => typeof adapter[capability] === 'function');
}

/**
 * A request outside the OpenAPI document (the control API, a presigned URL) as an operation, so
 * that it goes through the harness client with its timeout and pacing like any other.
 * @param method HTTP method
 * @param pathAndQuery the path and query string relative to the client's base URL, sent verbatim
 *   (braces are percent-encoded so that no path template is expanded)
 * @param operationId shown in exchanges; default `<METHOD> <path>`
 */
export function outsideOperation(method: string, pathAndQuery: string, operationId = `${method.toUpperCase()} ${pathAndQuery.split('?')[0]}`): Operation {
  return {
    operationId,
    method: method.toUpperCase(),
    path: pathAndQuery.replace(/\{/g, '%7B').replace(/\}/g, '%7D'),
    tags: [],
    parameters: [],
    responseStatuses: [],
    responseMediaTypes: {},
    security: [],
    scopes: [],
    paginated: false,
    raw: {},
  };
}
