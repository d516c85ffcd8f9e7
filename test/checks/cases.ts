// The table-driven tests the single-exchange and data-invariant checks share: each row a hand-made
// exchange judged by one check, with the exact finding kinds expected ([] = passes); and the rows
// of a check's applicability (`appliesTo`) to operations of the bundled spec.
import { expect, test } from 'vitest';
import type { Check } from '../../core/types.js';
import { context, exchange, type ExchangeShape } from './fixtures.js';

/** [name, check, operationId, exchange, expected kinds ([] = passes)] */
export type ExchangeCase = [string, Check, string, ExchangeShape, string[]];

/**
 * One test per row: the check run on the exchange finds exactly the kinds given, each finding with
 * a title and a message; with `applies`, the check first applies to the row's operation.
 */
export function testExchangeCases(cases: ExchangeCase[], options: { applies?: boolean } = {}): void {
  test.each(cases)('%s', async (_name, check, operationId, shape, kinds) => {
    const ctx = await context(operationId);
    if (options.applies) expect(check.appliesTo?.(ctx)).toBe(true);
    const findings = check.run(ctx, exchange({ operationId, ...shape }), []);
    expect(findings.map((f) => f.kind)).toEqual(kinds);
    for (const f of findings) {
      expect(f.title.length).toBeGreaterThan(0);
      expect(f.message.length).toBeGreaterThan(0);
    }
  });
}

/** One test per row: the check does not apply to products:list stripped bare (not paginated, no parameters, no security, no scopes), with the reason given, and applies to products:list itself. */
export function testBareApplicability(rows: readonly (readonly [Check, string])[]): void {
  test.each(rows)('%o does not apply to a bare operation', async (check, reason) => {
    const ctx = await context('products:list');
    const bare = { ...ctx.operation, paginated: false, parameters: [], security: [], scopes: [] };
    expect(check.appliesTo?.({ ...ctx, operation: bare })).toBe(reason);
    expect(check.appliesTo?.(ctx)).toBe(true);
  });
}

/** One test per row: what the check's `appliesTo` answers for the operation (true, or the reason it does not apply). */
export function testApplicability(rows: readonly (readonly [Check, string, true | string])[]): void {
  test.each(rows)('%o on %s', async (check, operationId, expected) => {
    expect(check.appliesTo?.(await context(operationId))).toBe(expected);
  });
}
