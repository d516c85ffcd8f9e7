// content_type_conformance on hand-made exchanges: passing cases and failing ones with the exact
// finding kind.
import { describe } from 'vitest';
import { contentTypeConformance } from '../../checks/content-type-conformance.js';
import { type ExchangeCase, testExchangeCases } from './cases.js';
import { list } from './fixtures.js';

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: ExchangeCase[] = [
  ['content type: json with charset passes', contentTypeConformance, 'products:list', { contentType: 'application/json; charset=utf-8', body: list([]) }, []],
  ['content type: text/plain fails', contentTypeConformance, 'products:list', { contentType: 'text/plain', body: list([]) }, ['undocumented_content_type']],
  ['content type: missing fails', contentTypeConformance, 'products:list', { contentType: null, body: list([]) }, ['missing_content_type']],
  ['content type: undocumented status not judged', contentTypeConformance, 'products:list', { status: 418, contentType: 'text/plain', rawBody: 'tea' }, []],
];

describe('content_type_conformance', () => {
  testExchangeCases(cases);
});
