/**
 * Model-based commands of orders: created and completed through the adapter (the API shows no
 * operation that does either), invoices generated and read, billing details changed, receipts read,
 * on the organization API or the customer portal, and refunds through the adapter when it can, in
 * any order. The model says which answer each step must get: an invoice exists only once
 * generated, billing details change only before, a completed order is paid with order.updated and
 * order.paid, a refund emits order.updated (and leaves a status the description does not state).
 * @see spec/rules.yaml orders.created_pending, orders.paid_flag, orders.paid_transition_events, orders.refund_emits_updated,
 *   orders.invoice_generated_explicitly, orders.billing_details_before_invoice, orders.receipt_presigned_url
 */
import fc from 'fast-check';
import { AdapterError } from '../../core/adapter.js';
import type { Role } from '../../core/types.js';
import { ModelCommand } from './command.js';
import type { Family } from './family.js';
import { familyInfo } from './registry.js';
import { completedStatus, completionEvents, MAX_ORDERS, newOrder, pick, refundEvents, statusKnown, type OrderModel, type OrdersModel } from './model.js';
import { answerText, bodyOf, eventually, refused, statusOf, succeeded, type CommandEnv, type Real } from './real.js';

/** Where an order command is sent: the organization API (admin) or the customer portal (the order's customer's session). */
export type Via = 'admin' | 'portal';

/** The operations of each way in. */
const OPERATIONS: Record<Via, { update: string; generate: string; get: string; role: Role }> = {
  admin: { update: 'orders:update', generate: 'orders:generate_invoice', get: 'orders:get_invoice', role: 'admin' },
  portal: { update: 'customer_portal:orders:update', generate: 'customer_portal:orders:generate_invoice', get: 'customer_portal:orders:get_invoice', role: 'customer_session' },
};

/** Billing details a command sets, by the index it drew. */
const BILLING = [
  { billing_name: 'Model Billing Ltd' },
  { billing_name: 'Model Billing GmbH', billing_address: { country: 'DE', line1: 'Musterstraße 1', line2: null, postal_code: '10115', city: 'Berlin', state: null } },
  { billing_address: { country: 'FR', line1: '1 rue du Modèle', line2: null, postal_code: '75002', city: 'Paris', state: null } },
] as const;

/** The portal customer (fixture customer_id), when the target has a customer session for it: orders are then created for that customer. */
function portalCustomer(env: CommandEnv): string | undefined {
  return env.target.roles.customer_session ? env.target.fixtures.customer_id : undefined;
}

const suffix = (via: Via): string => (via === 'portal' ? ', portal' : '');

/** What the sequence keeps of an order: its net amount (cents), to refund a part of it. */
interface OrderData {
  netAmount: number | undefined;
}

/** Counts the events of `types` about order `id` in the target's event log (listEvents). */
async function eventCounts(real: Real, id: string, types: readonly string[]): Promise<Record<string, number> | undefined> {
  const counts: Record<string, number> = {};
  for (const type of types) {
    const events = await real.adapterRead('listEvents', { type });
    if (!events) return undefined;
    counts[type] = events.filter((event) => event.type === type && event.data?.id === id).length;
  }
  return counts;
}

/**
 * Waits until the event log shows new events of `types` about order `id` (up to a second in assert
 * mode, for a target whose log lags; not at all when the adapter says the log is current once a
 * write is answered, `TargetAdapter.eventsAtOnce`), and notes the counts.
 */
async function newEvents(real: Real, label: string, id: string, types: readonly string[], before: Record<string, number>): Promise<string[]> {
  let after: Record<string, number> | undefined;
  await eventually(async () => {
    after = await eventCounts(real, id, types);
    return after !== undefined && types.every((type) => after![type]! > before[type]!);
  }, real.mode === 'assert' && !real.eventsAtOnce ? 1000 : 0);
  real.note(`events about ${label}`, after);
  return types.filter((type) => after !== undefined && !(after[type]! > before[type]!));
}

