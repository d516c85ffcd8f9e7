import { describe, expect, it } from 'vitest';
import { createStore, markStoreChanged, storeRevision } from '../../server/store.js';

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
