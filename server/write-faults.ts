/**
 * The write-side faults: defects planted in the answers of operations that change state, so that
 * the fault catalogue proves the harness judges write answers as closely as reads. Five kinds on
 * each of eight operations (a required field missing, a field of the wrong type, an undocumented
 * success status code, a text/plain content type, a malformed Date header), applied in one place
 * to the answer a handler produced.
 *
 * A body fault changes the operation's 2xx answer when its documented schema requires a field the
 * body has; an operation whose success answer has no such body (a deletion answered 204, an update
 * whose body the description does not show) gets it on its error answers instead, whose bodies the
 * description does show (`{error, detail}`, `{detail: [...]}`).
 * @see docs/design.md (Reference server: faults); spec/rules.yaml errors.not_found, errors.validation (error bodies)
 */
import type { LoadedSpec, Operation, Schema } from '../core/spec/load.js';
import type { Reply } from './replies.js';

/** The operations that get write-side faults, by the slug their fault ids start with. */
export const WRITE_FAULT_OPERATIONS = {
  files_create: 'files:create',
  orders_update: 'orders:update',
  products_update_benefits: 'products:update_benefits',
  customers_delete_external: 'customers:delete_external',
  oauth2_token: 'oauth2:token',
  oauth2_introspect: 'oauth2:introspect',
  seats_claim: 'customer_seats:claim',
  portal_orders_update: 'customer_portal:orders:update',
} as const;

/** The kinds of write-side fault, with the rule each breaks and the check that must catch it. */
export const WRITE_FAULT_KINDS = {
  missing_field: {
    rule: 'Resources and fields; Errors: documented fields are present',
    what: 'a field its schema requires is left out of the answer',
    detectedBy: 'response_schema_conformance',
  },
  wrong_type: {
    rule: 'Resources and fields: documented fields have the documented type',
    what: 'a field its schema requires comes with the wrong JSON type (a string as a number)',
    detectedBy: 'response_schema_conformance',
  },
  undocumented_status: {
    rule: 'Endpoints: the documented success status',
    what: 'a successful write answers a status code the operation does not document',
    detectedBy: 'status_code_conformance',
  },
  text_plain: {
    rule: 'Endpoints: request and response bodies are JSON',
    what: 'its JSON answers are labelled text/plain (the body is still JSON text)',
    detectedBy: 'content_type_conformance',
  },
  date_malformed: {
    rule: 'RFC 9110 section 6.6.1: Date is an IMF-fixdate',
    what: 'a successful write carries a Date header in ISO 8601 form',
    detectedBy: 'response_headers_conformance',
  },
} as const;

/** A write-side fault id: `<operation slug>_<kind>` (`files_create_missing_field`). */
export type WriteFaultId = `${keyof typeof WRITE_FAULT_OPERATIONS}_${keyof typeof WRITE_FAULT_KINDS}`;

type Kind = keyof typeof WRITE_FAULT_KINDS;

/** The catalogue entries of the write-side faults, operation by operation. */
export const WRITE_FAULTS = Object.entries(WRITE_FAULT_OPERATIONS).flatMap(([slug, operationId]) =>
  Object.entries(WRITE_FAULT_KINDS).map(([kind, definition]) => ({
    id: `${slug}_${kind}` as WriteFaultId,
    rule: definition.rule,
    description: `${operationId}: ${definition.what}.`,
    detectedBy: definition.detectedBy as string,
    touches: [operationId] as readonly string[],
  })),
);

/** The write-side faults switched on for each operation, worked out once per server. */
export type WriteFaultPlan = ReadonlyMap<string, ReadonlySet<Kind>>;

/** The write-side faults among `faults`, by operationId. */
export function planWriteFaults(faults: ReadonlySet<string>): WriteFaultPlan {
  const plan = new Map<string, Set<Kind>>();
  for (const [slug, operationId] of Object.entries(WRITE_FAULT_OPERATIONS)) {
    for (const kind of Object.keys(WRITE_FAULT_KINDS) as Kind[]) {
      if (!faults.has(`${slug}_${kind}`)) continue;
      if (!plan.has(operationId)) plan.set(operationId, new Set());
      plan.get(operationId)!.add(kind);
    }
  }
  return plan;
}

const isSuccess = (status: number) => status >= 200 && status < 300;

