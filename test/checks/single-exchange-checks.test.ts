// Table-driven tests of the single-exchange checks: each has a passing case, a failing case with
// the exact finding kind, and (where it has `appliesTo`) a not-applicable case.
import { describe, expect, test } from 'vitest';
import { contentTypeConformance } from '../../checks/content-type-conformance.js';
import { filterRespected } from '../../checks/filter-respected.js';
import { insufficientScopeRejected } from '../../checks/insufficient-scope-rejected.js';
import { invalidAuthRejected } from '../../checks/invalid-auth-rejected.js';
import { tenantIsolation } from '../../checks/tenant-isolation.js';
import { readScopeAccepted, writeScopeRequired } from '../../checks/scope-matrix.js';
import { missingAuthRejected } from '../../checks/missing-auth-rejected.js';
import { notAServerError } from '../../checks/not-a-server-error.js';
import { paginationCountsConsistent } from '../../checks/pagination-counts-consistent.js';
import { paginationLimitRespected } from '../../checks/pagination-limit-respected.js';
import { responseSchemaConformance } from '../../checks/response-schema-conformance.js';
import { sortingRespected } from '../../checks/sorting-respected.js';
import { statusCodeConformance } from '../../checks/status-code-conformance.js';
import type { Check } from '../../core/types.js';
import { context, exchange, items, list, type ExchangeShape } from './fixtures.js';

