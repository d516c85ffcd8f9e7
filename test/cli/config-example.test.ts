import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readConfigFile, resolveRemoteTarget } from '../../cli/config.js';

describe('conformance.config.example.json', () => {
  it('is a valid config that names the variables the README QA recipe exports, one per role', async () => {
    const config = await readConfigFile('conformance.config.example.json');
    const readme = readFileSync('README.md', 'utf8');
    const recipe = readme.slice(readme.indexOf('### QA against a URL'), readme.indexOf('### Developers'));
    const exported = [...recipe.matchAll(/\b(BILLING_[A-Z_]+_TOKEN)=/g)].map((match) => match[1]).sort();
    expect(exported.length).toBeGreaterThan(0);
    expect(Object.values(config.roles ?? {}).map((role) => role.tokenEnv).sort()).toEqual(exported);
    const env = Object.fromEntries(exported.map((name) => [name, `token of ${name}`]));
    const target = resolveRemoteTarget({ url: config.target!, config, env });
    expect(Object.keys(target.roles).sort()).toEqual(Object.keys(config.roles ?? {}).sort());
    expect(target.roles.writer).toEqual({ token: 'token of BILLING_WRITER_TOKEN', env: 'BILLING_WRITER_TOKEN' });
  });
});
