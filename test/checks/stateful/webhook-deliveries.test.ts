// The webhook-delivery judgements of the stateful scenarios: envelopes, Standard Webhooks signatures,
// and each event delivered to its subscribed, enabled endpoints only; passing cases and failing
// ones of the exact kind.
import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { envelopeOf, signatureFindings, signatureProblems, subscriptionFindings, type EndpointDeliveries } from '../../../checks/stateful/webhook-deliveries.js';
import type { ReceivedRequest } from '../../../core/webhook-receiver.js';
import { ORDER, kinds } from './support.js';

describe('webhook deliveries', () => {
  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  const other = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
  let n = 0;
  /** A delivery as the receiver records it, signed as the platform signs (HMAC keyed with the UTF-8 bytes of `key`, computed with node:crypto). */
  function delivery(type: string, timestamp = '2026-06-01T12:00:00Z', key: string | null = secret, id = ORDER): ReceivedRequest {
    const body = JSON.stringify({ type, timestamp, data: { id, status: 'paid' } });
    const messageId = `msg_${n++}`;
    const at = Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = { 'webhook-id': messageId, 'webhook-timestamp': String(at) };
    if (key) headers['webhook-signature'] = `v1,${createHmac('sha256', Buffer.from(key, 'utf8')).update(`${messageId}.${at}.${body}`).digest('base64')}`;
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

describe('signatureProblems: as the platform\'s verifiers judge (UTF-8 key, wall clock at receipt)', () => {
  // The Standard Webhooks specification's example message (https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md):
  // its published signature is keyed with the base64-decoded secret; the platform's is keyed with the secret's UTF-8 bytes.
  const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const TIMESTAMP = 1614265330;
  const BODY = '{"test": 2432232314}';
  const DECODED_KEY_SIGNATURE = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
  const SIGNATURE = `v1,${createHmac('sha256', Buffer.from(SECRET, 'utf8')).update(`${ID}.${TIMESTAMP}.${BODY}`).digest('base64')}`;
  const OTHER = `v1,${Buffer.alloc(32, 1).toString('base64')}`;
  const headers = { 'webhook-id': ID, 'webhook-timestamp': String(TIMESTAMP), 'webhook-signature': SIGNATURE };
  const received = (h: Record<string, string>, body = BODY, receivedAt = TIMESTAMP * 1000): ReceivedRequest => ({ method: 'POST', path: '/hooks/x', headers: h, body, receivedAt });
  const arrived = TIMESTAMP * 1000;

  test.each<[string, Record<string, string>, string, number, string[]]>([
    ['signed with the UTF-8 key, received at once', headers, BODY, arrived, []],
    ['header names in another case', { 'Webhook-Id': ID, 'Webhook-Timestamp': String(TIMESTAMP), 'Webhook-Signature': SIGNATURE }, BODY, arrived, []],
    ['several signatures of which one is valid (key rotation)', { ...headers, 'webhook-signature': `${OTHER} ${SIGNATURE} v2,abc` }, BODY, arrived, []],
    ['received 4 minutes 59 s after signing (inside the 5-minute window)', headers, BODY, arrived + 299_000, []],
    ['the published vector: keyed with the decoded secret, accepted only by the 1.x fallback', { ...headers, 'webhook-signature': DECODED_KEY_SIGNATURE }, BODY, arrived, ['webhook_signed_with_decoded_key']],
    ['no webhook-signature header', { 'webhook-id': ID, 'webhook-timestamp': String(TIMESTAMP) }, BODY, arrived, ['webhook_signature_invalid']],
    ['no webhook-id header', { 'webhook-timestamp': String(TIMESTAMP), 'webhook-signature': SIGNATURE }, BODY, arrived, ['webhook_signature_invalid']],
    ['no webhook-timestamp header', { 'webhook-id': ID, 'webhook-signature': SIGNATURE }, BODY, arrived, ['webhook_signature_invalid']],
    ['a timestamp that is not an integer', { ...headers, 'webhook-timestamp': '1614265330.5' }, BODY, arrived, ['webhook_timestamp_not_current']],
    ['received 6 minutes after signing (too old)', headers, BODY, arrived + 360_000, ['webhook_timestamp_not_current']],
    ['stamped a day ahead of the wall clock, as by a test clock (too new)', headers, BODY, arrived - 86_400_000, ['webhook_timestamp_not_current']],
    ['only other signatures', { ...headers, 'webhook-signature': OTHER }, BODY, arrived, ['webhook_signature_invalid']],
    ['the signature without its v1 version', { ...headers, 'webhook-signature': SIGNATURE.slice(3) }, BODY, arrived, ['webhook_signature_invalid']],
    ['a body changed by one byte', headers, '{"test": 2432232315}', arrived, ['webhook_signature_invalid']],
    ['another message id', { ...headers, 'webhook-id': 'msg_other' }, BODY, arrived, ['webhook_signature_invalid']],
  ])('%s', (_name, h, body, receivedAt, want) => {
    expect(signatureProblems(SECRET, received(h, body, receivedAt)).map((p) => p.kind)).toEqual(want);
  });

  test('no offset is granted to a target\'s clock: a delivery stamped with a test clock a month ahead fails, however its signature verifies', () => {
    const month = 30 * 86_400_000;
    const delivery = received(headers, BODY, arrived - month);
    expect(kinds(signatureFindings([{ name: 'ahead', secret: SECRET, events: [], enabled: true, received: [delivery] }])).filter((kind) => kind !== 'webhook_envelope_malformed')).toEqual(['webhook_timestamp_not_current']);
  });
});
