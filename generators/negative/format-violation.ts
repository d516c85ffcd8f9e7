import type { Mutation } from './types.js';
import { scalarSchema } from './types.js';

const INVALID: Record<string, string> = {
  uuid: 'not-a-uuid',
  'date-time': '2026-13-45T25:61:00Z',
  date: '2026-02-30x',
};

/** A string that breaks the schema's format (uuid, date-time, date). */
export const formatViolation: Mutation = (param) => {
  const format = scalarSchema(param).format;
  const value = typeof format === 'string' ? INVALID[format] : undefined;
  return value ? [{ mutation: 'format_violation', value, reason: `${param.name} must be a ${format}` }] : [];
};
