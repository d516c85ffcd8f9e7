/**
 * Model-based commands of customers: DELETE /v1/customers/external/{external_id}, with or without
 * anonymize, of customers that have an external id and an active subscription (created through
 * the adapter at the start of each sequence when it can, else found through the subscription list,
 * the fixtures left out), deleted again, and read back: the customer's payment methods (a deleted
 * customer is gone: 404) and its subscriptions (each active one canceled and ended; with
 * anonymize, the embedded customer's personal data replaced). The model follows
 * CUSTOMER_TRANSITIONS and SUBSCRIPTION_TRANSITIONS.
 * @see spec/rules.yaml customers.delete_external, customers.delete_external.cancels_subscriptions,
 *   customers.delete_external.anonymize, errors.not_found; operation customers:delete_external
 */
import fc from 'fast-check';
import { anonymizationFindings } from '../../checks/stateful/customer-deletion.js';
import { ModelCommand } from './command.js';
import type { Family } from './family.js';
import { familyInfo } from './registry.js';
import { deletable, deletedCustomer, MAX_CUSTOMERS, pick, type CustomerModel, type CustomersModel } from './model.js';
import { answerText, bodyOf, statusOf, succeeded, type Real } from './real.js';

type Item = Record<string, unknown>;

/** What the sequence keeps of a customer: its id, external id, the customer as the subscription list showed it at the start, and its subscriptions' ids by label. */
interface CustomerData {
  id: string;
  externalId: string;
  before: Item;
  subscriptions: Record<string, string>;
}

/** The subscriptions of a customer (first 100), as the admin lists them. */
async function subscriptionsOf(real: Real, customerId: string, what?: string): Promise<{ exchange: Awaited<ReturnType<Real['send']>>; items: Item[] }> {
  const exchange = await real.send('subscriptions:list', { role: 'admin', query: { customer_id: customerId, limit: '100' } }, what);
  const items = bodyOf(exchange)?.items;
  return { exchange, items: Array.isArray(items) ? (items as Item[]) : [] };
}

const withMarker = (customer: Readonly<CustomerModel>): string => `${customer.label}${customer.state === 'deleted' ? '[deleted]' : ''}`;

/** deleteCustomer(c): deletes a live customer by its external id (2xx) with its cascade; a deleted one is a 404. */
export class DeleteCustomer extends ModelCommand<CustomersModel> {
  readonly index: number;
  readonly anonymize: boolean;
  constructor(index: number, anonymize: boolean) {
    super();
    this.index = index;
    this.anonymize = anonymize;
  }
  protected get name(): string {
    return `deleteCustomer(#${this.index}${this.anonymize ? ', anonymize' : ''})`;
  }
  check(model: Readonly<CustomersModel>): boolean {
    return model.customers.length > 0;
  }
  describe(model: Readonly<CustomersModel>): string {
    const customer = pick(model.customers, this.index)!;
    return `deleteCustomer(${customer.label}${this.anonymize ? ', anonymize' : ''})${customer.state === 'deleted' ? '[deleted]' : ''}`;
  }
  protected async execute(model: CustomersModel, real: Real): Promise<void> {
    const at = model.customers.indexOf(pick(model.customers, this.index)!);
    const customer = model.customers[at]!;
    const live = deletable(customer);
    if (live) model.customers[at] = deletedCustomer(customer, this.anonymize);
    const data = real.data.get(customer.label) as CustomerData;
    const deleted = await real.send('customers:delete_external', { role: 'admin', pathParams: { external_id: data.externalId }, query: this.anonymize ? { anonymize: 'true' } : {} });
    if (!live) {
      real.expect(statusOf(deleted) === 404 && bodyOf(deleted)?.error === 'ResourceNotFound', {
        rule: 'customers.delete_external',
        kind: 'deleted_customer_found',
        title: 'A deleted customer can be deleted again',
        message: `DELETE /v1/customers/external/{external_id} of customer ${customer.label}, already deleted, answered ${answerText(deleted)}; the customer is gone and must be answered 404 ResourceNotFound.`,
        expected: '404 ResourceNotFound',
        actual: statusOf(deleted),
      }, deleted);
      return;
    }
    if (real.expect(succeeded(deleted), {
      rule: 'customers.delete_external',
      kind: 'deletion_refused',
      title: 'Deleting a customer by external id was refused',
      message: `DELETE /v1/customers/external/{external_id} of customer ${customer.label} answered ${answerText(deleted)} for a customer that exists.`,
      expected: '200 or 204',
      actual: statusOf(deleted),
    }, deleted)) real.transition('customer', customer.state, model.customers[at]!.state);
  }
}

