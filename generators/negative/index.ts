/**
 * Negative cases of an operation, as a fast-check arbitrary: one query parameter or one body field
 * mutated by one mutation, the rest of the request left valid and minimal.
 */
import fc from 'fast-check';
import type { Operation } from '../../core/spec/load.js';
import type { QueryValues } from '../../core/types.js';
import { enumViolation } from './enum-violation.js';
import { formatViolation } from './format-violation.js';
import { outOfRange } from './out-of-range.js';
import { typeMismatch } from './type-mismatch.js';
import type { Mutation, NegativeValue } from './types.js';
import { negativeBodies } from './body.js';
import { requiredQuery } from '../parameter-value.js';
import { parameterAccepts } from '../../core/spec/parameter-accepts.js';

export type { Mutation, NegativeValue } from './types.js';

/** Every mutation, in the order cases are listed. */
export const MUTATIONS: readonly Mutation[] = [typeMismatch, outOfRange, enumViolation, formatViolation];

/** A negative case: the query (and body) to send, and which parameter or body field was mutated how. */
export interface NegativeCase {
  query: QueryValues;
  /** Set for a mutated request body. */
  body?: { contentType: string; text: string };
  /** Set for a mutated path parameter: its value. */
  path?: Record<string, string>;
  location: 'query' | 'body' | 'path';
  /** The query parameter or top-level body field. */
  parameter: string;
  mutation: string;
  reason: string;
}

/**
 * Every negative case of the operation's query parameters (deepObject ones left out), path
 * parameters (format) and request body. A mutation is kept only when its value really fails the
 * schema (a query or path text under every reading of it, a body against the whole body schema,
 * `anyOf`/`oneOf` included), so that a case called negative is one; every case carries a valid
 * value for each required query parameter it does not mutate, so that it is invalid in one place only.
 */
export function negativeCases(operation: Operation): NegativeCase[] {
  const cases: NegativeCase[] = [];
  const required = requiredQuery(operation);
  for (const param of operation.parameters) {
    if (param.in !== 'query' || param.style === 'deepObject') continue;
    for (const mutation of MUTATIONS) {
      for (const negative of mutation(param) as NegativeValue[]) {
        if (parameterAccepts(param, negative.value)) continue;
        cases.push({ query: { ...required, [param.name]: negative.value }, location: 'query', parameter: param.name, mutation: negative.mutation, reason: negative.reason });
      }
    }
  }
  for (const param of operation.parameters) {
    if (param.in !== 'path') continue;
    for (const negative of formatViolation(param)) {
      if (parameterAccepts(param, negative.value)) continue;
      cases.push({ query: { ...required }, path: { [param.name]: negative.value }, location: 'path', parameter: param.name, mutation: negative.mutation, reason: negative.reason });
    }
  }
  for (const body of negativeBodies(operation)) {
    cases.push({ query: { ...required }, body: { contentType: body.contentType, text: body.text }, location: 'body', parameter: body.field, mutation: body.mutation, reason: body.reason });
  }
  return cases;
}

/**
 * An arbitrary over the negative cases of an operation, or undefined when it has none (no query
 * parameter or body field whose schema rejects anything expressible).
 */
export function negativeCaseArbitrary(operation: Operation): fc.Arbitrary<NegativeCase> | undefined {
  const cases = negativeCases(operation);
  return cases.length ? fc.constantFrom(...cases) : undefined;
}