const validProduct = {
  id: '6a1c1b54-0a5c-4a43-9d5e-4e3f0c1d2a11',
  created_at: '2026-01-02T03:04:05.123456Z',
  modified_at: null,
  trial_interval: null,
  trial_interval_count: null,
  name: 'Pro',
  description: null,
  visibility: 'public',
  recurring_interval: 'month',
  recurring_interval_count: 1,
  meter_interval: null,
  meter_interval_count: null,
  is_recurring: true,
  is_archived: false,
  organization_id: '1b0d8c8e-3d6f-4f7a-9a55-1f4a3c2b1d00',
  metadata: { tier: 'gold', seats: 3, featured: true },
  is_deletable: true,
  prices: [],
  benefits: [],
  medias: [],
  attached_custom_fields: [],
  some_future_field: 'unknown fields are allowed',
};

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: [string, Check, string, ExchangeShape, string[]][] = [
  ['server error: 200 passes', notAServerError, 'products:list', { status: 200, body: list([]) }, []],
  ['server error: 500 fails', notAServerError, 'products:list', { status: 500, body: { detail: 'boom' } }, ['server_error']],
  ['server error: no response fails', notAServerError, 'products:list', { transportError: { code: 'CNF_TIMEOUT', message: 'no answer' } }, ['no_response']],
  ['status: documented 422 passes', statusCodeConformance, 'products:list', { status: 422, body: { detail: [] } }, []],
  ['status: undocumented 204 fails', statusCodeConformance, 'products:list', { status: 204 }, ['undocumented_status_code']],
  ['content type: json with charset passes', contentTypeConformance, 'products:list', { contentType: 'application/json; charset=utf-8', body: list([]) }, []],
  ['content type: text/plain fails', contentTypeConformance, 'products:list', { contentType: 'text/plain', body: list([]) }, ['undocumented_content_type']],
  ['content type: missing fails', contentTypeConformance, 'products:list', { contentType: null, body: list([]) }, ['missing_content_type']],
  ['content type: undocumented status not judged', contentTypeConformance, 'products:list', { status: 418, contentType: 'text/plain', rawBody: 'tea' }, []],
  ['schema: valid product with unknown field passes', responseSchemaConformance, 'products:list', { body: list([validProduct]) }, []],
  ['schema: product without is_archived fails', responseSchemaConformance, 'products:list', { body: list([{ ...validProduct, is_archived: undefined }]) }, ['schema_violation']],
  ['schema: visibility outside the closed enum fails', responseSchemaConformance, 'products:list', { body: list([{ ...validProduct, visibility: 'hidden' }]) }, ['schema_violation']],
  ['schema: garbage body fails', responseSchemaConformance, 'products:list', { rawBody: '{"items": [' }, ['malformed_json']],
  ['schema: 401 body passes', responseSchemaConformance, 'products:list', { status: 401, body: { error: 'Unauthorized', detail: 'no token' } }, []],
  // Error bodies are judged as closely as success bodies: a check that judged only the 200 key would pass these.
  ['schema: 401 body without error fails', responseSchemaConformance, 'products:list', { status: 401, body: { detail: 'no token' } }, ['schema_violation']],
  ['schema: 404 body with detail not a string fails', responseSchemaConformance, 'orders:get_receipt', { operationId: 'orders:get_receipt', status: 404, body: { error: 'ResourceNotFound', detail: 404 } }, ['schema_violation']],
  ['schema: 422 body whose detail is not a list fails', responseSchemaConformance, 'products:list', { status: 422, body: { detail: 'limit is too large' } }, ['schema_violation']],
  // A `2XX` range key documents every success status: a 201 is judged against it, not let through.
  ['schema: 2XX range, an object body passes', responseSchemaConformance, 'orders:update', { operationId: 'orders:update', status: 201, body: { id: 'x' } }, []],
  ['schema: 2XX range, a body that is not an object fails', responseSchemaConformance, 'orders:update', { operationId: 'orders:update', status: 201, body: ['not', 'an', 'order'] }, ['schema_violation']],
  ['schema: 2XX range, a 202 that is not JSON fails', responseSchemaConformance, 'orders:update', { operationId: 'orders:update', status: 202, rawBody: '<html>' }, ['malformed_json']],
  ['limit: 10 items by default passes', paginationLimitRespected, 'products:list', { body: list(items(10), 30) }, []],
  ['limit: 11 items by default fails', paginationLimitRespected, 'products:list', { body: list(items(11), 30) }, ['limit_exceeded']],
  ['limit: 101 clamped to 100 passes', paginationLimitRespected, 'products:list', { query: { limit: '101' }, body: list(items(100), 150, 2, 100) }, []],
  ['limit: 101 rejected with 422 passes', paginationLimitRespected, 'products:list', { query: { limit: '101' }, status: 422, body: { detail: [] } }, []],
  ['limit: 101 honoured fails', paginationLimitRespected, 'products:list', { query: { limit: '101' }, body: list(items(101), 150, 2, 101) }, ['limit_above_maximum_honoured']],
  ['counts: consistent page passes', paginationCountsConsistent, 'products:list', { query: { limit: '5', page: '3' }, body: list(items(2, 10), 12, 3, 5) }, []],
  ['counts: empty list with max_page 0 or 1 passes', paginationCountsConsistent, 'products:list', { body: list([], 0, 1) }, []],
  ['counts: max_page not ceil(total/limit) fails', paginationCountsConsistent, 'products:list', { query: { limit: '5' }, body: list(items(5), 13, 4, 5) }, ['max_page_mismatch']],
  ['counts: total_count one above the items of the last page fails', paginationCountsConsistent, 'products:list', { query: { limit: '5', page: '3' }, body: list(items(2, 10), 13, 3, 5) }, ['page_size_mismatch']],
  ['counts: short page fails', paginationCountsConsistent, 'products:list', { query: { limit: '5' }, body: list(items(4), 12, 3, 5) }, ['page_size_mismatch']],
  ['counts: page past the end empty passes', paginationCountsConsistent, 'products:list', { query: { page: '9' }, body: list([], 12, 2) }, []],
  ['sorting: ascending names pass (either collation)', sortingRespected, 'products:list', { query: { sorting: 'name' }, body: list([{ id: 'a', name: 'apple' }, { id: 'b', name: 'Banana' }, { id: 'c', name: 'cherry' }]) }, []],
  ['sorting: descending created_at with microseconds fails', sortingRespected, 'products:list', { query: { sorting: '-created_at' }, body: list([{ id: 'a', created_at: '2026-01-01T00:00:00.000001Z' }, { id: 'b', created_at: '2026-01-01T00:00:00.000002Z' }]) }, ['sort_order_violated']],
  ['sorting: second criterion decides ties', sortingRespected, 'products:list', { query: { sorting: ['-created_at', 'name'] }, body: list([{ id: 'a', created_at: '2026-01-01T00:00:00Z', name: 'b' }, { id: 'b', created_at: '2026-01-01T00:00:00Z', name: 'a' }]) }, ['sort_order_violated']],
  ['sorting: unspecified key asserts nothing', sortingRespected, 'products:list', { query: { sorting: 'price_amount' }, body: list([{ id: 'a' }, { id: 'b' }]) }, []],
  ['sorting: nulls are not judged', sortingRespected, 'subscriptions:list', { operationId: 'subscriptions:list', query: { sorting: 'ended_at' }, body: list([{ id: 'a', ended_at: '2026-02-01T00:00:00Z' }, { id: 'b', ended_at: null }, { id: 'c', ended_at: '2026-01-01T00:00:00Z' }]) }, []],
  ['filter: visibility in values passes', filterRespected, 'products:list', { query: { visibility: ['draft', 'private'] }, body: list([{ id: 'a', visibility: 'draft' }, { id: 'b', visibility: 'private' }]) }, []],
  ['filter: visibility ignored fails', filterRespected, 'products:list', { query: { visibility: 'draft' }, body: list([{ id: 'a', visibility: 'public' }]) }, ['filter_not_applied']],
  ['filter: benefit id inside an array passes', filterRespected, 'products:list', { query: { benefit_id: 'B' }, body: list([{ id: 'a', benefits: [{ id: 'x' }, { id: 'b' }] }]) }, []],
  ['filter: an item without the field is not judged', filterRespected, 'products:list', { query: { benefit_id: 'B' }, body: list([{ id: 'a' }]) }, []],
  ['filter: null date outside the bound fails', filterRespected, 'subscriptions:list', { operationId: 'subscriptions:list', query: { canceled_at_after: '2026-01-01T00:00:00Z' }, body: list([{ id: 'a', canceled_at: null }]) }, ['filter_not_applied']],
  ['filter: query (unspecified) asserts nothing', filterRespected, 'products:list', { query: { query: 'zzz' }, body: list([{ id: 'a', name: 'Pro' }]) }, []],
  ['filter: started_after bound included passes', filterRespected, 'subscriptions:list', { operationId: 'subscriptions:list', query: { started_after: '2026-01-01T00:00:00Z' }, body: list([{ id: 'a', started_at: '2026-01-01T00:00:00.000000Z' }]) }, []],
  ['filter: canceled_at_before violated fails', filterRespected, 'subscriptions:list', { operationId: 'subscriptions:list', query: { canceled_at_before: '2026-01-01T00:00:00Z' }, body: list([{ id: 'a', canceled_at: '2026-01-02T00:00:00Z' }]) }, ['filter_not_applied']],
  ['filter: external customer id passes', filterRespected, 'subscriptions:list', { operationId: 'subscriptions:list', query: { external_customer_id: 'cus_1' }, body: list([{ id: 'a', customer: { external_id: 'cus_1' } }]) }, []],
  ['filter: metadata match passes', filterRespected, 'products:list', { query: { 'metadata[seats]': '3' }, body: list([{ id: 'a', metadata: { seats: 3 } }]) }, []],
  ['filter: metadata ignored fails', filterRespected, 'products:list', { query: { 'metadata[tier]': 'gold' }, body: list([{ id: 'a', metadata: { tier: 'silver' } }]) }, ['metadata_filter_not_applied']],
  ['missing auth: 401 with body passes', missingAuthRejected, 'products:list', { role: null, status: 401, body: { error: 'Unauthorized', detail: 'missing token' } }, []],
  ['missing auth: 200 fails', missingAuthRejected, 'products:list', { role: null, status: 200, body: list([]) }, ['ignored_auth']],
  ['missing auth: 403 fails', missingAuthRejected, 'products:list', { role: null, status: 403, body: { error: 'NotPermitted', detail: 'x' } }, ['wrong_status_for_missing_auth']],
  ['missing auth: wrong body fails', missingAuthRejected, 'products:list', { role: null, status: 401, body: { message: 'no' } }, ['wrong_error_body']],
  ['invalid auth: 401 with body passes', invalidAuthRejected, 'products:list', { role: null, status: 401, body: { error: 'Unauthorized', detail: 'unknown token' } }, []],
  ['invalid auth: 200 fails', invalidAuthRejected, 'products:list', { role: null, status: 200, body: list([]) }, ['ignored_auth']],
  ['invalid auth: 403 fails', invalidAuthRejected, 'products:list', { role: null, status: 403, body: { error: 'NotPermitted', detail: 'x' } }, ['wrong_status_for_missing_auth']],
  ['tenant: 404 ResourceNotFound passes', tenantIsolation, 'orders:get_receipt', { role: 'other_org', status: 404, body: { error: 'ResourceNotFound', detail: 'no such order' } }, []],
  ['tenant: 200 fails', tenantIsolation, 'orders:get_receipt', { role: 'other_org', status: 200, body: { url: 'https://x' } }, ['tenant_leak']],
  ['tenant: 403 leaks existence', tenantIsolation, 'orders:get_receipt', { role: 'other_org', status: 403, body: { error: 'NotPermitted', detail: 'x' } }, ['existence_leaked']],
  ['tenant: 404 with another body fails', tenantIsolation, 'orders:get_receipt', { role: 'other_org', status: 404, body: { message: 'nope' } }, ['wrong_error_body']],
  ['read scope: 200 passes', readScopeAccepted, 'products:list', { role: 'reader', status: 200, body: list([]) }, []],
  ['read scope: 404 is not judged', readScopeAccepted, 'orders:get_receipt', { role: 'reader', status: 404, body: { error: 'ResourceNotFound', detail: 'x' } }, []],
  ['read scope: 403 fails', readScopeAccepted, 'products:list', { role: 'reader', status: 403, body: { error: 'NotPermitted', detail: 'x' } }, ['read_scope_refused']],
  ['write-only: 403 passes', writeScopeRequired, 'products:update_benefits', { role: 'reader', status: 403, body: { error: 'NotPermitted', detail: 'x' } }, []],
  ['write-only: 200 fails', writeScopeRequired, 'products:update_benefits', { role: 'reader', status: 200, body: {} }, ['write_scope_ignored']],
  ['scope: 403 with body passes', insufficientScopeRejected, 'products:list', { role: 'no_scope', status: 403, body: { error: 'NotPermitted', detail: 'scope' } }, []],
  ['scope: 200 fails', insufficientScopeRejected, 'products:list', { role: 'no_scope', status: 200, body: list([]) }, ['scope_ignored']],
  ['scope: 403 without a JSON body fails', insufficientScopeRejected, 'products:list', { role: 'no_scope', status: 403, contentType: 'text/plain', rawBody: 'forbidden' }, ['wrong_answer_for_insufficient_scope']],
];

