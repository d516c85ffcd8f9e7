import { beforeAll, describe, expect, it } from 'vitest';
import { HarnessError } from '../../harness/errors.js';
import { FAULTS, resolveFaults, type FaultId } from '../../server/faults.js';
import { expectedCompare } from './sorting-support.js';
import { ids, testServer, type TestServer } from './support.js';

let clean: TestServer;

beforeAll(async () => {
  clean = await testServer();
});

/** What each fault breaks, observed through the API: true when the server shows the defect. */
const SHOWS: Record<FaultId, (server: TestServer) => Promise<boolean>> = {
  async limit_unbounded(server) {
    const response = await server.get('/v1/products/', { limit: 150 });
    return response.statusCode === 200 && response.json().items.length > 100;
  },
  async total_count_off_by_one(server) {
    const body = (await server.get('/v1/products/', { limit: 10 })).json();
    const truth = server.store.products.inOrganization(server.fixtures.organization_id!).length;
    return body.pagination.total_count !== truth || body.pagination.max_page !== Math.ceil(truth / 10);
  },
  async scopes_ignored(server) {
    return (await server.get('/v1/subscriptions/', {}, 'no_scope')).statusCode === 200;
  },
  async missing_auth_accepted(server) {
    return (await server.get('/v1/products/', {}, null)).statusCode === 200;
  },
  async sorting_ignored(server) {
    const { items } = await server.all('/v1/products/', { sorting: 'name' });
    const compare = expectedCompare([{ value: (item) => item.name, descending: false }]);
    return items.some((item, i) => i > 0 && compare(items[i - 1], item) > 0);
  },
  async filter_ignored(server) {
    const subscriptions = (await server.all('/v1/subscriptions/', { status: 'canceled' })).items;
    const products = (await server.all('/v1/products/', { visibility: 'draft' })).items;
    return subscriptions.some((s) => s.status !== 'canceled') && products.some((p) => p.visibility !== 'draft');
  },
  async server_error_on_bad_limit(server) {
    return (await server.get('/v1/products/', { limit: 'abc' })).statusCode >= 500;
  },
  async wrong_content_type(server) {
    return !String((await server.get('/v1/products/')).headers['content-type']).startsWith('application/json');
  },
  async missing_field(server) {
    return (await server.get('/v1/products/')).json().items.some((item: object) => !('is_archived' in item));
  },
  async pages_overlap(server) {
    const { items } = await server.all('/v1/products/', { limit: 10 });
    const total = server.store.products.inOrganization(server.fixtures.organization_id!).length;
    return new Set(ids(items)).size !== total || items.length !== total;
  },
  async undocumented_status(server) {
    return (await server.get('/v1/products/', { organization_id: server.fixtures.other_organization_id! })).statusCode === 204;
  },
};

describe('fault catalogue', () => {
  it('has a unique snake_case id, a rule, a description and a detecting check per fault', () => {
    expect(new Set(FAULTS.map((f) => f.id)).size).toBe(FAULTS.length);
    for (const fault of FAULTS) {
      expect(fault.id).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(fault.detectedBy).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(fault.rule.length).toBeGreaterThan(0);
      expect(fault.description.length).toBeGreaterThan(0);
    }
  });

  it('is exercised by this file: every fault has an observation', () => {
    expect(Object.keys(SHOWS).sort()).toEqual(FAULTS.map((f) => f.id).sort());
  });

  it('rejects an unknown fault id with CNF_ERR_FAULT_UNKNOWN', async () => {
    expect(() => resolveFaults(['no_such_fault'])).toThrowError(HarnessError);
    await expect(testServer({ faults: ['limit_unbounded', 'no_such_fault'] })).rejects.toMatchObject({ code: 'CNF_ERR_FAULT_UNKNOWN' });
  });
});

describe.each(FAULTS.map((f) => [f.id] as [FaultId]))('fault %s', (id) => {
  it('changes the behaviour it names, which the clean server does not have', async () => {
    const faulty = await testServer({ faults: [id] });
    expect(faulty.faults).toEqual([id]);
    expect(await SHOWS[id](clean)).toBe(false);
    expect(await SHOWS[id](faulty)).toBe(true);
  });
});

describe('faults leave the rest alone', () => {
  it('scopes_ignored still rejects a token kind the operation does not accept', async () => {
    const faulty = await testServer({ faults: ['scopes_ignored'] });
    expect((await faulty.get('/v1/products/', {}, 'oidc')).statusCode).toBe(403);
  });

  it('limit_unbounded still rejects limit=0', async () => {
    const faulty = await testServer({ faults: ['limit_unbounded'] });
    expect((await faulty.get('/v1/products/', { limit: 0 })).statusCode).toBe(422);
  });
});
