import type { BodyMutation } from './types.js';

/** A value of another JSON type for each declared type. */
const WRONG: Record<string, unknown> = { string: 12345, integer: 'abc', number: 'abc', boolean: 'maybe', array: 'not-a-list', object: 'not-an-object' };

/**
 * The valid body with one field of a single declared type set to a value of another type. A form
 * body carries only text, so a wrong type is not expressible there; readOnly fields are left out
 * (a request does not send them).
 */
export const wrongType: BodyMutation = ({ schema, base, contentType }) => {
  if (contentType !== 'application/json') return [];
  return Object.entries<Record<string, any>>(schema.properties ?? {}).flatMap(([field, sub]) => {
    const type = Array.isArray(sub.type) ? undefined : sub.type;
    if (!type || !(type in WRONG) || sub.readOnly) return [];
    return [{ field, mutation: 'wrong_type', reason: `${field} must be a ${type}`, body: { ...base, [field]: WRONG[type] } }];
  });
};