/** createOrder: a new order through the adapter, pending and not paid. */
export class CreateOrder extends ModelCommand<OrdersModel> {
  protected get name(): string {
    return 'createOrder';
  }
  check(model: Readonly<OrdersModel>): boolean {
    return model.orders.length < MAX_ORDERS;
  }
  describe(): string {
    return 'createOrder';
  }
  protected async execute(model: OrdersModel, real: Real): Promise<void> {
    const expected = newOrder(model);
    model.orders.push(expected);
    const customerId = portalCustomer(real.env);
    const order = await real.adapterCall('createOrder', customerId ? { customerId } : {});
    if (!order) return;
    if (typeof order.id !== 'string') throw new AdapterError('createOrder', `adapter "${real.env.adapter?.name}": createOrder returned an order without an id`);
    real.ids.set(expected.label, order.id);
    real.data.set(expected.label, { netAmount: typeof order.net_amount === 'number' ? order.net_amount : undefined } satisfies OrderData);
    real.expect(order.status === expected.status && order.paid === false, {
      rule: 'orders.created_pending',
      kind: 'order_not_created_pending',
      title: 'A new order is not pending',
      message: `The order the adapter created has status ${JSON.stringify(order.status)} and paid ${JSON.stringify(order.paid)}: an order is created pending, not paid.`,
      expected: { status: expected.status, paid: false },
      actual: { status: order.status, paid: order.paid },
    });
  }
}

/** completeOrder(o): the order's processing completes through the adapter: ORDER_TRANSITIONS.complete, paid, with the table's events. */
export class CompleteOrder extends ModelCommand<OrdersModel> {
  readonly index: number;
  constructor(index: number) {
    super();
    this.index = index;
  }
  protected get name(): string {
    return `completeOrder(#${this.index})`;
  }
  #order(model: Readonly<OrdersModel>): OrderModel | undefined {
    return pick(model.orders.filter((o) => completedStatus(o) !== undefined), this.index);
  }
  check(model: Readonly<OrdersModel>): boolean {
    return this.#order(model) !== undefined;
  }
  describe(model: Readonly<OrdersModel>): string {
    return `completeOrder(${this.#order(model)!.label})`;
  }
  protected async execute(model: OrdersModel, real: Real): Promise<void> {
    const order = this.#order(model)!;
    const from = order.status;
    const to = completedStatus(order)!;
    order.status = to;
    const id = real.idOf(order.label);
    if (id === undefined) return;
    const events = completionEvents();
    const before = real.can('listEvents') ? await eventCounts(real, id, events) : undefined;
    const completed = await real.adapterCall('completeOrder', id);
    if (!completed) return;
    if (real.expect(completed.status === to && completed.paid === true, {
      rule: 'orders.paid_flag',
      kind: 'order_not_paid_after_completion',
      title: 'A completed order is not paid',
      message: `After its processing completed, order ${order.label} has status ${JSON.stringify(completed.status)} and paid ${JSON.stringify(completed.paid)}.`,
      expected: { status: to, paid: true },
      actual: { status: completed.status, paid: completed.paid },
    })) real.transition('order', from, to);
    if (!before) return;
    const missing = await newEvents(real, order.label, id, events, before);
    real.expect(missing.length === 0, {
      rule: 'orders.paid_transition_events',
      kind: 'completion_event_missing',
      title: "A completed order's events are missing",
      message: `After order ${order.label} became paid, the event log has no new ${missing.join(', ')} about it; pending to paid emits ${events.join(' and ')}.`,
      expected: events,
      actual: missing,
    });
  }
}

/** generateInvoice(o): generates a paid order's invoice (2xx); from then on it exists. */
export class GenerateInvoice extends ModelCommand<OrdersModel> {
  readonly index: number;
  readonly via: Via;
  constructor(index: number, via: Via) {
    super();
    this.index = index;
    this.via = via;
  }
  protected get name(): string {
    return `generateInvoice(#${this.index}${suffix(this.via)})`;
  }
  // Only a paid order: the description does not say what generating a pending order's invoice does.
  #order(model: Readonly<OrdersModel>): OrderModel | undefined {
    return pick(model.orders.filter((o) => o.status === 'paid' && statusKnown(o)), this.index);
  }
  check(model: Readonly<OrdersModel>): boolean {
    return this.#order(model) !== undefined;
  }
  describe(model: Readonly<OrdersModel>): string {
    return `generateInvoice(${this.#order(model)!.label}${suffix(this.via)})`;
  }
  protected async execute(model: OrdersModel, real: Real): Promise<void> {
    const order = this.#order(model)!;
    order.invoiced = true;
    const id = real.idOf(order.label);
    if (id === undefined) return;
    const { generate, role } = OPERATIONS[this.via];
    const generated = await real.send(generate, { role, pathParams: { id } });
    real.expect(succeeded(generated), {
      rule: 'orders.invoice_generated_explicitly',
      kind: 'invoice_generation_refused',
      title: 'Generating the invoice of a paid order was refused',
      message: `${generate} answered ${answerText(generated)} for paid order ${order.label}.`,
      expected: '2xx',
      actual: statusOf(generated),
    }, generated);
  }
}

