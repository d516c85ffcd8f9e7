// The README's recipe "Test a renewal in 10 lines", run as written: the lines between the markers
// below are the README's code block (its imports name the packages: here the source, and the
// platform's SDK under its dev-dependency alias polar-sdk-1), and the last test keeps the two the same.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { webhooks } from 'polar-sdk-1/2026-10';
import { startReferenceServer, startWebhookReceiver } from '../../index.js';

// recipe:start
test('a subscription renews a month later: a paid subscription_cycle order, its webhook verified by the platform SDK', async () => {
  const reference = await startReferenceServer({ clock: () => new Date('2027-01-31T09:00:00Z') }); // a test clock
  const hooks = await startWebhookReceiver();
  const created = reference.control.createClockSubscription({ customer_id: reference.fixtures.customer_id! });
  const endpoint = reference.control.createWebhookEndpoint({ url: hooks.urlFor('billing'), events: ['order.paid'] });
  if (!created.ok || !endpoint.ok) throw new Error('cannot start the subscription or register the endpoint');
  reference.control.advanceClock(28 * 24 * 3600 * 1000); // 28 February: the period ends, the subscription renews
  await hooks.waitFor((received) => received.length > 0, 5000);
  const { body, headers } = hooks.received[0]!; // verified as your app verifies it: the platform's validateEvent
  const paid = await webhooks.validateEvent(body, headers, String(endpoint.value.secret)); // {type: 'order.paid', timestamp, data}
  const order = await (await fetch(`${reference.url}/v1/orders/${paid.data.id}`, { headers: { authorization: `Bearer ${reference.credentials.admin}` } })).json();
  expect(order).toMatchObject({ billing_reason: 'subscription_cycle', status: 'paid', subscription_id: created.value.id });
  await hooks.close();
  await reference.close();
});
// recipe:end

test('the README shows this recipe as it is run here', () => {
  const own = readFileSync(fileURLToPath(import.meta.url), 'utf8');
  const body = own.slice(own.indexOf('// recipe:start\n') + '// recipe:start\n'.length, own.indexOf('// recipe:end'));
  const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
  const section = readme.slice(readme.indexOf('### Test a renewal in 10 lines'));
  const block = section.slice(section.indexOf('```ts\n') + '```ts\n'.length, section.indexOf('\n```', section.indexOf('```ts\n')));
  expect(block).toBe(`import { webhooks } from '@polar-sh/sdk/2026-10';\nimport { expect, test } from 'vitest';\nimport { startReferenceServer, startWebhookReceiver } from 'billing-api-conformance';\n\n${body.trimEnd()}`);
});
