import { beforeAll, describe, expect, it } from 'vitest';
import type { SecurityRequirement } from '../../core/spec/load.js';
import { ALL_SCOPES, READ_SCOPES, authorize, issueToken, type Principal } from '../../server/auth.js';
import { resolveFaults } from '../../server/faults.js';
import { expectConforms, ids, testServer, type TestServer } from './support.js';

let server: TestServer;

beforeAll(async () => {
  server = await testServer();
});

const LISTS = [
  ['/v1/products/', 'products:list'],
  ['/v1/subscriptions/', 'subscriptions:list'],
] as const;

describe('authentication', () => {
  const unauthorized = [
    ['no Authorization header', undefined, 'Missing credentials: send an Authorization: Bearer <token> header.'],
    ['an empty header', '', 'Missing credentials: send an Authorization: Bearer <token> header.'],
    ['another scheme', 'Basic dXNlcjpwYXNz', 'Malformed Authorization header: expected "Bearer <token>".'],
    ['Bearer without a token', 'Bearer', 'Malformed Authorization header: expected "Bearer <token>".'],
    ['an unknown token', 'Bearer oat_demo_admin_0000000000000000000000000000000000000000', 'Invalid or expired token.'],
  ] as const;
  describe.each(LISTS)('%s', (path, operationId) => {
    it.each(unauthorized)('answers 401 for %s', async (_name, header, detail) => {
      const response = await server.app.inject({ url: path, headers: header === undefined ? {} : { authorization: header } });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Unauthorized', detail });
      expect(response.headers['www-authenticate']).toBe('Bearer');
      expectConforms(server, operationId, response);
    });

    it('answers 403 NotPermitted for a token without the scope (no_scope)', async () => {
      const response = await server.get(path, {}, 'no_scope');
      expect(response.statusCode).toBe(403);
      const scope = operationId.split(':')[0];
      expect(response.json()).toEqual({
        error: 'NotPermitted',
        detail: `The token lacks the scope this operation requires: one of ${scope}:read, ${scope}:write.`,
      });
      expectConforms(server, operationId, response);
    });

    it('answers 403 NotPermitted for a token kind the operation does not accept (oidc)', async () => {
      const response = await server.get(path, {}, 'oidc');
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ error: 'NotPermitted', detail: 'This operation does not accept oidc tokens; it accepts pat, oat.' });
    });

    it.each(['customer_session', 'member_session'] as const)('answers 403 NotPermitted for a %s token', async (role) => {
      const response = await server.get(path, {}, role);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ error: 'NotPermitted', detail: `This operation does not accept ${role} tokens; it accepts pat, oat.` });
    });

    it.each(['admin', 'reader', 'pat', 'other_org'] as const)('serves %s', async (role) => {
      const response = await server.get(path, {}, role);
      expect(response.statusCode).toBe(200);
    });

    it('answers 401 before validating the query', async () => {
      const response = await server.get(path, { limit: 'abc' }, null);
      expect(response.statusCode).toBe(401);
    });

    it('is case-insensitive in the scheme name', async () => {
      const response = await server.app.inject({ url: path, headers: { authorization: `bearer ${server.tokens.admin}` } });
      expect(response.statusCode).toBe(200);
    });
  });
});

describe('tenancy', () => {
  it.each(LISTS)('other_org never sees organization A records on %s', async (path) => {
    const own = ids((await server.all(path, {}, 'admin')).items);
    const other = await server.all(path, {}, 'other_org');
    expect(other.items.length).toBeGreaterThan(0);
    // Subscriptions carry no organization_id of their own; their product and customer do.
    const organizationOf = (item: any) => item.organization_id ?? item.product.organization_id;
    expect(other.items.every((item) => organizationOf(item) === server.fixtures.other_organization_id)).toBe(true);
    expect(ids(other.items).filter((id) => own.includes(id))).toEqual([]);
  });

  it.each(LISTS)('an organization_id filter naming another organization matches nothing on %s', async (path) => {
    const response = await server.get(path, { organization_id: server.fixtures.organization_id! }, 'other_org');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ items: [], pagination: { total_count: 0, max_page: 0 } });
  });

  it('an id filter naming another organization\'s product matches nothing', async () => {
    const response = await server.get('/v1/products/', { id: server.fixtures.other_product_id! }, 'admin');
    expect(response.json().pagination.total_count).toBe(0);
  });
});

