// timestamp_precision_of_version: 2026-10 timestamps carry microseconds (judged over a response),
// 2026-04 ones carry none; null timestamps, client metadata and other versions are not judged.
import { describe, expect, test } from 'vitest';
import { bodyTimestamps, timestampPrecisionOfVersion } from '../../checks/timestamp-precision-of-version.js';
import type { CheckContext } from '../../core/types.js';
import { loadSpec, specPath } from '../../core/spec/load.js';
import { exchange, list, type ExchangeShape } from './fixtures.js';

const [latest, earlier] = await Promise.all([loadSpec(), loadSpec(specPath('2026-04'))]);
const ctx = (spec = latest, operationId = 'products:list'): CheckContext => ({ spec, operation: spec.operation(operationId) });

/** A record with created_at and modified_at as given. */
const record = (id: string, created_at: unknown, modified_at: unknown = null) => ({ id, created_at, modified_at });
const at = (fractions: string[]) => list(fractions.map((fraction, i) => record(`r${i}`, `2026-03-0${i + 1}T10:00:0${i}${fraction}Z`)));

describe('timestamp_precision_of_version', () => {
  // [name, version, exchange, expected kinds ([] = passes)]
  test.each<[string, 'latest' | 'earlier', ExchangeShape, string[]]>([
    ['2026-10: six fractional digits pass', 'latest', { body: at(['.123456', '.654321', '.000100']) }, []],
    ['2026-10: milliseconds padded to six digits pass (written in microseconds)', 'latest', { body: at(['.123000', '.456000', '.789000']) }, []],
    ['2026-10: trailing zeros trimmed pass when one shows more than milliseconds', 'latest', { body: at(['.14798', '.5', '']) }, []],
    ['2026-10: whole seconds fail', 'latest', { body: at(['', '', '']) }, ['timestamps_without_microseconds']],
    ['2026-10: milliseconds only fail', 'latest', { body: at(['.123', '.456', '.7']) }, ['timestamps_without_microseconds']],
    ['2026-10: fewer than three distinct timestamps are not judged', 'latest', { body: list([record('a', '2026-03-01T10:00:00Z', '2026-03-01T10:00:00Z'), record('b', '2026-03-02T10:00:00Z')]) }, []],
    ['2026-10: null timestamps are not counted', 'latest', { body: list([record('a', '2026-03-01T10:00:00Z', null), record('b', '2026-03-02T10:00:00Z', null)]) }, []],
    ['2026-04: whole seconds pass', 'earlier', { body: at(['', '', '']) }, []],
    ['2026-04: milliseconds pass (the description does not say whole seconds)', 'earlier', { body: at(['.123', '.456000', '']) }, []],
    ['2026-04: one timestamp with microseconds fails', 'earlier', { body: at(['', '', '.000001']) }, ['timestamp_with_microseconds']],
    ['2026-04: a nested timestamp with microseconds fails', 'earlier', { operationId: 'subscriptions:list', body: list([{ id: 's', created_at: '2026-03-01T10:00:00Z', product: { id: 'p', prices: [{ id: 'x', created_at: '2026-03-01T10:00:00.482823Z' }] } }]) }, ['timestamp_with_microseconds']],
    ['2026-04: metadata is the client\'s, not judged', 'earlier', { body: list([{ id: 'a', created_at: '2026-03-01T10:00:00Z', metadata: { shipped_at: '2026-03-01T10:00:00.123456Z' } }]) }, []],
    ['2026-04: a string that is no date-time is left to the schema', 'earlier', { body: list([record('a', 'yesterday at 10.123456')]) }, []],
    ['an error body without timestamps passes', 'latest', { status: 401, body: { error: 'Unauthorized', detail: 'no token' } }, []],
    ['no answer is not judged', 'latest', { transportError: { code: 'CNF_TIMEOUT', message: 'no answer' } }, []],
  ])('%s', (_name, version, shape, expected) => {
    const context = ctx(version === 'latest' ? latest : earlier, shape.operationId);
    expect(timestampPrecisionOfVersion.appliesTo!(context)).toBe(true);
    expect(timestampPrecisionOfVersion.run(context, exchange(shape), []).map((f) => f.kind)).toEqual(expected);
  });

  test('findings name the timestamps by path', () => {
    const [finding] = timestampPrecisionOfVersion.run(ctx(earlier), exchange({ body: at(['', '.000001']) }), []);
    expect(finding!.actual).toEqual([{ path: 'items[1].created_at', value: '2026-03-02T10:00:01.000001Z' }]);
  });

  test('does not apply to a document of another version', () => {
    expect(timestampPrecisionOfVersion.appliesTo!({ ...ctx(), spec: { ...latest, version: '3.2.1' } })).toMatch(/version "3\.2\.1" is none/);
  });

  test('bodyTimestamps: *_at date-times outside client data, with their fraction', () => {
    expect(bodyTimestamps({ created_at: '2026-03-01T10:00:00.5+02:00', ends_at: null, chunk_start: 0, upload: { parts: [{ expires_at: '2026-03-01T11:00:00Z' }] }, custom_field_data: { due_at: '2026-03-01T10:00:00Z' }, seat_metadata: { x_at: '2026-03-01T10:00:00Z' } }).map(({ path, value, fraction }) => ({ path, value, fraction }))).toEqual([
      { path: 'created_at', value: '2026-03-01T10:00:00.5+02:00', fraction: '5' },
      { path: 'upload.parts[0].expires_at', value: '2026-03-01T11:00:00Z', fraction: '' },
    ]);
  });
});
