import { describe, expect, it } from 'vitest';
import { findToken } from '../../server/auth.js';
import { createOrganization, registerOrganizationToken } from '../../server/control-records.js';
import { createStore, markStoreChanged, moveStoreContents, storeRevision } from '../../server/store.js';

describe('storeRevision', () => {
  it('grows with every insert, update, delete, clear and notice, and only then', () => {
    const store = createStore();
    const steps: [string, () => void][] = [
      ['insert', () => store.organizations.insert({ id: 'o', organization_id: 'o', created_at: '', modified_at: null, name: 'O', slug: 'o' })],
      ['update', () => store.organizations.update(store.organizations.get('o')!, { name: 'P' })],
      ['delete', () => store.organizations.delete('o')],
      ['clear', () => store.products.clear()],
      ['notice', () => markStoreChanged(store)],
    ];
    for (const [name, step] of steps) {
      const before = storeRevision(store);
      expect(storeRevision(store), `${name}: reading changes nothing`).toBe(before);
      step();
      expect(storeRevision(store), name).toBeGreaterThan(before);
    }
  });
});

describe('moveStoreContents', () => {
  it('replaces the target\'s records, tokens and id sequence with the source\'s, and leaves the logs empty', () => {
    const target = createStore({ seed: 3 });
    const old = createOrganization(target, { name: 'Old' });
    target.clockOffsetMs = 5000;
    target.events.push({ id: 'e', type: 'order.paid', timestamp: '2027-01-01T00:00:00.000000Z', data: {} });
    const source = createStore({ seed: 3 });
    const acme = createOrganization(source, { name: 'Acme' });
    if (!old.ok || !acme.ok) throw new Error('not created');
    registerOrganizationToken(source, acme.value.id, 'polar_oat_moved_token');
    source.events.push({ id: 'f', type: 'order.created', timestamp: '2027-01-01T00:00:00.000000Z', data: {} });
    const before = storeRevision(target);
    moveStoreContents(target, source);
    expect([...target.organizations.all()].map((o) => o.name)).toEqual(['Acme']);
    expect(findToken(target, 'polar_oat_moved_token')?.organizationIds).toEqual([acme.value.id]);
    expect(target.idSequence).toBe(source.idSequence);
    expect(target.clockOffsetMs).toBe(0);
    expect([...target.events]).toEqual([]);
    expect(storeRevision(target)).toBeGreaterThan(before);
  });
});
