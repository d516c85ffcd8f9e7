/**
 * The model of the model-based suites: what the API description says the state of each resource
 * family is after each command, and so what the target must answer next. Status changes follow the
 * reference server's declarative transition tables (`server/resources/<name>/transitions.ts`), imported
 * as data, never its handlers, so that a bug in a handler cannot pass its own test. Where the
 * tables say more than the API description (a subscription that is not active also ends when its
 * customer is deleted; a claim emits customer_seat.claimed), the model keeps the table's state but
 * the commands judge only what the description states.
 * @see docs/stateful.md (Model-based suites: the transition tables, imported as data); docs/architecture.md (Floors)
 * @see spec/rules.yaml orders.created_pending, orders.paid_transition_events, orders.refund_emits_updated, events.order_created,
 *   events.order_updated, events.order_paid
 */
import type { OrderStatus, SeatStatus, SubscriptionStatus } from '../../server/records.js';
import { SEAT_TRANSITIONS } from '../../server/resources/customer-seats/transitions.js';
import { CUSTOMER_TRANSITIONS, type CustomerState } from '../../server/resources/customers/transitions.js';
import { FILE_TRANSITIONS, type FileState } from '../../server/resources/files/transitions.js';
import { ORDER_REFUND_EVENTS, ORDER_TRANSITIONS } from '../../server/resources/orders/transitions.js';
import { SUBSCRIPTION_TRANSITIONS } from '../../server/resources/subscriptions/transitions.js';

/** A transition table as the reference declares it: named transitions from any of `from` to `to`, emitting `events`. */
export type TransitionTable = Readonly<Record<string, { readonly from: readonly string[]; readonly to: string; readonly events: readonly string[] }>>;

/**
 * The state a transition leads to from `state`, or undefined when the table does not allow it.
 * @param table a transition table of the reference (`ORDER_TRANSITIONS`)
 * @param name a transition of the table (`complete`)
 */
export function after<T extends TransitionTable>(table: T, name: keyof T & string, state: string): T[typeof name]['to'] | undefined {
  const transition = table[name]!;
  return transition.from.includes(state) ? transition.to : undefined;
}

/** Whether a transition of `table` may fire from `state`. */
export function allows<T extends TransitionTable>(table: T, name: keyof T & string, state: string): boolean {
  return after(table, name, state) !== undefined;
}

/** Event kinds the API description names; the model judges no other event. @see spec/openapi.yaml, schema EventType */
export const DESCRIBED_EVENTS: readonly string[] = ['checkout.created', 'order.created', 'order.updated', 'order.paid'];

/** The events of a transition that the API description names, in table order. */
export function describedEvents<T extends TransitionTable>(table: T, name: keyof T & string): string[] {
  return table[name]!.events.filter((event) => DESCRIBED_EVENTS.includes(event));
}

/** The element of `items` an index drawn by fast-check names (modulo its length), or undefined for an empty list. */
export function pick<T>(items: readonly T[], index: number): T | undefined {
  return items.length === 0 ? undefined : items[index % items.length];
}

// ------------------------------------------------------------------ orders

/** An order the sequence created, as the model knows it. */
export interface OrderModel {
  /** `o1`, `o2`, ... in creation order. */
  label: string;
  status: OrderStatus;
  /** Whether its invoice has been generated (only a request does it). @see spec/rules.yaml orders.invoice_generated_explicitly */
  invoiced: boolean;
  /** How much of it has been refunded. After a refund its status is not stated, so commands that depend on it leave it alone. */
  refunded: 'none' | 'partial' | 'full';
}

/** The orders family: the orders the sequence created. */
export interface OrdersModel {
  orders: OrderModel[];
}

/** Most orders one sequence creates. */
export const MAX_ORDERS = 3;

/** A new order: pending (the description: "An order is created in pending"), without an invoice. */
export function newOrder(model: Readonly<OrdersModel>): OrderModel {
  return { label: `o${model.orders.length + 1}`, status: 'pending', invoiced: false, refunded: 'none' };
}

/** The status an order's processing completing leads to (ORDER_TRANSITIONS.complete), or undefined when it cannot complete. */
export function completedStatus(order: Readonly<OrderModel>): OrderStatus | undefined {
  return after(ORDER_TRANSITIONS, 'complete', order.status);
}

/** The events the description names for an order's completion (order.updated, order.paid). */
export function completionEvents(): string[] {
  return describedEvents(ORDER_TRANSITIONS, 'complete');
}

/**
 * The events the description names for a refund, partial or full (order.updated). A refund is no
 * transition of the table: "unchanged status value is not stated".
 * @see spec/rules.yaml orders.refund_emits_updated
 */
export function refundEvents(): string[] {
  return ORDER_REFUND_EVENTS.filter((event) => DESCRIBED_EVENTS.includes(event));
}

/** Whether the model still says what an order's status is: it does not after a refund. */
export function statusKnown(order: Readonly<OrderModel>): boolean {
  return order.refunded === 'none';
}

// ------------------------------------------------------------------ seats

/** A seat the sequence invited, as the model knows it. */
export interface SeatModel {
  label: string;
  status: SeatStatus;
  /** Model clock (milliseconds since the sequence began) at which the invitation token expires; null when the target did not tell. */
  expiresAtMs: number | null;
  /** Model clock of the claim that opened a customer session, while no time has passed since; null otherwise. */
  sessionAtMs: number | null;
}

