/**
 * Negative cases of an operation's query parameters, as a fast-check arbitrary: one parameter
 * mutated by one mutation, the rest of the query left valid and minimal.
 */
import fc from 'fast-check';
import type { Operation } from '../../spec/load.js';
import type { QueryValues } from '../../harness/types.js';
import { enumViolation } from './enum-violation.js';
import { formatViolation } from './format-violation.js';
import { outOfRange } from './out-of-range.js';
import { typeMismatch } from './type-mismatch.js';
import type { Mutation, NegativeValue } from './types.js';

export type { Mutation, NegativeValue } from './types.js';

/** Every mutation, in the order cases are listed. */
export const MUTATIONS: readonly Mutation[] = [typeMismatch, outOfRange, enumViolation, formatViolation];

/** A negative case: the query to send and which parameter was mutated how. */
export interface NegativeCase {
  query: QueryValues;
  parameter: string;
  mutation: string;
  reason: string;
}

/** Every negative case of the operation's query parameters (deepObject parameters are left out). */
export function negativeCases(operation: Operation): NegativeCase[] {
  const cases: NegativeCase[] = [];
  for (const param of operation.parameters) {
    if (param.in !== 'query' || param.style === 'deepObject') continue;
    for (const mutation of MUTATIONS) {
      for (const negative of mutation(param) as NegativeValue[]) {
        cases.push({ query: { [param.name]: negative.value }, parameter: param.name, mutation: negative.mutation, reason: negative.reason });
      }
    }
  }
  return cases;
}

/**
 * An arbitrary over the negative cases of an operation, or undefined when it has none (no
 * parameter whose schema rejects anything expressible in a query string).
 */
export function negativeCaseArbitrary(operation: Operation): fc.Arbitrary<NegativeCase> | undefined {
  const cases = negativeCases(operation);
  return cases.length ? fc.constantFrom(...cases) : undefined;
}
