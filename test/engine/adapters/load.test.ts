// afterEachCall: every capability call of an adapter, answered or thrown, is followed by the hook.
import { describe, expect, test } from 'vitest';
import type { TargetAdapter } from '../../../core/adapter.js';
import { afterEachCall } from '../../../engine/adapters/load.js';

describe('afterEachCall', () => {
  test('calls the hook after each capability, answered or thrown, and passes close and values through', async () => {
    const calls: string[] = [];
    const adapter = {
      eventsAtOnce: true,
      async advanceClock(ms: number) {
        calls.push(`advance ${ms}`);
      },
      async completeOrder() {
        calls.push('complete');
        throw new Error('refused');
      },
      async close() {
        calls.push('close');
      },
    } as unknown as TargetAdapter;
    const wrapped = afterEachCall(adapter, () => calls.push('after'));
    await wrapped.advanceClock!(5);
    await expect(wrapped.completeOrder!('o')).rejects.toThrow('refused');
    await wrapped.close!();
    expect(calls).toEqual(['advance 5', 'after', 'complete', 'after', 'close']);
    expect(wrapped.eventsAtOnce).toBe(true);
  });
});