/** getCustomer(c): the customer's payment methods: 200 while it lives, 404 once deleted. */
export class GetCustomer extends ModelCommand<CustomersModel> {
  readonly index: number;
  constructor(index: number) {
    super();
    this.index = index;
  }
  protected get name(): string {
    return `getCustomer(#${this.index})`;
  }
  check(model: Readonly<CustomersModel>): boolean {
    return model.customers.length > 0;
  }
  describe(model: Readonly<CustomersModel>): string {
    return `getCustomer(${withMarker(pick(model.customers, this.index)!)})`;
  }
  protected async execute(model: CustomersModel, real: Real): Promise<void> {
    const customer = pick(model.customers, this.index)!;
    const data = real.data.get(customer.label) as CustomerData;
    const got = await real.send('customers:list_payment_methods', { role: 'admin', pathParams: { id: data.id } });
    const gone = customer.state === 'deleted';
    real.expect(gone ? statusOf(got) === 404 : statusOf(got) === 200, {
      rule: 'customers.delete_external',
      kind: gone ? 'deleted_customer_found' : 'live_customer_not_found',
      title: gone ? 'A deleted customer is still found' : 'A customer that was not deleted is not found',
      message: `GET /v1/customers/{id}/payment-methods of customer ${customer.label}${gone ? ', deleted,' : ''} answered ${answerText(got)}.`,
      expected: gone ? '404 ResourceNotFound' : 200,
      actual: statusOf(got),
    }, got);
  }
}

/** listSubscriptions(c): a deleted customer's subscriptions that were active are canceled and ended; with anonymize its personal data is replaced. */
export class ListSubscriptions extends ModelCommand<CustomersModel> {
  readonly index: number;
  constructor(index: number) {
    super();
    this.index = index;
  }
  protected get name(): string {
    return `listSubscriptions(#${this.index})`;
  }
  check(model: Readonly<CustomersModel>): boolean {
    return model.customers.length > 0;
  }
  describe(model: Readonly<CustomersModel>): string {
    return `listSubscriptions(${withMarker(pick(model.customers, this.index)!)})`;
  }
  protected async execute(model: CustomersModel, real: Real): Promise<void> {
    const customer = pick(model.customers, this.index)!;
    const data = real.data.get(customer.label) as CustomerData;
    const { exchange, items } = await subscriptionsOf(real, data.id);
    // A live customer's subscriptions may change for reasons the description does not list: only a deletion's are judged.
    if (customer.state !== 'deleted') return;
    for (const subscription of customer.subscriptions) {
      if (subscription.status === 'unknown') continue;
      const shown = items.find((item) => item.id === data.subscriptions[subscription.label]);
      // A subscription the list no longer shows cannot be judged.
      if (!shown) continue;
      if (real.expect(shown.status === subscription.status && shown.ended_at != null, {
        rule: 'customers.delete_external.cancels_subscriptions',
        kind: 'subscription_not_canceled',
        title: "A deleted customer's active subscription is not canceled immediately",
        message: `Subscription ${subscription.label} of customer ${customer.label} was active; after the customer was deleted it has status ${JSON.stringify(shown.status)} and ended_at ${JSON.stringify(shown.ended_at)}.`,
        expected: { status: subscription.status, ended_at: 'a date-time' },
        actual: { status: shown.status, ended_at: shown.ended_at },
      }, exchange)) real.transition('subscription', 'active', subscription.status);
    }
    const embedded = items.map((item) => item.customer).find((c): c is Item => typeof c === 'object' && c !== null);
    if (!customer.anonymized || !embedded) return;
    const [finding] = anonymizationFindings(data.before, embedded);
    real.expect(finding === undefined, { rule: 'customers.delete_external.anonymize', kind: 'personal_data_kept', title: finding?.title ?? '', message: `${finding?.message ?? ''} (customer ${customer.label})`, expected: finding?.expected, actual: finding?.actual }, exchange);
  }
}

