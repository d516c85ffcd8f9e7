/**
 * Negative mutations: each turns a valid query parameter into a value its schema rejects, so
 * that the target must answer 422 with a `loc` naming that parameter.
 * @see api-description.md, Errors (422: request fails validation)
 */
import type { Parameter } from '../../spec/load.js';

/** One invalid value of one parameter, and why it is invalid. */
export interface NegativeValue {
  /** Mutation name (`type_mismatch`), for reports and shrinking output. */
  mutation: string;
  value: string;
  /** Why the schema rejects it, for a person. */
  reason: string;
}

/** A mutation: the invalid values it can make for a parameter (none when it does not apply). */
export type Mutation = (param: Parameter) => NegativeValue[];

/** The single-value schema of a parameter: its `items` for arrays, its non-array branch for one-or-many. */
export function scalarSchema(param: Parameter): Record<string, any> {
  const schema = param.schema;
  if (schema.type === 'array') return schema.items ?? {};
  const branches: Record<string, any>[] = schema.anyOf ?? schema.oneOf ?? [];
  const scalar = branches.find((b) => b.type !== 'array' && b.type !== 'null');
  return scalar ?? schema;
}
