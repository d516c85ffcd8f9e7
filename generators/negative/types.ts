/**
 * Negative mutations: each turns a valid query parameter (or request body) into a value its schema
 * rejects, so that the target must answer 422 with a `loc` naming that parameter (or body field).
 * @see spec/rules.yaml errors.validation (422: request fails validation)
 */
import type { Parameter } from '../../core/spec/load.js';

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

/** What a body mutation starts from: the body's object schema, a valid body of it, and its media type. */
export interface BodyMutationInput {
  /** The object schema of the body (the first variant of a union, allOf merged). */
  schema: Record<string, any>;
  /** A valid body, drawn from the schema. */
  base: Record<string, unknown>;
  contentType: string;
}

/** One invalid body made from the valid one: the top-level field mutated, how, and why it is invalid. */
export interface BodyNegativeValue {
  field: string;
  mutation: string;
  reason: string;
  body: Record<string, unknown>;
}

/** A body mutation: the invalid bodies it can make (none when it does not apply). */
export type BodyMutation = (input: BodyMutationInput) => BodyNegativeValue[];
