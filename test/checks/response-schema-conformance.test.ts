// response_schema_conformance on hand-made exchanges: passing cases and failing ones with the exact
// finding kind.
import { describe } from 'vitest';
import { responseSchemaConformance } from '../../checks/response-schema-conformance.js';
import { type ExchangeCase, testExchangeCases } from './cases.js';
import { list } from './fixtures.js';

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
const cases: ExchangeCase[] = [
  ['schema: valid product with unknown field passes', responseSchemaConformance, 'products:list', { body: list([validProduct]) }, []],
  ['schema: product without is_archived fails', responseSchemaConformance, 'products:list', { body: list([{ ...validProduct, is_archived: undefined }]) }, ['schema_violation']],
  // As long as the first body, and so judged on its own rather than by the first one's validation remembered.
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
];

describe('response_schema_conformance', () => {
  testExchangeCases(cases);
});
