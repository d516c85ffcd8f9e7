// Two embedded references for tests that compare a correct target with a faulty one: started
// before the file's tests on free loopback ports, stopped after them.
import { afterAll, beforeAll } from 'vitest';
import { startReferenceServer, type RunningReference } from '../../server/index.js';

/** The references of {@link referencePair}, set once its `beforeAll` has run. */
export interface ReferencePair {
  /** Without faults. */
  clean: RunningReference;
  /** With the faults given (server/faults.ts). */
  faulty: RunningReference;
}

/**
 * Registers the hooks that start a clean reference and one with `faults` (no rate limit, no
 * control API) before the file's tests and stop both after them.
 * @returns the pair, filled in by the `beforeAll` hook
 */
export function referencePair(faults: string[]): ReferencePair {
  const pair = {} as ReferencePair;
  beforeAll(async () => {
    pair.clean = await startReferenceServer({ host: '127.0.0.1', port: 0, rateLimit: false, control: false });
    pair.faulty = await startReferenceServer({ host: '127.0.0.1', port: 0, rateLimit: false, control: false, faults });
  });
  afterAll(async () => {
    await pair.clean?.close();
    await pair.faulty?.close();
  });
  return pair;
}
