// not_a_server_error on hand-made exchanges: passing cases and failing ones with the exact finding
// kind.
import { describe } from 'vitest';
import { notAServerError } from '../../checks/not-a-server-error.js';
import { type ExchangeCase, testExchangeCases } from './cases.js';
import { list } from './fixtures.js';

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: ExchangeCase[] = [
  ['server error: 200 passes', notAServerError, 'products:list', { status: 200, body: list([]) }, []],
  ['server error: 500 fails', notAServerError, 'products:list', { status: 500, body: { detail: 'boom' } }, ['server_error']],
  ['server error: no response fails', notAServerError, 'products:list', { transportError: { code: 'CNF_TIMEOUT', message: 'no answer' } }, ['no_response']],
];

describe('not_a_server_error', () => {
  testExchangeCases(cases);
});
