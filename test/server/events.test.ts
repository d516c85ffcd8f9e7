// The organization an event belongs to, which decides the webhook endpoints it is delivered to: the
// payload's organization_id, else its record's, else that of a record it embeds (a benefit grant,
// which has no record of its own, belongs to its customer's organization).
import { describe, expect, it } from 'vitest';
import { createCustomer, createOrganization } from '../../server/control-records.js';
import { emitEvent, eventOrganization } from '../../server/events.js';
import { createStore } from '../../server/store.js';

function setUp() {
  const store = createStore();
  const organization = createOrganization(store, { name: 'Acme' });
  if (!organization.ok) throw new Error('no organization');
  const customer = createCustomer({ store, apiVersion: '2026-10', faults: new Set() }, organization.value.id, { email: 'a@example.com' });
  if (!customer.ok) throw new Error('no customer');
  return { store, organizationId: organization.value.id, customer: customer.value };
}

describe('eventOrganization', () => {
  it('is the payload\'s organization_id when it carries one', () => {
    const { store } = setUp();
    expect(eventOrganization(store, emitEvent(store, 'order.created', { id: 'x', organization_id: 'org-1' }))).toBe('org-1');
  });

  it('is the organization of the record the payload is, found by its id', () => {
    const { store, organizationId, customer } = setUp();
    expect(eventOrganization(store, emitEvent(store, 'customer.updated', { id: customer.id }))).toBe(organizationId);
  });

  it('is the organization of an embedded customer for a payload that is no record (a benefit grant)', () => {
    const { store, organizationId, customer } = setUp();
    const grant = { id: 'a-grant-id-of-no-record', customer_id: customer.id, customer: { id: customer.id, organization_id: organizationId }, benefit: null };
    expect(eventOrganization(store, emitEvent(store, 'benefit_grant.revoked', grant))).toBe(organizationId);
  });

  it('is undefined when nothing in the payload says', () => {
    const { store } = setUp();
    expect(eventOrganization(store, emitEvent(store, 'benefit_grant.revoked', { id: 'unknown', customer: null }))).toBeUndefined();
  });
});