describe('demo tokens', () => {
  it('are deterministic per seed and differ between seeds', async () => {
    const again = await testServer();
    const other = await testServer({ seed: 2 });
    expect(again.tokens).toEqual(server.tokens);
    expect(other.tokens.admin).not.toBe(server.tokens.admin);
    expect(server.tokens.admin).toMatch(/^oat_demo_admin_[0-9a-f]{40}$/);
    const { admin, reader, writer, no_scope, other_org, pat, customer_session, member_session, portal_no_scope } = server.tokens;
    expect(server.credentials).toEqual({ admin, reader, writer, no_scope, other_org, pat, customer_session, member_session, portal_no_scope });
  });

  it('the writer token is served where a write scope suffices and refused where only a read scope does', async () => {
    expect((await server.get('/v1/products/', {}, 'writer')).statusCode).toBe(200);
    expect((await server.get(`/v1/orders/${server.fixtures.order_id}/receipt`, {}, 'writer')).statusCode).toBe(403);
  });

  it('the store keeps digests, never the secrets', () => {
    const stored = JSON.stringify(server.store.tokens.map((t) => ({ ...t, digest: t.digest.toString('hex') })));
    for (const token of Object.values(server.tokens)) expect(stored).not.toContain(token);
  });
});

describe('token lifetimes', () => {
  it('an expired, revoked or deleted customer\'s token answers 401 like an unknown one', async () => {
    const own = await testServer();
    const now = own.store.clock().getTime();
    const principal = { kind: 'oat' as const, subject: 's', organizationIds: [own.fixtures.organization_id!], scopes: new Set(ALL_SCOPES) };
    const { token: expiring } = issueToken(own.store, 'test', principal, { expiresAtMs: now + 1000 });
    const { token: revoked, record } = issueToken(own.store, 'test', principal);
    record.revoked = true;
    expect((await own.send('GET', '/v1/products/', { token: expiring })).statusCode).toBe(200);
    own.control.advanceClock(1000);
    for (const token of [expiring, revoked]) {
      const response = await own.send('GET', '/v1/products/', { token });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Unauthorized', detail: 'Invalid or expired token.' });
    }
    own.store.customers.get(own.fixtures.customer_id!)!.deleted_at = '2026-03-01T10:00:00.000000Z';
    expect((await own.send('GET', '/v1/customer-portal/license-keys/', { as: 'customer_session' })).statusCode).toBe(401);
    expect((await own.send('GET', '/v1/customer-portal/license-keys/', { as: 'member_session' })).statusCode).toBe(401);
  });
});

describe('authorize', () => {
  const principal = (scopes: readonly string[], kind: Principal['kind'] = 'oat'): Principal => ({ kind, subject: 's', organizationIds: ['o'], scopes: new Set(scopes) });
  const security: SecurityRequirement[] = [{ oat: ['products:read'] }, { oat: ['products:write'] }, { pat: ['products:read'] }];
  const none = resolveFaults([]);
  it.each([
    ['read scope', principal(['products:read']), undefined],
    ['write scope alone suffices', principal(['products:write']), undefined],
    ['every read scope', principal(READ_SCOPES), undefined],
    ['every scope', principal(ALL_SCOPES), undefined],
    ['another resource\'s scope', principal(['subscriptions:read']), 403],
    ['no scope', principal([]), 403],
    ['a kind no alternative names', principal(ALL_SCOPES, 'oidc'), 403],
    ['a customer session on a management operation', principal(['customer_portal:read', 'customer_portal:write'], 'customer_session'), 403],
  ])('%s', (_name, who, status) => {
    expect(authorize(who, security, none)?.status).toBe(status);
  });

  it('lets a portal session through a portal operation with the portal scope', () => {
    const portal: SecurityRequirement[] = [{ customer_session: ['customer_portal:write'] }, { member_session: ['customer_portal:write'] }];
    expect(authorize(principal(['customer_portal:write'], 'member_session'), portal, none)).toBeUndefined();
    expect(authorize(principal(['customer_portal:read'], 'customer_session'), portal, none)?.status).toBe(403);
  });

  it('lets anything through an operation without security', () => {
    expect(authorize(principal([], 'oidc'), [], none)).toBeUndefined();
  });

  it.each([
    ['write_scope_refused', principal(['products:write']), security, 403],
    ['write_scope_refused keeps the read scope', principal(['products:read']), security, undefined],
    ['write_scope_refused keeps write-only operations', principal(['products:write']), [{ oat: ['products:write'] }], undefined],
    ['pat_refused', principal(ALL_SCOPES, 'pat'), security, 403],
    ['member_session_refused', principal(['customer_portal:read'], 'member_session'), [{ member_session: ['customer_portal:read'] }], 403],
  ] as const)('fault %s', (fault, who, alternatives, status) => {
    const id = fault.split(' ')[0]!;
    expect(authorize(who, alternatives as SecurityRequirement[], resolveFaults([id]))?.status).toBe(status);
  });
});
