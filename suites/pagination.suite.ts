// Page walks (every page of a generated filtered list, then the page past the last) and the
// pagination defaults (no page and limit = page 1 of 10).
import { SUITE_NEEDS } from '../engine/suites.js';
import { defineChecksSuite } from '../engine/suite.js';

await defineChecksSuite(SUITE_NEEDS.pagination);
