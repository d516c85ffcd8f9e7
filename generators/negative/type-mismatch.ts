import type { Mutation } from './types.js';
import { scalarSchema } from './types.js';

/** A word where the schema wants an integer, a number or a boolean. */
export const typeMismatch: Mutation = (param) => {
  const type = scalarSchema(param).type;
  if (type === 'integer' || type === 'number') return [{ mutation: 'type_mismatch', value: 'abc', reason: `${param.name} must be a ${type}` }];
  if (type === 'boolean') return [{ mutation: 'type_mismatch', value: 'maybe', reason: `${param.name} must be true or false` }];
  return [];
};
