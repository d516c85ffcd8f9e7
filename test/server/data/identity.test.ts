import { describe, expect, it } from 'vitest';
import { findToken } from '../../../server/auth.js';
import { createCustomer, createOrganization } from '../../../server/control-records.js';
import { dataIdentity, dataSeedingOf, issueDataRoleTokens } from '../../../server/data/identity.js';
import { resolveFaults } from '../../../server/faults.js';
import { createStore } from '../../../server/store.js';

function store(organizations: string[]) {
  const s = createStore({ seed: 9 });
  const ids = organizations.map((name) => {
    const made = createOrganization(s, { name });
    if (!made.ok) throw new Error(made.error.message);
    return made.value.id;
  });
  return { s, ids };
}

describe('dataIdentity', () => {
  it('takes A and B from the first two organizations and the portal customer from A\'s first customer', () => {
    const { s, ids } = store(['Acme', 'Other']);
    const ada = createCustomer({ store: s, apiVersion: '2026-10', faults: resolveFaults([]) }, ids[0]!, { email: 'ada@example.com', external_id: 'u1' });
    if (!ada.ok) throw new Error(ada.error.message);
    const identity = dataIdentity(s);
    expect(identity.organizations).toEqual({ a: ids[0], b: ids[1] });
    expect(identity.portal).toMatchObject({ organizationId: ids[0], customerId: ada.value.id });
    expect(identity.fixtures).toEqual({ organization_id: ids[0], other_organization_id: ids[1], customer_id: ada.value.id, customer_external_id: 'u1' });
  });

  it('with one organization, B is an organization that holds nothing, the same for the same seed', () => {
    const { s } = store(['Acme']);
    const b = dataIdentity(s).organizations.b;
    expect(s.organizations.get(b)).toBeUndefined();
    expect(dataIdentity(store(['Acme']).s).organizations.b).toBe(b);
  });

  it('registers the role tokens on A, whose strings a state file\'s reader finds again', () => {
    const { s, ids } = store(['Acme']);
    const issued = issueDataRoleTokens(s);
    expect(findToken(s, issued.tokens.admin)?.organizationIds).toEqual([ids[0]]);
    expect(dataSeedingOf(s).tokens).toEqual(issued.tokens);
  });
});
