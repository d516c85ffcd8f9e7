// Negative data: each query parameter made invalid in turn must get the API's 422 naming it; a path
// naming a resource that does not exist must get the API's 404.
import { SUITE_NEEDS } from '../engine/suites.js';
import { defineChecksSuite } from '../engine/suite.js';

await defineChecksSuite(SUITE_NEEDS.negative);
