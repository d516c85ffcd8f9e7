import type { Mutation, NegativeValue } from './types.js';
import { scalarSchema } from './types.js';

/**
 * A number just outside the schema's bounds. A `limit` above its maximum is left out: spec/rules.yaml
 * limits.page_size lets a server clamp it instead of rejecting it (docs/design.md, What the API requires
 * that the harness relies on).
 */
export const outOfRange: Mutation = (param) => {
  const schema = scalarSchema(param);
  if (schema.type !== 'integer' && schema.type !== 'number') return [];
  const values: NegativeValue[] = [];
  if (typeof schema.minimum === 'number') values.push({ mutation: 'below_minimum', value: String(schema.minimum - 1), reason: `${param.name} must be at least ${schema.minimum}` });
  if (typeof schema.maximum === 'number' && param.name !== 'limit') {
    values.push({ mutation: 'above_maximum', value: String(schema.maximum + 1), reason: `${param.name} must be at most ${schema.maximum}` });
  }
  return values;
};