/** The seats family: the seats the sequence invited and how much time it made pass. */
export interface SeatsModel {
  seats: SeatModel[];
  /** Milliseconds the sequence has moved the target's clock. */
  clockMs: number;
}

/** Most seats one sequence invites (a seat-based subscription has only so many). */
export const MAX_SEATS = 3;

/** What a claim with a seat's token must give: the claim (`claimed`), or a 422 because the token was used, expired or voided. */
export type ClaimOutcome = 'claimed' | 'reused' | 'expired' | 'revoked';

/** Whether a seat's invitation has expired at the model's clock. */
export function invitationExpired(seat: Readonly<SeatModel>, clockMs: number): boolean {
  return seat.expiresAtMs !== null && clockMs >= seat.expiresAtMs;
}

/**
 * What claiming a seat gives: SEAT_TRANSITIONS.claim from pending while the token has not expired;
 * otherwise a refusal named after why.
 * @see spec/rules.yaml seats.claim, seats.invitation_single_use, seats.invitation_expires
 */
export function claimOutcome(seat: Readonly<SeatModel>, clockMs: number): ClaimOutcome {
  if (allows(SEAT_TRANSITIONS, 'claim', seat.status) && !invitationExpired(seat, clockMs)) return 'claimed';
  if (seat.status === 'claimed') return 'reused';
  if (seat.status === 'revoked') return 'revoked';
  return 'expired';
}

/** The status a claim leads to (SEAT_TRANSITIONS.claim). */
export function claimedStatus(seat: Readonly<SeatModel>): SeatStatus | undefined {
  return after(SEAT_TRANSITIONS, 'claim', seat.status);
}

// ------------------------------------------------------------------ product benefits

/** The product benefits family: which of the candidate benefits (`b1`...) the product grants. */
export interface BenefitsModel {
  /** How many benefits of the product's organization the sequence may grant (`b1` is index 0). */
  candidates: number;
  /** Indexes of the candidates the product grants now. */
  granted: number[];
  /** Whether a benefit of another organization is known (the fixture other_organization_benefit_id). */
  foreign: boolean;
}

/**
 * The set a replacement leaves: exactly the given benefits, duplicates collapsed; unchanged when
 * one belongs to another organization (the request is refused).
 * @see spec/rules.yaml products.benefits_replaced, products.benefits_same_organization
 */
export function replacedBenefits(model: Readonly<BenefitsModel>, picks: readonly number[], foreign: boolean): number[] {
  if (foreign) return [...model.granted];
  return [...new Set(picks)].sort((a, b) => a - b);
}

// ------------------------------------------------------------------ customers

/** A subscription of a customer as the model knows it; `unknown` where the description does not say. */
export interface SubscriptionModel {
  label: string;
  status: SubscriptionStatus | 'unknown';
}

/** A customer the sequence may delete, as the model knows it. */
export interface CustomerModel {
  label: string;
  state: CustomerState;
  subscriptions: SubscriptionModel[];
  /** Whether it was deleted with anonymize=true. */
  anonymized: boolean;
}

/** The customers family: the customers (with an external id and an active subscription) the sequence may delete. */
export interface CustomersModel {
  customers: CustomerModel[];
}

/** Most customers one sequence may delete. */
export const MAX_CUSTOMERS = 2;

/** Whether deleting a customer deletes it (CUSTOMER_TRANSITIONS.delete) rather than finding nothing (404). */
export function deletable(customer: Readonly<CustomerModel>): boolean {
  return allows(CUSTOMER_TRANSITIONS, 'delete', customer.state);
}

/**
 * A customer after its deletion: deleted, and each active subscription canceled
 * (SUBSCRIPTION_TRANSITIONS.cancel_now). The table also ends subscriptions in other live states,
 * which the description does not state ("cancels active subscriptions immediately"): those become
 * `unknown` and are not judged.
 * @see spec/rules.yaml customers.delete_external, customers.delete_external.cancels_subscriptions
 */
export function deletedCustomer(customer: Readonly<CustomerModel>, anonymize: boolean): CustomerModel {
  return {
    ...customer,
    state: after(CUSTOMER_TRANSITIONS, 'delete', customer.state) ?? customer.state,
    anonymized: customer.anonymized || anonymize,
    subscriptions: customer.subscriptions.map((s) => ({
      ...s,
      status: s.status === 'active' ? (after(SUBSCRIPTION_TRANSITIONS, 'cancel_now', s.status) ?? 'unknown') : 'unknown',
    })),
  };
}

// ------------------------------------------------------------------ files

/** A file the sequence created, as the model knows it. */
export interface FileModel {
  label: string;
  state: FileState;
  /** Whether each part (part number = index + 1) has been uploaded with its bytes. */
  uploaded: boolean[];
}

/** The files family: the files the sequence created. */
export interface FilesModel {
  files: FileModel[];
}

/** Most files one sequence creates. */
export const MAX_FILES = 2;

/**
 * A file after one of its parts arrived with the declared bytes: uploaded (FILE_TRANSITIONS.complete_upload)
 * once every part has.
 * @see spec/rules.yaml files.upload_completes
 */
export function withPart(file: Readonly<FileModel>, part: number): FileModel {
  const uploaded = file.uploaded.map((done, index) => done || index === part);
  const complete = uploaded.every(Boolean) ? after(FILE_TRANSITIONS, 'complete_upload', file.state) : undefined;
  return { ...file, uploaded, state: complete ?? file.state };
}
