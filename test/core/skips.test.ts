import { describe, expect, test } from 'vitest';
import { needsCapability, needsFixture, needsRole, readOnlyRun } from '../../core/skips.js';

describe('skips', () => {
  test.each([
    ['a role the config names', needsRole('admin', { roleEnv: { admin: 'BILLING_ADMIN_TOKEN' } }), { reason: 'needs role admin', kind: 'role', fix: 'export BILLING_ADMIN_TOKEN=…' }],
    ['a role by its default variable', needsRole('reader', {}), { reason: 'needs role reader', kind: 'role', fix: 'export CONFORMANCE_READER_TOKEN=…' }],
    ['fixtures', needsFixture(['order_id', 'customer_id']), { reason: 'needs fixture order_id, customer_id', kind: 'fixture', fix: 'name order_id, customer_id under "fixtures" in the config file' }],
    ['a capability without an adapter', needsCapability('completeOrder', false), { reason: 'needs adapter capability completeOrder (no adapter: pass --adapter FILE)', kind: 'adapter', fix: expect.stringContaining('--adapter FILE') }],
    ['a capability the adapter lacks', needsCapability('completeOrder', true), { reason: 'needs adapter capability completeOrder', kind: 'adapter', fix: expect.stringContaining('--adapter FILE') }],
    ['a read-only run', readOnlyRun('the commands change state'), { reason: 'read-only run: the commands change state', kind: 'option', fix: expect.stringContaining('--read-only') }],
  ])('%s', (_name, given, want) => expect(given).toEqual(want));
});
