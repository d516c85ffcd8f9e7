// Orders: the pending to paid transition and its events, invoices generated only on request,
// billing details changeable until then, the customer portal's own orders only, and the receipt.
// Orders come from the adapter (createOrder, completeOrder): the API shows no operation that
// creates or completes one, and a fresh order is the only one known to have no invoice yet.
import { orderEventFindings, orderShapeFindings } from '../../checks/stateful/order-events.js';
import { receiptDocumentFindings, receiptUrl } from '../../checks/stateful/receipt.js';
import { AdapterError, type OrderInput } from '../../core/adapter.js';
import type { Role } from '../../core/types.js';
import { answerText, bodyOf, defineScenario, eventually, refused, statefulSuite, statusOf, succeeded, type ScenarioRun } from '../../engine/stateful/scenario.js';

const suite = await statefulSuite();

/** The billing details a scenario sets (a well-formed address of every field). */
const BILLING = {
  billing_name: 'Conformance Billing Ltd',
  billing_address: { country: 'FR', line1: '1 rue de la Conformité', line2: null, postal_code: '75002', city: 'Paris', state: null },
};

/** Creates an order through the adapter and returns it with its id. */
async function createOrder(s: ScenarioRun, input: OrderInput): Promise<{ id: string; order: Record<string, unknown> }> {
  const order = await s.adapter('createOrder')(input);
  if (typeof order.id !== 'string') throw new AdapterError('createOrder', `adapter "${suite.adapter?.name}": createOrder returned an order without an id`);
  return { id: order.id, order };
}

/** A new paid order without an invoice: created and completed through the adapter; records `order: pending→paid` when the adapter's answers show it. */
async function paidOrder(s: ScenarioRun, input: OrderInput = {}): Promise<string> {
  const { id, order } = await createOrder(s, input);
  const completed = await s.adapter('completeOrder')(id);
  if (order.status === 'pending' && completed.status === 'paid') s.transition('order', 'pending', 'paid');
  return id;
}

defineScenario(suite, 'order_paid_transition', async (s) => {
  const { id, order } = await createOrder(s, {});
  s.check(order.status === 'pending' && order.paid === false, {
    kind: 'order_not_created_pending',
    title: 'A new order is not pending',
    message: `The order the adapter created has status ${JSON.stringify(order.status)} and paid ${JSON.stringify(order.paid)}: an order is created pending, not paid.`,
    expected: { status: 'pending', paid: false },
    actual: { status: order.status, paid: order.paid },
  });
  const before = await s.adapter('listEvents')({});
  const completed = await s.adapter('completeOrder')(id);
  if (s.check(completed.status === 'paid' && completed.paid === true, {
    kind: 'order_not_paid_after_completion',
    title: 'A completed order is not paid',
    message: `After its processing completed, order ${id} has status ${JSON.stringify(completed.status)} and paid ${JSON.stringify(completed.paid)}.`,
    expected: { status: 'paid', paid: true },
    actual: { status: completed.status, paid: completed.paid },
  }) && order.status === 'pending') s.transition('order', 'pending', 'paid');
  const after = await s.adapter('listEvents')({});
  for (const finding of orderEventFindings(id, before, after)) s.fail(finding);
  // The adapter answers orders as the API shows them: their fields are judged like the API's.
  for (const finding of [...orderShapeFindings(order, `The order ${id} the adapter created`), ...orderShapeFindings(completed, `The order ${id} the adapter completed`)]) s.fail(finding);
});

/** An order's invoice is absent until generated, then present: on the organization API or the customer portal. */
async function invoiceAfterGeneration(s: ScenarioRun, role: Role, operations: { get: string; generate: string }, input: OrderInput): Promise<void> {
  const id = await paidOrder(s, input);
  const before = await s.send(operations.get, { role, pathParams: { id } });
  s.check(refused(before), {
    kind: 'invoice_before_generation',
    title: 'An invoice exists before it was generated',
    message: `${operations.get} answered ${answerText(before)} for order ${id} before any request generated its invoice; invoices are no longer generated when an order is created.`,
    expected: 'a 4xx (no invoice yet)',
    actual: statusOf(before),
  }, before);
  const generated = await s.send(operations.generate, { role, pathParams: { id } });
  if (!s.check(succeeded(generated), {
    kind: 'invoice_generation_refused',
    title: 'Generating the invoice of a paid order was refused',
    message: `${operations.generate} answered ${answerText(generated)} for paid order ${id}.`,
    expected: '2xx',
    actual: statusOf(generated),
  }, generated)) return;
  // 202 means accepted: the invoice may take a moment to exist.
  let last = generated;
  const found = await eventually(async () => {
    last = await s.send(operations.get, { role, pathParams: { id } });
    return succeeded(last);
  });
  s.check(found, {
    kind: 'invoice_missing_after_generation',
    title: 'No invoice after it was generated',
    message: `${operations.get} still answers ${answerText(last)} for order ${id} after its invoice was generated.`,
    expected: '2xx',
    actual: statusOf(last),
  }, last);
}

