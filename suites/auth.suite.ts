// Credentials and scopes: requests without credentials and with a token that has no scopes.
import { defineChecksSuite } from '../harness/suite.js';

await defineChecksSuite(['anonymous', 'no_scope']);