/** Statuses of the subscriptions each created customer gets: one the deletion must cancel, one it may or may not end (not judged). */
const CREATED_STATUSES = ['active', 'trialing'] as const;

/**
 * Customers of the sequence's own, created through the adapter, each with an external id and a
 * subscription in each of {@link CREATED_STATUSES}.
 */
async function createdCustomers(real: Real): Promise<CustomersModel> {
  const customers: CustomerModel[] = [];
  for (let n = 1; n <= MAX_CUSTOMERS; n++) {
    const label = `c${n}`;
    const created = await real.adapterCall('createCustomer', {});
    if (typeof created?.id !== 'string' || typeof created.external_id !== 'string') continue;
    const subscriptions: Record<string, string> = {};
    const model: CustomerModel = { label, state: 'active', anonymized: false, subscriptions: [] };
    for (const status of CREATED_STATUSES) {
      const subscription = await real.adapterCall('createSubscription', { customerId: created.id, status });
      if (typeof subscription?.id !== 'string') continue;
      const sub = `${label}.sub${model.subscriptions.length + 1}`;
      subscriptions[sub] = subscription.id;
      model.subscriptions.push({ label: sub, status: status === 'active' ? 'active' : 'unknown' });
    }
    real.data.set(label, { id: created.id, externalId: created.external_id, before: created, subscriptions } satisfies CustomerData);
    customers.push(model);
  }
  return { customers };
}

/** Fixtures that other scenarios build on, never deleted here. */
const KEPT_FIXTURES = ['customer_id', 'other_customer_id'];

/**
 * The customers family: up to {@link MAX_CUSTOMERS} customers with an external id and an active
 * subscription per sequence, created through the adapter when it can, else found among the
 * target's (the fixtures left out).
 */
export const customersFamily: Family<CustomersModel> = {
  ...familyInfo('customers'),
  // Without an adapter that creates customers, each sequence deletes up to MAX_CUSTOMERS of the target's for good.
  maxSequences: 5,
  commands() {
    const index = fc.nat({ max: MAX_CUSTOMERS - 1 });
    return [
      fc.tuple(index, fc.boolean()).map(([i, anonymize]) => new DeleteCustomer(i, anonymize)),
      index.map((i) => new GetCustomer(i)),
      index.map((i) => new ListSubscriptions(i)),
    ];
  },
  async setup(real) {
    if (real.can('createCustomer') && real.can('createSubscription')) return createdCustomers(real);
    const { fixtures } = real.env.target;
    const kept = new Set(KEPT_FIXTURES.map((name) => fixtures[name]).filter(Boolean));
    const listed = await real.send('subscriptions:list', { role: 'admin', query: { status: 'active', limit: '100' } });
    const items = bodyOf(listed)?.items;
    const chosen = new Map<string, Item>();
    for (const subscription of Array.isArray(items) ? (items as Item[]) : []) {
      const c = subscription.customer as Item | undefined;
      if (!c || typeof c.id !== 'string' || typeof c.external_id !== 'string' || c.deleted_at != null) continue;
      if (kept.has(c.id) || c.external_id === fixtures.customer_external_id || chosen.has(c.id)) continue;
      if (chosen.size < MAX_CUSTOMERS) chosen.set(c.id, c);
    }
    const customers: CustomerModel[] = [];
    for (const [id, before] of chosen) {
      const label = `c${customers.length + 1}`;
      const { items: owned } = await subscriptionsOf(real, id);
      const subscriptions = owned.filter((s) => typeof s.id === 'string').map((s, i) => ({ label: `${label}.sub${i + 1}`, id: s.id as string, status: s.status }));
      real.data.set(label, { id, externalId: before.external_id as string, before, subscriptions: Object.fromEntries(subscriptions.map((s) => [s.label, s.id])) } satisfies CustomerData);
      customers.push({ label, state: 'active', anonymized: false, subscriptions: subscriptions.map((s) => ({ label: s.label, status: s.status === 'active' ? 'active' : 'unknown' })) });
    }
    return { customers };
  },
  async readBack(model, real) {
    for (const customer of model.customers) {
      const data = real.data.get(customer.label) as CustomerData;
      await real.send('customers:list_payment_methods', { role: 'admin', pathParams: { id: data.id } }, `read back: ${customer.label}`);
      await subscriptionsOf(real, data.id, `read back: subscriptions of ${customer.label}`);
    }
  },
};
