// The API's request rate limit: one burst of more than twice the limit from one client address,
// past the harness's pacing, on one operation (the limit is per client, not per operation).
import { SUITE_NEEDS } from '../engine/suites.js';
import { defineChecksSuite } from '../engine/suite.js';

await defineChecksSuite(SUITE_NEEDS['rate-limit']);
