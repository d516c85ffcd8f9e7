import type { BodyMutation } from './types.js';

/** The valid body without one of its required fields, once per required field. */
export const missingRequired: BodyMutation = ({ schema, base }) =>
  ((schema.required ?? []) as string[]).map((field) => {
    const { [field]: _dropped, ...rest } = base;
    return { field, mutation: 'missing_required', reason: `${field} is required`, body: rest };
  });
