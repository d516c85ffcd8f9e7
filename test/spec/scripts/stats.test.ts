// spec:stats counts operations, webhooks and rules by status.
import { describe, expect, test } from 'vitest';
import { loadRules, type Rule } from '../../../core/spec/rules.js';
import { documentStats, formatStats, rulesStats } from '../../../spec/scripts/stats.js';
import { API_VERSIONS, specPath } from '../../../core/spec/load.js';

const rule = (id: string, status: Partial<Rule>): Rule => ({ id, section: 'Limits', statement: 's', source: 's', ...status }) as Rule;

describe('rulesStats', () => {
  test('counts by status and lists pending rules with their issue', () => {
    const stats = rulesStats([
      rule('a.one', { enforced_by: ['not_a_server_error'] }),
      rule('a.two', { pending: '#5' }),
      rule('a.three', { pending: '#6' }),
      rule('a.four', { untestable: 'not shown' }),
    ]);
    expect(stats).toEqual({
      total: 4,
      byStatus: { enforced: 1, pending: 2, untestable: 1 },
      pending: [{ id: 'a.two', issue: '#5' }, { id: 'a.three', issue: '#6' }],
    });
  });

  test('the bundled rules add up', async () => {
    const stats = rulesStats(await loadRules());
    expect(stats.byStatus.enforced + stats.byStatus.pending + stats.byStatus.untestable).toBe(stats.total);
    expect(stats.pending).toHaveLength(stats.byStatus.pending);
  });
});

describe('documentStats', () => {
  test.each(API_VERSIONS.map((v) => [v]))('version %s has the 26 operations (20 of the description, 6 read-back) and 4 webhooks', async (version) => {
    const stats = await documentStats(specPath(version));
    expect(stats.version).toBe(version);
    expect(stats.operations).toHaveLength(26);
    expect(stats.webhooks.map((w) => w.name).sort()).toEqual(['checkout.created', 'order.created', 'order.paid', 'order.updated']);
    const text = formatStats([stats], rulesStats([]));
    expect(text).toContain('26 operations, 4 webhooks');
    expect(text).toMatch(/products:list\s+GET\s+\/v1\/products\//);
  });
});
