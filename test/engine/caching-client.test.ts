// The caches of safe requests: one per suite (createCachingClient) and the successful reads one
// worker's suites share (sharingReads): what is asked again, what is never cached, and the bound.
import { describe, expect, test } from 'vitest';
import { createCachingClient, SharedReads, sharingReads } from '../../engine/caching-client.js';
import type { Client } from '../../engine/client.js';
import type { Target } from '../../core/target.js';
import type { Exchange, TestCase } from '../../core/types.js';
import { exchange, spec } from '../checks/fixtures.js';

const TARGET: Target = { baseUrl: 'http://127.0.0.1:9', kind: 'remote', roles: { admin: { token: 't' } }, fixtures: { product_id: '10509a7b-8b3b-48b7-9807-226952bfb1d1' }, requestsPerSecond: null, timeoutMs: 1000, readOnly: false };

/** A client that counts what it sends and answers with `status` and a body of `size` characters. */
function counting(status: (testCase: TestCase) => number, size = 10): { client: Client; sent: string[] } {
  const sent: string[] = [];
  const client: Client = {
    async send(operation, testCase): Promise<Exchange> {
      sent.push(`${operation.method} ${JSON.stringify(testCase.query)}`);
      const made = exchange({ status: status(testCase), rawBody: JSON.stringify({ pad: 'x'.repeat(size) }), operationId: operation.operationId });
      return { ...made, case: testCase, request: { ...made.request, method: operation.method } };
    },
    async close() {},
  };
  return { client, sent };
}

const testCase = (id: string, query: Record<string, string> = {}): TestCase => ({ id, operationId: 'products:list', pathParams: {}, query, headers: {}, role: 'admin' });

describe('shared reads', () => {
  test('a 2xx read of one suite answers the same request of another, with the asking case', async () => {
    const bundled = await spec();
    const list = bundled.operation('products:list');
    const { client, sent } = counting(() => 200);
    const reads = new SharedReads();
    const first = sharingReads(client, TARGET, reads);
    const second = sharingReads(client, TARGET, reads);
    const a = await first.send(list, testCase('a', { limit: '100' }));
    const b = await second.send(list, testCase('b', { limit: '100' }));
    expect(sent).toHaveLength(1);
    expect(b.case.id).toBe('b');
    expect(b.response).toBe(a.response);
    await second.send(list, testCase('c', { limit: '99' }));
    expect(sent).toHaveLength(2);
  });

  test('an answer that is not a 2xx is asked again; a method that changes state is never shared', async () => {
    const bundled = await spec();
    const list = bundled.operation('products:list');
    const { client, sent } = counting((c) => (c.query.limit === '0' ? 422 : 200));
    const reads = new SharedReads();
    const shared = sharingReads(client, TARGET, reads);
    await shared.send(list, testCase('a', { limit: '0' }));
    await shared.send(list, testCase('b', { limit: '0' }));
    expect(sent).toHaveLength(2);
    const update = bundled.operations.find((o) => o.method === 'PATCH')!;
    await shared.send(update, testCase('c'));
    await shared.send(update, testCase('d'));
    expect(sent).toHaveLength(4);
    expect(reads.size).toBe(0);
  });

  test('an answer still in flight when asked for is used only if it is a 2xx', async () => {
    const bundled = await spec();
    const list = bundled.operation('products:list');
    const { client, sent } = counting((c) => (c.id === 'first' ? 429 : 200));
    const reads = new SharedReads();
    const [first, second] = await Promise.all([sharingReads(client, TARGET, reads).send(list, testCase('first', { limit: '5' })), sharingReads(client, TARGET, reads).send(list, testCase('second', { limit: '5' }))]);
    expect(first.response?.status).toBe(429);
    expect(second.response?.status).toBe(200);
    expect(sent).toHaveLength(2);
  });

  test('past its bound in bytes, the oldest answers are let go and asked again', async () => {
    const bundled = await spec();
    const list = bundled.operation('products:list');
    const { client, sent } = counting(() => 200, 100);
    const shared = sharingReads(client, TARGET, new SharedReads(250));
    for (const limit of ['1', '2', '3']) await shared.send(list, testCase(limit, { limit }));
    expect(sent).toHaveLength(3);
    await shared.send(list, testCase('again-3', { limit: '3' }));
    expect(sent).toHaveLength(3);
    await shared.send(list, testCase('again-1', { limit: '1' }));
    expect(sent).toHaveLength(4);
  });

  test('a suite\'s own cache still asks each question once, whatever the answer', async () => {
    const bundled = await spec();
    const list = bundled.operation('products:list');
    const { client, sent } = counting(() => 422);
    const cached = createCachingClient(client, TARGET);
    await cached.send(list, testCase('a', { limit: '0' }));
    const again = await cached.send(list, testCase('b', { limit: '0' }));
    expect(sent).toHaveLength(1);
    expect(again.case.id).toBe('b');
  });
});
