// missing_auth_rejected on hand-made exchanges: passing cases and failing ones with the exact
// finding kind, and the operations it does not apply to, with the reason.
import { describe } from 'vitest';
import { missingAuthRejected } from '../../checks/missing-auth-rejected.js';
import { type ExchangeCase, testBareApplicability, testExchangeCases } from './cases.js';
import { list } from './fixtures.js';

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: ExchangeCase[] = [
  ['missing auth: 401 with body passes', missingAuthRejected, 'products:list', { role: null, status: 401, body: { error: 'Unauthorized', detail: 'missing token' } }, []],
  ['missing auth: 200 fails', missingAuthRejected, 'products:list', { role: null, status: 200, body: list([]) }, ['ignored_auth']],
  ['missing auth: 403 fails', missingAuthRejected, 'products:list', { role: null, status: 403, body: { error: 'NotPermitted', detail: 'x' } }, ['wrong_status_for_missing_auth']],
  ['missing auth: wrong body fails', missingAuthRejected, 'products:list', { role: null, status: 401, body: { message: 'no' } }, ['wrong_error_body']],
];

describe('missing_auth_rejected', () => {
  testExchangeCases(cases);
});

describe('applicability', () => {
  testBareApplicability([[missingAuthRejected, 'the operation does not require credentials']]);
});
