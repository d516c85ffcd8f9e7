// Page walks (every page of a generated filtered list, then the page past the last) and the
// pagination defaults (no page and limit = page 1 of 10).
import { SUITE_NEEDS } from '../harness/suites.js';
import { defineChecksSuite } from '../harness/suite.js';

await defineChecksSuite(SUITE_NEEDS.pagination);
