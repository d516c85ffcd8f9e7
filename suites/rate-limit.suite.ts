// The API's request rate limit: one burst of more than twice the limit from one client address,
// past the harness's pacing, on one operation (the limit is per client, not per operation).
import { SUITE_NEEDS } from '../harness/suites.js';
import { defineChecksSuite } from '../harness/suite.js';

await defineChecksSuite(SUITE_NEEDS['rate-limit']);