/** getInvoice(o): the invoice exists (2xx) once generated, and not before (a 4xx). */
export class GetInvoice extends ModelCommand<OrdersModel> {
  readonly index: number;
  readonly via: Via;
  constructor(index: number, via: Via) {
    super();
    this.index = index;
    this.via = via;
  }
  protected get name(): string {
    return `getInvoice(#${this.index}${suffix(this.via)})`;
  }
  check(model: Readonly<OrdersModel>): boolean {
    return model.orders.length > 0;
  }
  describe(model: Readonly<OrdersModel>): string {
    const order = pick(model.orders, this.index)!;
    return `getInvoice(${order.label}${suffix(this.via)})${order.invoiced ? '' : '[not generated]'}`;
  }
  protected async execute(model: OrdersModel, real: Real): Promise<void> {
    const order = pick(model.orders, this.index)!;
    const id = real.idOf(order.label);
    if (id === undefined) return;
    const { get, role } = OPERATIONS[this.via];
    let got = await real.send(get, { role, pathParams: { id } });
    // 202 means accepted: a generated invoice may take a moment to exist.
    if (order.invoiced && real.mode === 'assert') {
      await eventually(async () => succeeded(got) || succeeded((got = await real.send(get, { role, pathParams: { id } }))));
    }
    real.expect(order.invoiced ? succeeded(got) : refused(got), {
      rule: 'orders.invoice_generated_explicitly',
      kind: order.invoiced ? 'invoice_missing_after_generation' : 'invoice_before_generation',
      title: order.invoiced ? 'No invoice after it was generated' : 'An invoice exists before it was generated',
      message: `${get} answered ${answerText(got)} for order ${order.label}, whose invoice ${order.invoiced ? 'was generated' : 'no request has generated yet'}.`,
      expected: order.invoiced ? '2xx' : 'a 4xx (no invoice yet)',
      actual: statusOf(got),
    }, got);
  }
}

/** updateBilling(o): billing details change (2xx) until the invoice is generated, and are refused (a 4xx) after. */
export class UpdateBilling extends ModelCommand<OrdersModel> {
  readonly index: number;
  readonly via: Via;
  readonly details: number;
  constructor(index: number, via: Via, details: number) {
    super();
    this.index = index;
    this.via = via;
    this.details = details;
  }
  protected get name(): string {
    return `updateBilling(#${this.index}${suffix(this.via)})`;
  }
  check(model: Readonly<OrdersModel>): boolean {
    return model.orders.length > 0;
  }
  describe(model: Readonly<OrdersModel>): string {
    const order = pick(model.orders, this.index)!;
    return `updateBilling(${order.label}${suffix(this.via)})${order.invoiced ? '[invoiced]' : ''}`;
  }
  protected async execute(model: OrdersModel, real: Real): Promise<void> {
    const order = pick(model.orders, this.index)!;
    const id = real.idOf(order.label);
    if (id === undefined) return;
    const { update, role } = OPERATIONS[this.via];
    const updated = await real.send(update, { role, pathParams: { id }, json: BILLING[this.details % BILLING.length] });
    real.expect(order.invoiced ? refused(updated) : succeeded(updated), {
      rule: 'orders.billing_details_before_invoice',
      kind: order.invoiced ? 'billing_update_after_invoice' : 'billing_update_refused_before_invoice',
      title: order.invoiced ? 'Billing details changed after the invoice was generated' : 'Billing details could not change before the invoice was generated',
      message: `${update} answered ${answerText(updated)} for order ${order.label}, whose invoice ${order.invoiced ? 'is generated; billing details change only before' : 'is not generated yet'}.`,
      expected: order.invoiced ? 'a 4xx' : '2xx',
      actual: statusOf(updated),
    }, updated);
  }
}

