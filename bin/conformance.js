#!/usr/bin/env node
// The `conformance` command: registers tsx so the TypeScript sources run as they are, then hands
// over to the CLI (docs/decisions.md: no build step).
import { register } from 'tsx/esm/api';

register();
await import('../harness/cli.ts');
