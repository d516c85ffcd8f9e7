import { describe, expect, it } from 'vitest';
import { findToken } from '../../../server/auth.js';
import { loadData } from '../../../server/data/load.js';
import { dataValue, describeProblem, readDataText } from '../../../server/data/read.js';

const NOW = '2027-03-15T12:00:00Z';
const clock = () => new Date(NOW);

/** A file of one organization with a monthly and a one-time product, a customer and a subscription; `extra` is appended under the organization. */
function file(extra = ''): string {
  return `organizations:
  - key: acme
    name: Acme
    tokens:
      - token: polar_oat_acme_dev_token
    benefits:
      - { key: license, type: license_keys, description: CLI license }
    products:
      - { key: pro, name: Pro, recurring_interval: month, benefits: [license] }
      - { key: lifetime, name: Lifetime }
    prices:
      - { product: pro, amount_type: fixed, price_amount: 1900 }
      - { product: lifetime, amount_type: fixed, price_amount: 9900 }
    customers:
      - { key: ada, email: ada@example.com, external_id: user_1 }
    subscriptions:
      - { key: ada-pro, customer: ada, product: pro, started_at: -P40D }
${extra}`;
}

function load(text: string) {
  const read = readDataText('data.yaml', text);
  if (!read.ok) throw new Error(describeProblem(read.error));
  return loadData(read.value, { clock });
}

function problem(text: string): string {
  const loaded = load(text);
  if (loaded.ok) throw new Error('expected a problem');
  return describeProblem(loaded.error[0]!);
}

