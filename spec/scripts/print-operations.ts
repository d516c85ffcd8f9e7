/**
 * Prints the README's table of operations as core/spec/operations-table.ts renders it from the
 * bundled document (`npm run spec:operations`), to paste after adding or changing an operation.
 * @see docs/architecture.md (Recipes: add an operation to the reference)
 */
import { operationsTable } from '../../core/spec/operations-table.js';
import { loadSpec } from '../../core/spec/load.js';

process.stdout.write(`${operationsTable(await loadSpec())}\n`);
