/**
 * A client that sends each distinct safe request once: the checks of one operation replay the
 * same seeded cases, so a read-only run asks the target each question a single time.
 */
import type { Client } from './client.js';
import { buildRequest } from './client.js';
import type { Target } from '../core/target.js';
import type { Exchange } from '../core/types.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Wraps a client with a cache of GET/HEAD/OPTIONS exchanges keyed by role, method, URL and the
 * headers sent (which carry the credentials). Only
 * for suites that change no state; each cached exchange keeps the case of its first sending
 * (the case id is rewritten to the asking one).
 */
export function createCachingClient(client: Client, target: Target): Client {
  const cache = new Map<string, Promise<Exchange>>();
  return {
    async send(operation, testCase) {
      if (!SAFE.has(operation.method)) return client.send(operation, testCase);
      const request = buildRequest(target, operation, testCase);
      // The headers carry the credentials: an unknown token and no token are different questions.
      const key = `${testCase.role ?? '-'} ${request.method} ${request.url} ${JSON.stringify(request.headers)}`;
      let pending = cache.get(key);
      if (!pending) {
        pending = client.send(operation, testCase);
        cache.set(key, pending);
      }
      const exchange = await pending;
      return { ...exchange, case: testCase };
    },
    close: () => client.close(),
  };
}