describe('loadData', () => {
  it('makes every record with the store\'s functions, keeps given ids and registers the file\'s tokens', () => {
    const loaded = load(file(`    orders:
      - { id: 0F1E2D3C-4B5A-4978-8695-A4B3C2D1E0F9, customer: ada, product: lifetime, created_at: -P2D }
    license_keys:
      - { customer: ada, benefit: license, key: ACME-1 }
`));
    if (!loaded.ok) throw new Error(loaded.error.map(describeProblem).join('\n'));
    const { store, counts, tokens, seeding } = loaded.value;
    expect(counts).toMatchObject({ organizations: 1, tokens: 1, benefits: 1, products: 2, prices: 2, customers: 1, subscriptions: 1, orders: 1, license_keys: 1, webhook_endpoints: 0 });
    expect(tokens).toEqual([{ organization: 'Acme', token: 'polar_oat_acme_dev_token' }]);
    const organization = [...store.organizations.all()][0]!;
    expect(findToken(store, 'polar_oat_acme_dev_token')?.organizationIds).toEqual([organization.id]);
    const order = store.orders.get('0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9')!;
    expect(order).toMatchObject({ status: 'paid', billing_reason: 'purchase', created_at: '2027-03-13T12:00:00.000000Z', total_amount: 11880 });
    // A license key's `key` is the key itself (not a name of the record, as elsewhere).
    expect([...store.licenseKeys.all()].map((key) => key.key)).toEqual(['ACME-1']);
    const subscription = [...store.subscriptions.all()][0]!;
    // Started 40 days ago on a monthly product: its second period holds now.
    expect(subscription).toMatchObject({ status: 'active', current_period_start: '2027-03-03T12:00:00.000000Z', current_period_end: '2027-04-03T12:00:00.000000Z' });
    // The harness's organization A is the file's first; its fixtures are the first records.
    expect(seeding.demo.organizations.a).toBe(organization.id);
    expect(seeding.demo.fixtures).toMatchObject({ organization_id: organization.id, subscription_id: subscription.id, order_id: order.id });
    // A state, not a history: the records' events stay in the new store's log, which the server does not move.
    expect(store.events.length).toBeGreaterThan(0);
  });

  it('gives the same generated ids for the same file and seed', () => {
    const ids = () => {
      const loaded = load(file());
      if (!loaded.ok) throw new Error('not loaded');
      return [...loaded.value.store.products.all()].map((product) => product.id);
    };
    expect(ids()).toEqual(ids());
  });

  it.each<[string, string, string]>([
    ['an unknown reference, with the nearest key', file('    orders:\n      - { customer: ada, product: lifetim }\n'), 'data.yaml:19:35: organizations[0].orders[0].product: unknown product lifetim (did you mean lifetime?)'],
    ['a reference to a record of another kind', file('    orders:\n      - { customer: ada, product: ada-pro }\n'), 'data.yaml:19:35: organizations[0].orders[0].product: unknown product ada-pro; the file\'s products are pro, lifetime'],
    ['a subscription of a one-time product', file('      - { customer: ada, product: lifetime }\n'), 'data.yaml:18:35: organizations[0].subscriptions[1].product: Product'],
    ['a duplicate id', file('      - { id: 0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9, customer: ada, product: pro }\n      - { id: 0F1E2D3C-4B5A-4978-8695-A4B3C2D1E0F9, customer: ada, product: pro }\n'), 'data.yaml:19:15: organizations[0].subscriptions[2].id: duplicate id 0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9: it is also the id of organizations[0].subscriptions[1] (line 18)'],
    ['a key given twice in a kind', file('      - { key: ada-pro, customer: ada, product: pro }\n'), 'data.yaml:18:16: organizations[0].subscriptions[1].key: the key ada-pro is also the key of organizations[0].subscriptions[0] (line 17): keys are unique among the subscriptions'],
    ['an active period that does not fit the product\'s interval', file('      - { customer: ada, product: pro, current_period_start: -P10D, current_period_end: +P10D }\n'), 'data.yaml:18:89: organizations[0].subscriptions[1].current_period_end: current_period_end must be one month after current_period_start (2027-04-05T12:00:00.000000Z), as product Pro bills every month.'],
    ['seats on a product without a seat price', file('      - { customer: ada, product: pro, seats: 3 }\n'), 'data.yaml:18:47: organizations[0].subscriptions[1].seats: Product'],
    ['a day that does not exist', file('      - { customer: ada, product: pro, started_at: 2027-02-30T00:00:00Z }\n'), 'data.yaml:18:52: organizations[0].subscriptions[1].started_at: "2027-02-30T00:00:00Z" is not an RFC 3339 date-time'],
    ['a token given twice', file().replace('      - token: polar_oat_acme_dev_token\n', '      - token: polar_oat_acme_dev_token\n      - token: polar_oat_acme_dev_token\n'), 'data.yaml:6:16: organizations[0].tokens[1].token: This token is already registered'],
  ])('refuses %s, naming the file, the line and the field', (_name, text, want) => {
    expect(problem(text)).toContain(want);
  });

  it('refuses a price of another organization\'s product', () => {
    const text = `${file()}  - key: other
    name: Other Inc
    prices:
      - { product: pro, amount_type: fixed, price_amount: 100 }
`;
    expect(problem(text)).toMatch(/^data\.yaml:21:20: organizations\[1\]\.prices\[0\]\.product: Product [0-9a-f-]+ \(Pro\) belongs to Acme \([0-9a-f-]+\), not to Other Inc \([0-9a-f-]+\): a price cannot be a price of another organization's product\.$/);
  });

  it('refuses a subscription listed under another organization than its customer\'s', () => {
    const text = `${file()}  - name: Other Inc
    subscriptions:
      - { customer: ada, product: pro }
`;
    expect(problem(text)).toMatch(/^data\.yaml:20:21: organizations\[1\]\.subscriptions\[0\]\.customer: Customer [0-9a-f-]+ belongs to another organization/);
  });

  it('gives every schema problem at once, before any store rule', () => {
    const loaded = load('organizations:\n  - name: Acme\n    products: [{ name: Pro, recurring_interval: monthly }]\n    customers: [{ name: Ada }]\n');
    expect(!loaded.ok && loaded.error.map((p) => p.field)).toEqual(['organizations[0].products[0].recurring_interval', 'organizations[0].customers[0].email']);
  });

  it('loads a value without lines, naming the field alone', () => {
    const loaded = loadData(dataValue('data option', { organizations: [{ name: 'Acme', products: [{ key: 'x', name: 'X' }], subscriptions: [] , customers: [{ key: 'c', email: 'c@example.com' }], prices: [{ product: 'premium', amount_type: 'fixed', price_amount: 1 }] }] }), { clock });
    expect(!loaded.ok && describeProblem(loaded.error[0]!)).toBe('data option: organizations[0].prices[0].product: unknown product premium; the file\'s products are x');
  });
});
