import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectConforms, testServer, type TestServer } from '../../support.js';

let server: TestServer;

beforeAll(async () => {
  server = await testServer({ clock: () => new Date('2026-06-01T12:00:00Z') });
});

beforeEach(() => {
  server.control.reset();
});

function invite(input: Parameters<TestServer['control']['createSeatInvitation']>[0] = {}) {
  const invited = server.control.createSeatInvitation(input);
  if (!invited.ok) throw new Error(invited.error.message);
  return invited.value;
}

const claim = (token: unknown) => server.send('POST', '/v1/customer-seats/claim', { as: null, json: { invitation_token: token } });

describe('customer_seats:claim', () => {
  it('claims the seat for a new member and opens a customer session of the seat\'s customer', async () => {
    const { seat, invitation_token } = invite({ email: 'new.member@example.com' });
    expect(seat).toMatchObject({ status: 'pending', member: null, claimed_at: null });
    const response = await claim(invitation_token);
    expect(response.statusCode).toBe(200);
    expectConforms(server, 'customer_seats:claim', response);
    const body = response.json();
    expect(body.seat).toMatchObject({ id: seat.id, status: 'claimed', claimed_at: '2026-06-01T12:00:00.000000Z', email: 'new.member@example.com' });
    expect(body.seat.member).toMatchObject({ email: 'new.member@example.com', role: 'member', customer_id: seat.customer_id });
    expect(body.seat.member_id).toBe(body.seat.member.id);
    expect(body.customer_session_token).toMatch(/^polar_cst_/);
    expect(JSON.stringify(body)).not.toContain(invitation_token);
    expect(server.control.events('customer_seat.claimed').map((e) => e.data.id)).toEqual([seat.id]);
  });

  it('gives a session token that works on the portal for that customer only', async () => {
    const { seat, invitation_token } = invite();
    const token = (await claim(invitation_token)).json().customer_session_token;
    const keys = await server.send('GET', '/v1/customer-portal/license-keys/', { token });
    expect(keys.statusCode).toBe(200);
    expect(keys.json().items.every((key: { customer_id: string }) => key.customer_id === seat.customer_id)).toBe(true);
    const organizationId = server.store.seats.get(seat.id as string)!.organization_id;
    const otherOrder = [...server.store.orders.all()].find((o) => o.organization_id === organizationId && o.customer_id !== seat.customer_id && o.status === 'paid')!;
    expect((await server.send('POST', `/v1/customer-portal/orders/${otherOrder.id}/invoice`, { token })).statusCode).toBe(404);
    const ownOrder = server.store.orders.lookup('customer_id', seat.customer_id as string).find((o) => o.status === 'paid');
    // Reading is enough to show the token works (generating an invoice also needs the order's billing details).
    if (ownOrder) expect((await server.send('GET', `/v1/customer-portal/orders/${ownOrder.id}`, { token })).statusCode).toBe(200);
    expect((await server.send('GET', `/v1/customer-portal/orders/${otherOrder.id}`, { token })).statusCode).toBe(404);
    expect((await server.send('GET', '/v1/products/', { token })).statusCode).toBe(403);
    server.control.advanceClock(60 * 60 * 1000);
    expect((await server.send('GET', '/v1/customer-portal/license-keys/', { token })).statusCode).toBe(401);
  });

  it('is single use: a second claim is 422 and changes nothing', async () => {
    const { invitation_token } = invite();
    expect((await claim(invitation_token)).statusCode).toBe(200);
    const members = server.store.members.size;
    const events = server.store.events.length;
    const tokens = server.store.tokens.length;
    const again = await claim(invitation_token);
    expect(again.statusCode).toBe(422);
    expectConforms(server, 'customer_seats:claim', again);
    expect(again.json()).toEqual({ detail: [{ loc: ['body', 'invitation_token'], msg: 'The invitation token is invalid or has already been used.', type: 'invitation_invalid' }] });
    expect([server.store.members.size, server.store.events.length, server.store.tokens.length]).toEqual([members, events, tokens]);
  });

  it('refuses an expired invitation, by the server clock, and the seat stays pending', async () => {
    const { seat, invitation_token } = invite({ expires_in_seconds: 60 });
    server.control.advanceClock(60_000);
    const response = await claim(invitation_token);
    expect(response.statusCode).toBe(422);
    expect(response.json().detail[0]).toMatchObject({ loc: ['body', 'invitation_token'], type: 'invitation_expired' });
    expect(server.store.seats.get(seat.id as string)!.status).toBe('pending');
  });

  it('refuses the token of a revoked seat', async () => {
    const { seat, invitation_token } = invite();
    const subscription = server.store.subscriptions.get(seat.subscription_id as string)!;
    const external = server.store.customers.get(subscription.customer_id)!.external_id;
    if (external === null) return;
    await server.send('DELETE', `/v1/customers/external/${external}`);
    expect(server.store.seats.get(seat.id as string)!.status).toBe('revoked');
    expect((await claim(invitation_token)).statusCode).toBe(422);
  });

  it.each<[string, unknown]>([
    ['an unknown token', 'polar_cst_inv_nope'],
    ['an empty token', ''],
    ['a number', 42],
    ['null', null],
  ])('refuses %s with 422 at invitation_token', async (_name, token) => {
    const response = await claim(token);
    expect(response.statusCode).toBe(422);
    expectConforms(server, 'customer_seats:claim', response);
    expect(response.json().detail[0].loc).toEqual(['body', 'invitation_token']);
  });

  it('takes no credentials: a bearer token is ignored', async () => {
    const { invitation_token } = invite();
    const response = await server.send('POST', '/v1/customer-seats/claim', { as: 'admin', json: { invitation_token } });
    expect(response.statusCode).toBe(200);
  });
});
