// invalid_auth_rejected on hand-made exchanges: passing cases and failing ones with the exact
// finding kind, and the operations it does not apply to, with the reason.
import { describe } from 'vitest';
import { invalidAuthRejected } from '../../checks/invalid-auth-rejected.js';
import { type ExchangeCase, testBareApplicability, testExchangeCases } from './cases.js';
import { list } from './fixtures.js';

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: ExchangeCase[] = [
  ['invalid auth: 401 with body passes', invalidAuthRejected, 'products:list', { role: null, status: 401, body: { error: 'Unauthorized', detail: 'unknown token' } }, []],
  ['invalid auth: 200 fails', invalidAuthRejected, 'products:list', { role: null, status: 200, body: list([]) }, ['ignored_auth']],
  ['invalid auth: 403 fails', invalidAuthRejected, 'products:list', { role: null, status: 403, body: { error: 'NotPermitted', detail: 'x' } }, ['wrong_status_for_missing_auth']],
];

describe('invalid_auth_rejected', () => {
  testExchangeCases(cases);
});

describe('applicability', () => {
  testBareApplicability([[invalidAuthRejected, 'the operation does not require credentials']]);
});
