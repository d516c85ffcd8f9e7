/**
 * One data file of each kind of mistake, shared by the tests of the library, the control route and
 * `conformance serve --data`: each is refused with one line naming the file, the line and the field.
 */

/** A valid organization with a monthly and a one-time product and a customer; `extra` lines are appended under it. */
export function goodFile(extra = ''): string {
  return `organizations:
  - key: acme
    name: Acme
    products:
      - { key: pro, name: Pro, recurring_interval: month }
      - { key: lifetime, name: Lifetime }
    prices:
      - { product: pro, amount_type: fixed, price_amount: 1900 }
      - { product: lifetime, amount_type: fixed, price_amount: 9900 }
    customers:
      - { key: ada, id: 1c1c1c1c-0000-4000-8000-000000000001, email: ada@example.com }
${extra}`;
}

/** [what is wrong, the file's text, its line, the field (a prefix of the line's field part), the HTTP status of POST /__control/data]. */
export const BAD_FILES: readonly [string, string, number, string, number][] = [
  ['a YAML syntax error', goodFile('    subscriptions: [ { customer: ada, product: pro }\n'), 13, '(syntax)', 400],
  ['a schema violation', goodFile('    subscriptions:\n      - { customer: ada, product: pro, status: paused }\n'), 13, 'organizations[0].subscriptions[0].status', 422],
  ['an unknown reference', goodFile('    subscriptions:\n      - { customer: ada, product: pro-montly }\n'), 13, 'organizations[0].subscriptions[0].product', 422],
  ['a subscription of a one-time product', goodFile('    subscriptions:\n      - { customer: ada, product: lifetime }\n'), 13, 'organizations[0].subscriptions[0].product', 422],
  [
    'a price of another organization\'s product',
    `${goodFile()}  - name: Other Inc
    prices:
      - { product: pro, amount_type: fixed, price_amount: 100 }
`,
    14,
    'organizations[1].prices[0].product',
    422,
  ],
  ['a duplicate id', goodFile('    benefits:\n      - { id: 1c1c1c1c-0000-4000-8000-000000000001, type: custom, description: Support }\n'), 13, 'organizations[0].benefits[0].id', 422],
];