/** getReceipt(o): a paid order's receipt is a 200 with a url. */
export class GetReceipt extends ModelCommand<OrdersModel> {
  readonly index: number;
  constructor(index: number) {
    super();
    this.index = index;
  }
  protected get name(): string {
    return `getReceipt(#${this.index})`;
  }
  // Only a paid order: the description does not say whether a pending order has a receipt.
  #order(model: Readonly<OrdersModel>): OrderModel | undefined {
    return pick(model.orders.filter((o) => o.status === 'paid' && statusKnown(o)), this.index);
  }
  check(model: Readonly<OrdersModel>): boolean {
    return this.#order(model) !== undefined;
  }
  describe(model: Readonly<OrdersModel>): string {
    return `getReceipt(${this.#order(model)!.label})`;
  }
  protected async execute(model: OrdersModel, real: Real): Promise<void> {
    const order = this.#order(model)!;
    const id = real.idOf(order.label);
    if (id === undefined) return;
    const receipt = await real.send('orders:get_receipt', { role: 'admin', pathParams: { id } });
    real.expect(statusOf(receipt) === 200 && typeof bodyOf(receipt)?.url === 'string', {
      rule: 'orders.receipt_presigned_url',
      kind: 'receipt_missing',
      title: 'A paid order has no receipt URL',
      message: `GET /v1/orders/{id}/receipt of paid order ${order.label} answered ${answerText(receipt)}.`,
      expected: '200 {url}',
      actual: statusOf(receipt),
    }, receipt);
  }
}

/** refundOrder(o): a refund of a paid order through the adapter, half of it or all that is left: order.updated about it. */
export class RefundOrder extends ModelCommand<OrdersModel> {
  readonly index: number;
  readonly partial: boolean;
  constructor(index: number, partial: boolean) {
    super();
    this.index = index;
    this.partial = partial;
  }
  protected get name(): string {
    return `refundOrder(#${this.index}${this.partial ? ', partial' : ''})`;
  }
  // A paid order with something left to refund; a part only of one not refunded yet.
  #order(model: Readonly<OrdersModel>): OrderModel | undefined {
    return pick(model.orders.filter((o) => o.status === 'paid' && (this.partial ? o.refunded === 'none' : o.refunded !== 'full')), this.index);
  }
  check(model: Readonly<OrdersModel>): boolean {
    return this.#order(model) !== undefined;
  }
  describe(model: Readonly<OrdersModel>): string {
    return `refundOrder(${this.#order(model)!.label}${this.partial ? ', partial' : ''})`;
  }
  protected async execute(model: OrdersModel, real: Real): Promise<void> {
    const order = this.#order(model)!;
    const net = (real.data.get(order.label) as OrderData | undefined)?.netAmount;
    const amount = this.partial && net !== undefined && net >= 2 ? Math.floor(net / 2) : undefined;
    order.refunded = amount === undefined ? 'full' : 'partial';
    const id = real.idOf(order.label);
    if (id === undefined) return;
    const events = refundEvents();
    const before = real.can('listEvents') ? await eventCounts(real, id, events) : undefined;
    const refund = await real.adapterCall('refundOrder', id, amount === undefined ? {} : { amount });
    if (!refund || !before) return;
    const missing = await newEvents(real, order.label, id, events, before);
    real.expect(missing.length === 0, {
      rule: 'orders.refund_emits_updated',
      kind: 'refund_event_missing',
      title: "A refund's order.updated is missing",
      message: `After a ${amount === undefined ? 'full' : 'partial'} refund of order ${order.label}, the event log has no new ${missing.join(', ')} about it; a refund, partial or full, emits order.updated.`,
      expected: events,
      actual: missing,
    });
  }
}

/** The ways in a target offers: the customer portal too when it has a customer session for the portal customer. */
function vias(env: CommandEnv): Via[] {
  return portalCustomer(env) ? ['admin', 'portal'] : ['admin'];
}

/** The orders family. */
export const ordersFamily: Family<OrdersModel> = {
  ...familyInfo('orders'),
  commands(env) {
    const via = fc.constantFrom(...vias(env));
    const index = fc.nat({ max: MAX_ORDERS - 1 });
    return [
      fc.constant(null).map(() => new CreateOrder()),
      index.map((i) => new CompleteOrder(i)),
      fc.tuple(index, via).map(([i, v]) => new GenerateInvoice(i, v)),
      fc.tuple(index, via).map(([i, v]) => new GetInvoice(i, v)),
      fc.tuple(index, via, fc.nat({ max: BILLING.length - 1 })).map(([i, v, d]) => new UpdateBilling(i, v, d)),
      index.map((i) => new GetReceipt(i)),
      ...(typeof env.adapter?.refundOrder === 'function' ? [fc.tuple(index, fc.boolean()).map(([i, partial]) => new RefundOrder(i, partial))] : []),
    ];
  },
  async setup() {
    return { orders: [] };
  },
  async readBack(model, real) {
    for (const order of model.orders) {
      const id = real.ids.get(order.label);
      if (id !== undefined) await real.send('orders:get_invoice', { role: 'admin', pathParams: { id } }, `read back: invoice of ${order.label}`);
    }
  },
};
