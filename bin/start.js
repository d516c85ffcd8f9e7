// Loads the TypeScript sources on Node >= 22 and starts the command line (bin/conformance.js
// checks the Node version first, since bin/register.js uses APIs an older Node lacks).
import './register.js';

await import('../cli/cli.ts');
