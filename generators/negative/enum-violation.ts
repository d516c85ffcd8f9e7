import type { Mutation } from './types.js';
import { scalarSchema } from './types.js';

/** A value outside a closed enum (open strings with `x-known-values` accept anything and are left out). */
export const enumViolation: Mutation = (param) => {
  const schema = scalarSchema(param);
  if (!Array.isArray(schema.enum)) return [];
  const value = 'not_a_known_value';
  return schema.enum.includes(value) ? [] : [{ mutation: 'enum_violation', value, reason: `${param.name} must be one of ${schema.enum.join(', ')}` }];
};