/** Billing details change before the invoice is generated, and are refused after. */
async function billingUntilInvoice(s: ScenarioRun, role: Role, operations: { update: string; generate: string }, input: OrderInput): Promise<void> {
  const id = await paidOrder(s, input);
  const before = await s.send(operations.update, { role, pathParams: { id }, json: BILLING });
  s.check(succeeded(before), {
    kind: 'billing_update_refused_before_invoice',
    title: 'Billing details could not change before the invoice was generated',
    message: `${operations.update} answered ${answerText(before)} for order ${id}, whose invoice is not generated yet.`,
    expected: '2xx',
    actual: statusOf(before),
  }, before);
  s.require(await s.send(operations.generate, { role, pathParams: { id } }), `${operations.generate} of paid order ${id}`);
  const after = await s.send(operations.update, { role, pathParams: { id }, json: { billing_name: `${BILLING.billing_name} (changed)` } });
  s.check(refused(after), {
    kind: 'billing_update_after_invoice',
    title: 'Billing details changed after the invoice was generated',
    message: `${operations.update} answered ${answerText(after)} for order ${id}, whose invoice is generated; billing details change only before.`,
    expected: 'a 4xx',
    actual: statusOf(after),
  }, after);
}

defineScenario(suite, 'invoice_only_after_generation', (s) => invoiceAfterGeneration(s, 'admin', { get: 'orders:get_invoice', generate: 'orders:generate_invoice' }, {}));

defineScenario(suite, 'billing_details_until_invoice', (s) => billingUntilInvoice(s, 'admin', { update: 'orders:update', generate: 'orders:generate_invoice' }, {}));

defineScenario(suite, 'portal_invoice_only_after_generation', (s) =>
  invoiceAfterGeneration(s, 'customer_session', { get: 'customer_portal:orders:get_invoice', generate: 'customer_portal:orders:generate_invoice' }, { customerId: s.fixtures.customer_id! }),
);

defineScenario(suite, 'portal_billing_details_until_invoice', (s) =>
  billingUntilInvoice(s, 'customer_session', { update: 'customer_portal:orders:update', generate: 'customer_portal:orders:generate_invoice' }, { customerId: s.fixtures.customer_id! }),
);

defineScenario(suite, 'portal_isolation', async (s) => {
  const own = s.fixtures.customer_id!;
  // Another customer of the same organization: one the subscription list names.
  const listed = s.require(await s.send('subscriptions:list', { role: 'admin', query: { limit: '100' } }), 'GET /v1/subscriptions/');
  const items = Array.isArray(listed.items) ? (listed.items as Record<string, unknown>[]) : [];
  // A deleted customer (customer_deletion_cascades may have run first) can buy nothing. Whether it
  // is deleted is read from the embedded customer, trusted only where it is the subscription's own:
  // a target that embeds another customer (the embedded_customer_mismatch fault) would otherwise
  // name a deleted customer as live.
  const live = items.filter((item) => {
    const embedded = item.customer as Record<string, unknown> | undefined;
    return embedded !== undefined && embedded.id === item.customer_id && embedded.deleted_at == null;
  });
  const other = live.map((item) => item.customer_id).find((id): id is string => typeof id === 'string' && id !== own);
  if (!other) return s.skip('no other live customer than the portal customer in the first 100 subscriptions (a customer counts where a subscription embeds it as its own)');
  const { id } = await createOrder(s, { customerId: other });
  const invoiced = succeeded(await s.send('orders:get_invoice', { role: 'admin', pathParams: { id } }));
  const probes = [
    await s.send('customer_portal:orders:update', { role: 'customer_session', pathParams: { id }, json: {} }),
    await s.send('customer_portal:orders:generate_invoice', { role: 'customer_session', pathParams: { id } }),
    await s.send('customer_portal:orders:get_invoice', { role: 'customer_session', pathParams: { id } }),
  ];
  for (const probe of probes) {
    s.check(statusOf(probe) === 404, {
      kind: 'portal_foreign_order_served',
      title: "A customer session reached another customer's order",
      message: `${probe.operationId} with the customer session of customer ${own} answered ${answerText(probe)} for order ${id} of customer ${other}; another customer's order is answered like a missing one.`,
      expected: 404,
      actual: statusOf(probe),
    }, probe);
  }
  // The refused generation must not have generated anything (unless the order had an invoice before).
  const invoice = await s.send('orders:get_invoice', { role: 'admin', pathParams: { id } });
  s.check(invoiced || !succeeded(invoice), {
    kind: 'portal_foreign_order_changed',
    title: "A customer session changed another customer's order",
    message: `After the customer session of customer ${own} asked to generate the invoice of order ${id} of customer ${other}, the order has an invoice (${answerText(invoice)}).`,
    expected: 'no invoice',
    actual: statusOf(invoice),
  }, invoice);
  const keys = await s.send('customer_portal:license_keys:list', { role: 'customer_session', query: { limit: '100' } });
  const customers = [...new Set(((bodyOf(keys)?.items as Record<string, unknown>[] | undefined) ?? []).map((key) => key.customer_id))];
  s.check(customers.every((customer) => customer === own), {
    kind: 'portal_foreign_license_keys_listed',
    title: "A customer session lists other customers' license keys",
    message: `The license keys listed for the customer session of customer ${own} belong to ${JSON.stringify(customers)}.`,
    expected: [own],
    actual: customers,
  }, keys);
});

defineScenario(suite, 'receipt_fetchable', async (s) => {
  const id = s.fixtures.order_id!;
  const receipt = s.require(await s.send('orders:get_receipt', { role: 'admin', pathParams: { id } }), `GET /v1/orders/${id}/receipt of the paid fixture order_id`);
  const judged = receiptUrl(receipt, id);
  if ('finding' in judged) return s.stop(judged.finding);
  // No role and no Authorization header: a presigned URL is its own credential.
  const document = await s.fetch({ method: 'GET', url: judged.url.href, headers: { accept: '*/*' } });
  if (Object.keys(document.request.headers).some((name) => name.toLowerCase() === 'authorization')) throw new Error('receipt_fetchable sent credentials to the receipt URL');
  for (const finding of receiptDocumentFindings(document)) s.fail(finding, document);
});
