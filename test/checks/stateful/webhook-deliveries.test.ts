// The webhook-delivery judgements of the stateful scenarios: envelopes, Standard Webhooks signatures,
// and each event delivered to its subscribed, enabled endpoints only; passing cases and failing
// ones of the exact kind.
import { Webhook } from 'standardwebhooks';
import { describe, expect, test } from 'vitest';
import { envelopeOf, signatureFindings, subscriptionFindings, type EndpointDeliveries } from '../../../checks/stateful/webhook-deliveries.js';
import type { ReceivedRequest } from '../../../core/webhook-receiver.js';
import { ORDER, kinds } from './support.js';

describe('webhook deliveries', () => {
  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  const other = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
  let n = 0;
  /** A delivery as the receiver records it, signed with `key` (Standard Webhooks). */
  function delivery(type: string, timestamp = '2026-06-01T12:00:00Z', key: string | null = secret, id = ORDER): ReceivedRequest {
    const body = JSON.stringify({ type, timestamp, data: { id, status: 'paid' } });
    const messageId = `msg_${n++}`;
    const at = new Date();
    const headers: Record<string, string> = { 'webhook-id': messageId, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)) };
    if (key) headers['webhook-signature'] = new Webhook(key).sign(messageId, at, body);
    return { method: 'POST', path: '/hooks/x', headers, body, receivedAt: Date.now() };
  }
  const endpoint = (name: string, events: string[], received: ReceivedRequest[], enabled = true): EndpointDeliveries => ({ name, secret, events, enabled, received });
  const CAUSED = ['order.created', 'order.updated', 'order.paid'];

  test('envelopeOf accepts {type, timestamp, data} only', () => {
    expect(envelopeOf('{"type":"order.paid","timestamp":"2026-06-01T12:00:00Z","data":{}}')).toMatchObject({ type: 'order.paid' });
    for (const body of ['not json', '[]', '{"type":"x","timestamp":"yesterday","data":{}}', '{"type":"x","timestamp":"2026-06-01T12:00:00Z","data":[]}', '{"timestamp":"2026-06-01T12:00:00Z","data":{}}']) expect(envelopeOf(body)).toBeUndefined();
  });

  test.each<[string, ReceivedRequest[], string[]]>([
    ['signed deliveries', [delivery('order.created'), delivery('order.paid')], []],
    ['an unsigned delivery', [delivery('order.created', undefined, null)], ['webhook_signature_invalid']],
    ['a delivery signed with another key', [delivery('order.created', undefined, other)], ['webhook_signature_invalid']],
    ['a body that is no envelope', [{ ...delivery('order.created'), body: '{"hello":1}' }], ['webhook_envelope_malformed', 'webhook_signature_invalid']],
  ])('signatureFindings: %s', (_name, received, expected) => {
    expect(kinds(signatureFindings([endpoint('subscribed', CAUSED, received)]))).toEqual(expected);
  });

  test.each<[string, EndpointDeliveries[], string[]]>([
    ['each event at its subscribers only', [endpoint('subscribed', ['order.created', 'order.paid'], [delivery('order.created'), delivery('order.paid', '2026-06-01T12:00:01Z')]), endpoint('updates', ['order.updated'], [delivery('order.updated')]), endpoint('disabled', CAUSED, [], false)], []],
    ['a disabled endpoint delivered to', [endpoint('disabled', CAUSED, [delivery('order.created')], false)], ['disabled_endpoint_delivered']],
    ['an unsubscribed kind delivered', [endpoint('updates', ['order.updated'], [delivery('order.updated'), delivery('checkout.created')])], ['unsubscribed_event_delivered']],
    ['a subscribed event missing', [endpoint('subscribed', ['order.created', 'order.paid'], [delivery('order.created')])], ['subscribed_event_not_delivered']],
    ["another order's event does not count", [endpoint('updates', ['order.updated'], [delivery('order.updated', undefined, secret, 'another-order')])], ['subscribed_event_not_delivered']],
    ['order.paid stamped before order.created', [endpoint('subscribed', ['order.created', 'order.paid'], [delivery('order.paid', '2026-06-01T11:00:00Z'), delivery('order.created', '2026-06-01T12:00:00Z')])], ['order_paid_before_created']],
  ])('subscriptionFindings: %s', (_name, endpoints, expected) => {
    expect(kinds(subscriptionFindings(endpoints, ORDER, CAUSED))).toEqual(expected);
  });
});