describe('single-exchange checks', () => {
  test.each(cases)('%s', async (_name, check, operationId, shape, kinds) => {
    const ctx = await context(operationId);
    const findings = check.run(ctx, exchange({ operationId, ...shape }), []);
    expect(findings.map((f) => f.kind)).toEqual(kinds);
    for (const f of findings) {
      expect(f.title.length).toBeGreaterThan(0);
      expect(f.message.length).toBeGreaterThan(0);
    }
  });
});

describe('applicability', () => {
  test.each([
    [paginationLimitRespected, 'not a paginated list'],
    [paginationCountsConsistent, 'not a paginated list'],
    [sortingRespected, 'no sorting parameter with x-sort-keys'],
    [filterRespected, 'no filter parameter with stated semantics'],
    [missingAuthRejected, 'the operation does not require credentials'],
    [insufficientScopeRejected, 'the operation names no scopes'],
    [invalidAuthRejected, 'the operation does not require credentials'],
  ] as const)('%o does not apply to a bare operation', async (check, reason) => {
    const ctx = await context('products:list');
    const bare = { ...ctx.operation, paginated: false, parameters: [], security: [], scopes: [] };
    expect(check.appliesTo?.({ ...ctx, operation: bare })).toBe(reason);
    expect(check.appliesTo?.(ctx)).toBe(true);
  });
});

