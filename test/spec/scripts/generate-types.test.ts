// The committed TypeScript types are what openapi-typescript makes of the current documents.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { API_VERSIONS } from '../../../core/spec/load.js';
import { generateTypes, typesPath } from '../../../spec/scripts/generate-types.js';

describe('spec/generated types', () => {
  test.each(API_VERSIONS.map((v) => [v]))('openapi-%s.d.ts is current (run `npm run spec:types`)', async (version) => {
    expect(await generateTypes(version)).toBe(readFileSync(typesPath(version), 'utf8'));
  }, 60_000);

  test('every operation of the document has its generated type', () => {
    const types = readFileSync(typesPath('2026-10'), 'utf8');
    for (const id of ['products:list', 'subscriptions:list', 'oauth2:token', 'customers:delete_external']) {
      expect(types).toContain(`"${id}": {`);
    }
  });
});
