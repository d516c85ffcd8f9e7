// insufficient_scope_rejected on hand-made exchanges: passing cases and failing ones with the exact
// finding kind, and the operations it does not apply to, with the reason.
import { describe } from 'vitest';
import { insufficientScopeRejected } from '../../checks/insufficient-scope-rejected.js';
import { type ExchangeCase, testBareApplicability, testExchangeCases } from './cases.js';
import { list } from './fixtures.js';

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: ExchangeCase[] = [
  ['scope: 403 with body passes', insufficientScopeRejected, 'products:list', { role: 'no_scope', status: 403, body: { error: 'NotPermitted', detail: 'scope' } }, []],
  ['scope: 200 fails', insufficientScopeRejected, 'products:list', { role: 'no_scope', status: 200, body: list([]) }, ['scope_ignored']],
  ['scope: 403 without a JSON body fails', insufficientScopeRejected, 'products:list', { role: 'no_scope', status: 403, contentType: 'text/plain', rawBody: 'forbidden' }, ['wrong_answer_for_insufficient_scope']],
];

describe('insufficient_scope_rejected', () => {
  testExchangeCases(cases);
});

describe('applicability', () => {
  testBareApplicability([[insufficientScopeRejected, 'the operation names no scopes']]);
});
