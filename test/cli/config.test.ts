// conformance.config.json: the JSON Schema, every problem in one message, the nearest known key,
// fixture names checked against the document, scenarios and families.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { configProblems, readConfigFile, resolveRemoteTarget } from '../../cli/config.js';
import { EXTRA_FIXTURE_NAMES, knownFixtureNames } from '../../engine/fixture-names.js';
import { bundledSchema } from '../../core/input-schema.js';
import { startReferenceServer } from '../../server/index.js';
import { loadSpec } from '../../core/spec/load.js';

const dir = mkdtempSync(path.join(tmpdir(), 'cnf-config-'));
const file = (name: string, content: unknown) => {
  const at = path.join(dir, name);
  writeFileSync(at, typeof content === 'string' ? content : JSON.stringify(content));
  return at;
};

describe('configProblems', () => {
  test.each([
    ['an unknown key, with the nearest known one', { requestPerSecond: 10 }, ['unknown key "requestPerSecond"; did you mean "requestsPerSecond"?']],
    ['an unknown key nothing is near', { colour: 'red' }, ['unknown key "colour" (known: target']],
    ['an unknown role, with the nearest one', { roles: { admn: { tokenEnv: 'A' } } }, ['roles: unknown key "admn"; did you mean "admin"?']],
    ['an inline token', { roles: { admin: { token: 'secret' } } }, ['roles.admin: inline "token": name its environment variable with "tokenEnv" instead', 'roles.admin: "tokenEnv" is required']],
    ['a token variable that is not a variable name', { roles: { admin: { tokenEnv: 'my token' } } }, ['roles.admin.tokenEnv "my token" does not match']],
    ['a target that is not http(s)', { target: 'ftp://x' }, ['target "ftp://x" does not match']],
    ['a fixture that is not a string', { fixtures: { product_id: 3 } }, ['fixtures.product_id must be string, not 3']],
    ['a negative rate', { requestsPerSecond: -1 }, ['requestsPerSecond must be > 0']],
    ['a timeout that is text', { timeoutMs: '10s' }, ['timeoutMs must be number, not "10s"']],
    ['not an object', [], ['(top level) must be object, not []']],
  ] as const)('%s', (_name, config, want) => {
    const problems = configProblems(config);
    expect(problems).toHaveLength(want.length);
    for (const part of want) expect(problems).toContainEqual(expect.stringContaining(part));
  });

  test('a valid config has no problem; null pacing is allowed', () => {
    expect(configProblems({ $schema: './x.json', target: 'https://x.example', roles: { admin: { tokenEnv: 'A_TOKEN' } }, fixtures: { product_id: 'p' }, requestsPerSecond: null, timeoutMs: 5, readOnly: true, rateLimitCheck: false })).toEqual([]);
  });

  test('a fixture typo is refused with the nearest fixture name, only when the names are given', () => {
    const config = { fixtures: { prodcut_id: 'p', product_id: 'p' } };
    expect(configProblems(config)).toEqual([]);
    expect(configProblems(config, { fixtureNames: ['product_id', 'order_id'] })).toEqual([
      'fixtures.prodcut_id: no operation, scenario or family uses a fixture of this name; did you mean "product_id"?',
    ]);
  });
});

describe('readConfigFile', () => {
  test('gives every problem in one error', async () => {
    const at = file('many.json', { requestPerSecond: 10, roles: { admin: { token: 'x' } }, timeoutMs: 0, fixtures: { prodcut_id: 'p' } });
    const error = await readConfigFile(at, { fixtureNames: ['product_id'] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'HarnessError', code: 'CNF_ERR_CONFIG_INVALID' });
    const message = (error as Error).message;
    expect(message).toMatch(new RegExp(`^config ${at.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} has 5 problems:\n`));
    for (const part of ['did you mean "requestsPerSecond"?', 'inline "token"', '"tokenEnv" is required', 'timeoutMs must be > 0', 'did you mean "product_id"?']) expect(message).toContain(part);
  });

  test.each([
    ['not JSON', '{', /cannot read config/],
    ['a missing file', undefined, /cannot read config/],
  ] as const)('%s is refused', async (name, content, message) => {
    const at = content === undefined ? path.join(dir, 'absent.json') : file(`${name}.json`, content);
    await expect(readConfigFile(at)).rejects.toThrow(message);
  });

  test('the example config and the bundled schema agree', async () => {
    const example = JSON.parse(readFileSync('conformance.config.example.json', 'utf8')) as object;
    expect(configProblems(example)).toEqual([]);
    expect(bundledSchema('config.schema.json')).toMatchObject({ additionalProperties: false });
  });
});

describe('knownFixtureNames', () => {
  let names: string[];
  beforeAll(async () => {
    names = knownFixtureNames(await loadSpec());
  });

  test('holds the path parameters of the document, the scenarios and families, and the extras', () => {
    for (const name of ['product_id', 'order_id', 'customer_id', 'customer_external_id', 'oauth_client_secret', ...EXTRA_FIXTURE_NAMES]) expect(names).toContain(name);
    expect(names).not.toContain('prodcut_id');
  });

  test("holds every fixture the reference server hands out, so a config copied from it is valid", async () => {
    const reference = await startReferenceServer({ host: '127.0.0.1', port: 0, seed: 1, rateLimit: false });
    try {
      expect(Object.keys(reference.fixtures).filter((name) => !names.includes(name))).toEqual([]);
    } finally {
      await reference.close();
    }
  });
});

describe('resolveRemoteTarget', () => {
  test('names every unset variable the config names, in one error', () => {
    const config = { roles: { admin: { tokenEnv: 'B_ADMIN' }, reader: { tokenEnv: 'B_READER' }, pat: { tokenEnv: 'B_PAT' } } };
    expect(() => resolveRemoteTarget({ url: 'https://x.example', config, env: { B_READER: 'r' } })).toThrowError(
      expect.objectContaining({ code: 'CNF_ERR_SECRET_MISSING', message: 'the config names 2 variables that are not set:\n  export B_ADMIN=…   # role admin\n  export B_PAT=…   # role pat' }),
    );
  });

  test('without a config, unset default variables leave their roles out', () => {
    const target = resolveRemoteTarget({ url: 'https://x.example/', env: { CONFORMANCE_ADMIN_TOKEN: 'a' } });
    expect(target.roles).toEqual({ admin: { token: 'a', env: 'CONFORMANCE_ADMIN_TOKEN' } });
    expect(target.baseUrl).toBe('https://x.example');
  });
});
