// Credentials, scopes and tenancy: no credentials, an unknown token, a token without scopes, a
// token with read scopes only, and the other organization's token on the first one's resources;
// requests sent with several roles in turn (write scopes only, a personal access token, the other
// organization's lists beside the first one's, a member session beside its customer's session).
import { SUITE_NEEDS } from '../engine/suites.js';
import { defineChecksSuite } from '../engine/suite.js';

await defineChecksSuite(SUITE_NEEDS.auth);