describe('tenant_isolation applicability', () => {
  test.each([
    ['orders:get_receipt', true],
    ['products:list', 'no path parameter naming a resource'],
    ['customer_portal:orders:get_invoice', 'the operation does not accept organization tokens'],
  ] as const)('%s', async (operationId, expected) => {
    expect(tenantIsolation.appliesTo?.(await context(operationId))).toBe(expected);
  });
});

describe('scope matrix applicability', () => {
  test.each([
    [readScopeAccepted, 'products:list', true],
    [readScopeAccepted, 'products:update_benefits', 'the operation lists no read scope'],
    [readScopeAccepted, 'orders:get_invoice', 'the API description shows no scope for the operation'],
    [readScopeAccepted, 'customer_portal:license_keys:list', 'the reader role holds an organization token, which the operation does not accept'],
    [readScopeAccepted, 'oauth2:token', 'the operation names no scopes'],
    [writeScopeRequired, 'products:update_benefits', true],
    [writeScopeRequired, 'customers:delete_external', true],
    [writeScopeRequired, 'products:list', 'the operation lists a read scope'],
    [writeScopeRequired, 'orders:update', 'the API description shows no scope for the operation'],
  ] as const)('%o on %s', async (check, operationId, expected) => {
    expect(check.appliesTo?.(await context(operationId))).toBe(expected);
  });
});
