// The format_violation mutation: a malformed uuid, date-time or date.
import { describe, expect, test } from 'vitest';
import { formatViolation } from '../../../generators/negative/format-violation.js';
import { param, queryAjv } from './support.js';

describe('formatViolation', () => {
  test.each([
    ['uuid', param('id', { type: 'string', format: 'uuid' }), ['not-a-uuid']],
    ['uuid or uuids', param('id', { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'array', items: { type: 'string', format: 'uuid' } }] }), ['not-a-uuid']],
    ['date-time', param('started_after', { type: 'string', format: 'date-time' }), ['2026-13-45T25:61:00Z']],
    ['date', param('day', { type: 'string', format: 'date' }), ['2026-02-30x']],
    ['a format without a probe value', param('site', { type: 'string', format: 'hostname' }), []],
    ['no format', param('q', { type: 'string' }), []],
  ] as const)('%s', (_name, parameter, want) => {
    const values = formatViolation(parameter);
    expect(values.map((v) => v.value)).toEqual(want);
    for (const v of values) {
      expect(v.mutation).toBe('format_violation');
      expect(queryAjv.validate(parameter.schema, v.value), v.value).toBe(false);
    }
  });
});
