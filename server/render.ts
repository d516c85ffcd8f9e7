/**
 * What serializers need besides the record: the store (to resolve references) and the API
 * version, which is applied here and nowhere else.
 * @see spec/rules.yaml versioning.is_deletable, versioning.timestamp_precision; docs/platform.md (Version per request)
 */
import type { ApiVersion } from '../core/spec/load.js';
import type { FaultSet } from './faults.js';
import type { Store } from './store.js';
import { withoutFraction } from './timestamps.js';

/** Context of every serializer. */
export interface RenderContext {
  store: Store;
  /** `2026-10`: microsecond timestamps, products carry is_deletable; `2026-04`: whole seconds, no is_deletable. */
  apiVersion: ApiVersion;
  /** The faults switched on, of which serialization applies some (`timestamps_without_fraction`, `timestamps_not_utc`, ...); none when absent. */
  faults?: FaultSet;
}

/**
 * A stored timestamp as the API version shows it (`2026-04` drops the fractional seconds; so does
 * 2026-10 under the `timestamps_without_fraction` fault; `timestamps_not_utc` shows it at +02:00).
 */
export function renderTimestamp(ctx: RenderContext, stored: string): string {
  const shown = ctx.apiVersion === '2026-04' || ctx.faults?.has('timestamps_without_fraction') ? withoutFraction(stored) : stored;
  return ctx.faults?.has('timestamps_not_utc') ? atPlusTwo(shown) : shown;
}

/** The `timestamps_not_utc` fault: a UTC timestamp (`…Z`) as the same instant in local time at +02:00. */
function atPlusTwo(utc: string): string {
  const [, seconds = '', fraction = ''] = /^(.{19})(\.\d+)?Z$/.exec(utc) ?? [];
  const local = new Date(Date.parse(`${seconds}Z`) + 2 * 3_600_000).toISOString().slice(0, 19);
  return `${local}${fraction}+02:00`;
}

/** {@link renderTimestamp} for a nullable timestamp. */
export function renderNullableTimestamp(ctx: RenderContext, stored: string | null): string | null {
  return stored === null ? null : renderTimestamp(ctx, stored);
}
