/**
 * Harvests filter values from the target's own data, so that generated filters match items on
 * any target without configuration: one list request, values read at each filter's field.
 */
import type { Operation } from '../core/spec/load.js';
import type { Harvest } from '../generators/query-case.js';
import { listBody, valuesAtPath } from '../checks/support.js';
import type { Client } from './client.js';
import { roleFor } from '../core/operation-needs.js';

/** Most values kept per parameter or metadata key. */
const MAX_VALUES = 12;

function add(bucket: Map<string, Set<string>>, key: string, value: unknown): void {
  if (value === null || value === undefined || typeof value === 'object') return;
  const set = bucket.get(key) ?? new Set<string>();
  if (set.size < MAX_VALUES) set.add(String(value));
  bucket.set(key, set);
}

const toRecord = (bucket: Map<string, Set<string>>): Record<string, string[]> =>
  Object.fromEntries([...bucket].map(([k, v]) => [k, [...v]]));

/**
 * Lists up to 100 items of a paginated operation with its usual role and collects, for every
 * parameter with `x-filter`, the values found at its field, and every metadata key's values.
 * Gives an empty harvest when the list cannot be read (the cases then use schema values only).
 */
export async function harvestValues(client: Client, operation: Operation): Promise<Harvest> {
  const harvest: Harvest = { parameters: {}, metadata: {} };
  if (!operation.paginated || operation.parameters.some((p) => p.required)) return harvest;
  const hasLimit = operation.parameters.some((p) => p.name === 'limit');
  const exchange = await client.send(operation, {
    id: `${operation.operationId}#harvest`,
    operationId: operation.operationId,
    pathParams: {},
    query: hasLimit ? { limit: '100' } : {},
    headers: {},
    role: roleFor(operation),
  });
  const body = listBody(exchange);
  if (!body || exchange.response?.status !== 200) return harvest;
  const parameters = new Map<string, Set<string>>();
  const metadata = new Map<string, Set<string>>();
  for (const item of body.items) {
    for (const param of operation.parameters) {
      if (!param.filter || param.filter.match === 'unspecified') continue;
      for (const value of valuesAtPath(item, param.filter.field)) add(parameters, param.name, value);
    }
    const meta = item.metadata;
    if (meta && typeof meta === 'object') for (const [key, value] of Object.entries(meta)) add(metadata, key, value);
  }
  harvest.parameters = toRecord(parameters);
  harvest.metadata = toRecord(metadata);
  return harvest;
}
