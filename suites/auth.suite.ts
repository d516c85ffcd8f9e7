// Credentials, scopes and tenancy: no credentials, an unknown token, a token without scopes, a
// token with read scopes only, and the other organization's token on the first one's resources.
import { defineChecksSuite } from '../harness/suite.js';

await defineChecksSuite(['anonymous', 'invalid_credentials', 'no_scope', 'reader', 'other_org']);
