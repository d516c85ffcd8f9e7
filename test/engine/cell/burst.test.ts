// The cell of rate_limit_enforced is skipped, with the reason, where the burst may not or cannot be
// sent: a remote target that has not opted in, a source address this machine lacks.
import { describe, expect, test } from 'vitest';
import { rateLimitEnforced } from '../../../checks/rate-limit-enforced.js';
import { runCell } from '../../../engine/cell/run.js';
import type { Client } from '../../../engine/client.js';
import type { Target } from '../../../core/target.js';
import { spec } from '../../checks/fixtures.js';

describe('the rate_limit_enforced cell', () => {
  const unused: Client = {
    send: () => Promise.reject(new Error('a skipped cell sends nothing')),
    close: async () => undefined,
  };
  const target = (burst: Target['burst']): Target => ({
    baseUrl: 'http://127.0.0.1:9',
    kind: 'remote',
    roles: { admin: { token: 't' } },
    fixtures: {},
    requestsPerSecond: 80,
    timeoutMs: 1000,
    readOnly: false,
    ...(burst ? { burst } : {}),
  });

  test.each<[string, Target, string]>([
    ['a remote target that has not opted in', target(undefined), 'rate-limit burst is opt-in on remote targets (--rate-limit-check)'],
    ['a source address this machine lacks', target({ sourceAddress: '192.0.2.1' }), 'cannot send from 192.0.2.1 on this machine (EADDRNOTAVAIL)'],
  ])('is skipped for %s', async (_name, given, reason) => {
    const bundled = await spec();
    const cell = await runCell({ spec: bundled, operation: bundled.operation('products:list'), check: rateLimitEnforced, target: given, client: unused, seed: 1, runSeed: 1, runs: 1 });
    expect(cell.status).toBe('skipped');
    expect(cell.skipReason).toContain(reason);
    expect(cell.cases).toBe(0);
  });
});
