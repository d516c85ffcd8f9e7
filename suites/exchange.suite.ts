// Single-exchange checks on generated valid cases: status codes, content types, response
// schemas, server errors, page size and counts, sorting and filters.
import { SUITE_NEEDS } from '../engine/suites.js';
import { defineChecksSuite } from '../engine/suite.js';

await defineChecksSuite(SUITE_NEEDS.exchange);