/** The JSON schema documented for an answer's status (exact key, then its `2XX` range, then `default`). */
function documentedSchema(spec: LoadedSpec, operation: Operation, status: number): Schema | undefined {
  const key = spec.matchStatus(operation, status);
  return key ? (operation.raw.responses?.[key]?.content?.['application/json']?.schema as Schema | undefined) : undefined;
}

/** The fields a schema requires of every value: its own `required`, its `allOf` parts', and those every `oneOf`/`anyOf` branch requires. */
function requiredOf(schema: Schema): string[] {
  const own = (schema.required as string[] | undefined) ?? [];
  const parts = ((schema.allOf as Schema[] | undefined) ?? []).flatMap(requiredOf);
  const branches = (schema.oneOf as Schema[] | undefined) ?? (schema.anyOf as Schema[] | undefined);
  const common = branches?.length ? branches.map(requiredOf).reduce((a, b) => a.filter((field) => b.includes(field))) : [];
  return [...new Set([...own, ...parts, ...common])];
}

/** The first field the schema requires that the body has, or undefined. */
function requiredField(schema: Schema | undefined, body: unknown): string | undefined {
  if (!schema || typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  return requiredOf(schema).find((field) => Object.hasOwn(body, field));
}

/** A value of another JSON type than `value`'s. */
function retyped(value: unknown): unknown {
  if (typeof value === 'string') return 12345;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return { items: value };
  return 'not an object';
}

/** A 2xx status code the operation does not document, or, when it documents them all (`2XX`), a 3xx one. */
function undocumentedSuccess(spec: LoadedSpec, operation: Operation): number {
  return [201, 202, 200, 204, 203].find((status) => spec.matchStatus(operation, status) === undefined) ?? 303;
}

/** What {@link applyWriteFaults} makes of an answer: the answer, and whether to label its JSON body text/plain. */
export interface FaultedAnswer {
  answer: Reply;
  plainText: boolean;
}

/**
 * Applies the write-side faults of `plan` to one answer of `operation`: body faults to its 2xx
 * answers (or its error answers, see above), the status and Date faults to its 2xx answers, the
 * content type fault to every answer with a JSON body.
 */
export function applyWriteFaults(spec: LoadedSpec, operation: Operation, plan: WriteFaultPlan, answer: Reply): FaultedAnswer {
  const kinds = plan.get(operation.operationId);
  if (!kinds) return { answer, plainText: false };
  let result: Reply = answer;
  let plainText = false;
  const success = isSuccess(answer.status);
  // A body fault takes the success answer when its schema requires a field the body has, else the error answers.
  const successBodyFaultable = requiredField(documentedSchema(spec, operation, successStatusOf(spec, operation)), successShape(spec, operation)) !== undefined;
  const bodyTarget = successBodyFaultable ? success : !success;
  for (const kind of kinds) {
    if ((kind === 'missing_field' || kind === 'wrong_type') && bodyTarget) {
      const field = requiredField(documentedSchema(spec, operation, result.status), result.body);
      if (field === undefined) continue;
      const body = { ...(result.body as Record<string, unknown>) };
      if (kind === 'missing_field') delete body[field];
      else body[field] = retyped(body[field]);
      result = { ...result, body };
    } else if (kind === 'undocumented_status' && success) {
      result = { ...result, status: undocumentedSuccess(spec, operation) };
    } else if (kind === 'text_plain' && result.body !== undefined && !Buffer.isBuffer(result.body)) {
      plainText = true;
    } else if (kind === 'date_malformed' && success) {
      result = { ...result, headers: { ...result.headers, date: new Date().toISOString() } };
    }
  }
  return { answer: result, plainText };
}

/** The first documented 2xx status key's code (200 for `2XX`). */
function successStatusOf(spec: LoadedSpec, operation: Operation): number {
  const key = operation.responseStatuses.find((k) => k.startsWith('2'));
  return key ? Number(key.replace(/XX$/i, '00')) : 200;
}

/** A stand-in body with every field the documented success schema requires, to ask whether a body fault can take it. */
function successShape(spec: LoadedSpec, operation: Operation): Record<string, unknown> {
  const schema = documentedSchema(spec, operation, successStatusOf(spec, operation));
  return Object.fromEntries((schema ? requiredOf(schema) : []).map((field) => [field, null]));
}
