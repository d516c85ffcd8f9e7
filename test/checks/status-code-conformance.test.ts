// status_code_conformance on hand-made exchanges: passing cases and failing ones with the exact
// finding kind.
import { describe } from 'vitest';
import { statusCodeConformance } from '../../checks/status-code-conformance.js';
import { type ExchangeCase, testExchangeCases } from './cases.js';

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: ExchangeCase[] = [
  ['status: documented 422 passes', statusCodeConformance, 'products:list', { status: 422, body: { detail: [] } }, []],
  ['status: undocumented 204 fails', statusCodeConformance, 'products:list', { status: 204 }, ['undocumented_status_code']],
];

describe('status_code_conformance', () => {
  testExchangeCases(cases);
});
