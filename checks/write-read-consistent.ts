import type { Check } from '../core/types.js';
import { successJson } from './response-objects.js';
import { brief } from './support.js';
import { answersItsRecord } from './write-answer-reflects-request.js';

/**
 * Whether two JSON values are the same value: the same JSON types (3 and "3" differ), arrays item
 * by item in order, objects key by key whatever the order their keys come in (JSON objects are
 * unordered, RFC 8259 section 4).
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** The top-level fields both JSON objects hold with different values ({@link sameJson}). */
export function differingFields(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  return Object.keys(a).filter((key) => Object.hasOwn(b, key) && !sameJson(a[key], b[key]));
}

/**
 * A write's answer and the same client's next read of that record, with no write between, show the
 * same record: every field both hold has the same value and JSON type (a value stored as another
 * type, a field the answer shows changed but the store did not keep, a modified_at not kept).
 * Judged on any successful write whose answer is the record it changed (the billing details of an
 * order, the benefits of a product) and its read-back (`write_then_read`), whoever made them.
 * @see spec/rules.yaml writes.read_back_consistent
 */
export const writeReadConsistent: Check = {
  id: 'write_read_consistent',
  title: "A write's answer and the next read of the record disagree",
  severity: 'high',
  rule: 'writes.read_back_consistent',
  layer: 'api',
  evidence: 'pair',
  pair: 'write_then_read',
  conformanceClass: 'state',
  level: 'must',
  needs: 'exchange',
  appliesTo: answersItsRecord,
  run(ctx, exchange, history) {
    const written = successJson(exchange);
    const readBack = history[0];
    const read = readBack ? successJson(readBack) : undefined;
    if (!readBack || !isRecord(written) || !isRecord(read) || written.id === undefined || written.id !== read.id) return [];
    const differing = differingFields(written, read);
    if (!differing.length) return [];
    return [{
      kind: 'read_back_differs_from_write_answer',
      title: "A write's answer and the next read of the record disagree",
      message: `${ctx.operation.operationId} answered record ${String(written.id)}, and its client's next read (${readBack.request.method} ${readBack.request.url.replace(/\?.*$/, '')}) shows it with other ${differing.join(', ')}: ${differing.slice(0, 3).map((key) => `${key} ${brief(written[key], 60)} then ${brief(read[key], 60)}`).join('; ')}.`,
      expected: Object.fromEntries(differing.slice(0, 5).map((key) => [key, written[key]])),
      actual: Object.fromEntries(differing.slice(0, 5).map((key) => [key, read[key]])),
    }];
  },
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
