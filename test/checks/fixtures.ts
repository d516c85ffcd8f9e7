// Exchange factories for the checks' unit tests: hand-made requests and responses, no network.
import { loadSpec, type LoadedSpec } from '../../core/spec/load.js';
import type { CheckContext, Exchange, QueryValues, Role } from '../../core/types.js';

let loaded: Promise<LoadedSpec> | undefined;

/** The bundled spec, loaded once per test file. */
export function spec(): Promise<LoadedSpec> {
  loaded ??= loadSpec();
  return loaded;
}

/** The check context of an operation of the bundled spec. */
export async function context(operationId = 'products:list'): Promise<CheckContext> {
  const s = await spec();
  return { spec: s, operation: s.operation(operationId) };
}

/** Options of {@link exchange}. */
export interface ExchangeShape {
  query?: QueryValues;
  status?: number;
  body?: unknown;
  rawBody?: string;
  contentType?: string | null;
  role?: Role | null;
  operationId?: string;
  transportError?: { code: string; message: string };
}

/** An exchange as the client would record it. */
export function exchange(shape: ExchangeShape = {}): Exchange {
  const operationId = shape.operationId ?? 'products:list';
  const query = shape.query ?? {};
  const headers: Record<string, string> = {};
  if (shape.contentType !== null) headers['content-type'] = shape.contentType ?? 'application/json';
  const text = shape.rawBody ?? (shape.body === undefined ? '' : JSON.stringify(shape.body));
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return {
    case: { id: `${operationId}#0`, operationId, pathParams: {}, query, headers: {}, role: shape.role === undefined ? 'admin' : shape.role },
    operationId,
    request: { method: 'GET', url: `http://127.0.0.1:1/v1/products/`, headers: {} },
    ...(shape.transportError
      ? { transportError: shape.transportError }
      : { response: { status: shape.status ?? 200, headers, body: text, ...(json === undefined ? {} : { json }), elapsedMs: 1 } }),
  };
}

/** A list body with items `{id, ...fields}` and the given pagination. */
export function list(items: Record<string, unknown>[], total = items.length, maxPage?: number, limit = 10) {
  return { items, pagination: { total_count: total, max_page: maxPage ?? Math.ceil(total / limit) } };
}

/** `n` items with ids `id-<offset+i>`. */
export function items(n: number, offset = 0, extra: (i: number) => Record<string, unknown> = () => ({})) {
  return Array.from({ length: n }, (_, i) => ({ id: `id-${offset + i}`, ...extra(offset + i) }));
}
