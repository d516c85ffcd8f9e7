// The second half of the fault catalogue's runs (fault-catalogue.test.ts has the first
// half, the clean run and the rules of the batches), in a file of its own so that vitest runs the
// two halves in two workers.
import { afterAll, describe, test } from 'vitest';
import { batches, checkable, expectBatchCaught, half } from './fault-catalogue-support.js';

const detected: string[] = [];

describe('fault catalogue, second half', () => {
  test.each(half(1).map((batch) => [batch.map((f) => f.id).join(', '), batch] as const))('the default run narrowed to its faults, with %s', async (_names, batch) => {
    detected.push(...(await expectBatchCaught(batch)));
  }, 180_000);

  afterAll(() => {
    process.stdout.write(`fault catalogue, second half: ${detected.length} of ${checkable.length} faults detected in ${half(1).length} of ${batches.length} full default runs\n`);
  });
});
