import type { Check } from '../core/types.js';
import { documentsObject, successJson } from './response-objects.js';
import { brief, instantMicros } from './support.js';
import { differingFields } from './write-read-consistent.js';

/**
 * A record read twice by one client with the same request and no write between reads the same,
 * unless its `modified_at` says it changed in between (an order's processing completing, a
 * subscription renewing: changes the description allows without a client's write). It keeps its
 * id and created_at in any case, and its modified_at never goes back. Judged on any such pair
 * (`read_then_read`) of a read answering one record (an object with id and created_at).
 * @see spec/rules.yaml reads.repeatable; RFC 9110 section 9.2.1 (safe methods)
 */
export const recordReadStable: Check = {
  id: 'record_read_stable',
  title: 'A record read twice reads differently without a change',
  severity: 'medium',
  rule: 'reads.repeatable',
  layer: 'api',
  evidence: 'pair',
  pair: 'read_then_read',
  conformanceClass: 'core',
  level: 'should',
  needs: 'repeat',
  appliesTo: ({ operation }) => {
    if (operation.method !== 'GET' || operation.paginated) return 'not a read of one record';
    return documentsObject(operation, (object) => object.has('id') && object.has('created_at')) || 'its answer is no record (an object with id and created_at)';
  },
  run(_ctx, exchange, history) {
    const first = history[0] ? successJson(history[0]) : undefined;
    const second = successJson(exchange);
    if (!isRecord(first) || !isRecord(second) || first.id === undefined) return [];
    const before = instantMicros(first.modified_at);
    const after = instantMicros(second.modified_at);
    const modified = JSON.stringify(first.modified_at ?? null) !== JSON.stringify(second.modified_at ?? null);
    const identity = ['id', 'created_at'].filter((key) => JSON.stringify(first[key]) !== JSON.stringify(second[key]));
    // A record once modified does not read back as never modified, nor modified earlier.
    const backwards = before !== undefined && ((after !== undefined && after < before) || second.modified_at === null);
    const differing = modified ? identity : differingFields(first, second);
    if (!differing.length && !backwards) return [];
    return [{
      kind: 'record_differs_between_reads',
      title: 'A record read twice reads differently without a change',
      message: backwards
        ? `Record ${String(first.id)} read twice went back in time: modified_at ${String(first.modified_at)}, then ${String(second.modified_at)}.`
        : `Record ${String(first.id)} read twice with the same request and no write between reads other ${differing.join(', ')}${modified ? '' : ', with the same modified_at'}: ${differing.slice(0, 3).map((key) => `${key} ${brief(first[key], 60)} then ${brief(second[key], 60)}`).join('; ')}.`,
      expected: Object.fromEntries(differing.slice(0, 5).map((key) => [key, first[key]])),
      actual: Object.fromEntries(differing.slice(0, 5).map((key) => [key, second[key]])),
    }];
  },
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
