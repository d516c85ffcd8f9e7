/**
 * What serializers need besides the record: the store (to resolve references) and the API
 * version, which is applied here and nowhere else.
 * @see shared/api-description.md, Versioning
 */
import type { ApiVersion } from '../spec/load.js';
import type { Store } from './store.js';
import { withoutFraction } from './timestamps.js';

/** Context of every serializer. */
export interface RenderContext {
  store: Store;
  /** `2026-10`: microsecond timestamps, products carry is_deletable; `2026-04`: whole seconds, no is_deletable. */
  apiVersion: ApiVersion;
}

/** A stored timestamp as the API version shows it (`2026-04` drops the fractional seconds). */
export function renderTimestamp(ctx: RenderContext, stored: string): string {
  return ctx.apiVersion === '2026-04' ? withoutFraction(stored) : stored;
}

/** {@link renderTimestamp} for a nullable timestamp. */
export function renderNullableTimestamp(ctx: RenderContext, stored: string | null): string | null {
  return stored === null ? null : renderTimestamp(ctx, stored);
}
