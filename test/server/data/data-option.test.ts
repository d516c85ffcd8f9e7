// A data file in the running server: the library's `data` option, the control route
// POST /__control/data and the in-process `control.loadData`, a reset, and `--state`. Each bad
// file is refused with one line naming the file, the line and the field, and nothing is loaded:
// the store is the same record for record, and no state file is written.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarnessError } from '../../../core/errors.js';
import { startReferenceServer } from '../../../server/index.js';
import { snapshotStore } from '../../../server/persistence.js';
import type { Store } from '../../../server/store.js';
import { testServer, type TestServer } from '../support.js';
import { BAD_FILES, goodFile } from './bad-files.js';

const DIR = mkdtempSync(path.join(tmpdir(), 'cnf-data-option-'));
const clock = () => new Date('2027-03-15T12:00:00Z');

function fileWith(name: string, text: string): string {
  const file = path.join(DIR, name);
  writeFileSync(file, text);
  return file;
}

/** The whole store as comparable data (records, tokens, logs, clock offset, id sequence). */
function contents(store: Store): string {
  return JSON.stringify(snapshotStore(store));
}

describe('startReferenceServer({ data })', () => {
  it('serves the file\'s records to the file\'s token, with the ids it gives', async () => {
    const file = fileWith('good.yaml', goodFile('    tokens:\n      - token: polar_oat_acme_dev_token\n'));
    const running = await startReferenceServer({ data: file, clock, rateLimit: false });
    try {
      const answer = await fetch(`${running.url}/v1/customers/1c1c1c1c-0000-4000-8000-000000000001`, { headers: { authorization: 'Bearer polar_oat_acme_dev_token' } });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ email: 'ada@example.com' });
      expect(running.settings.data).toMatchObject({ source: file, loaded: true, counts: { products: 2, prices: 2, customers: 1 } });
      expect(running.fixtures.customer_id).toBe('1c1c1c1c-0000-4000-8000-000000000001');
    } finally {
      await running.close();
    }
  });

  it.each(BAD_FILES)('refuses %s with one line, and writes no state file', async (name, text, line, field) => {
    const file = fileWith(`${name.replace(/\W+/g, '-')}.yaml`, text);
    const state = path.join(DIR, `${name.replace(/\W+/g, '-')}.state`);
    const started = startReferenceServer({ data: file, stateFile: state, clock });
    await expect(started).rejects.toBeInstanceOf(HarnessError);
    await expect(started).rejects.toMatchObject({ code: 'CNF_ERR_DATA_INVALID', message: expect.stringContaining(`${file}:${line}:`) });
    const message = await started.then(() => '', (error: Error) => error.message);
    expect(message).not.toContain('\n');
    expect(message.split(': ')[1]).toMatch(new RegExp(`^${field.replace(/[.*+?^$()|[\]\\]/g, '\\$&')}`));
    // Nothing of the state file: neither the file nor its lock (a second start may take it).
    expect(existsSync(state)).toBe(false);
    expect(existsSync(`${state}.lock`)).toBe(false);
  });

  it('takes the file\'s content as a value, naming its fields without lines', async () => {
    await expect(startReferenceServer({ data: { organizations: [{ name: 'Acme', customers: [{ email: 'not an email' }] }] } })).rejects.toMatchObject({
      code: 'CNF_ERR_DATA_INVALID',
      message: 'data option: organizations[0].customers[0].email: "not an email" is not an email address',
    });
  });
});

describe('POST /__control/data and control.loadData', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer({ clock });
  });
  afterAll(async () => {
    await server.app.close();
  });

  it.each(BAD_FILES)('refuses %s in the API\'s error format, and the store is unchanged', async (_name, text, line, field, status) => {
    server.control.reset();
    server.control.advanceClock(86_400_000);
    const before = contents(server.store);
    const answer = await server.app.inject({ method: 'POST', url: '/__control/data?name=catalogue.yaml', headers: { 'content-type': 'application/yaml' }, payload: text });
    expect(answer.statusCode).toBe(status);
    const body = answer.json() as { error?: string; detail: string | { loc: (string | number)[]; msg: string; type: string }[] };
    const first = typeof body.detail === 'string' ? body.detail : body.detail[0]!.msg;
    expect(first).toMatch(new RegExp(`^catalogue\\.yaml:${line}:\\d+: ${field.replace(/[.*+?^$()|[\]\\]/g, '\\$&')}`));
    if (status === 422) expect((body.detail as { loc: unknown[] }[])[0]!.loc.slice(0, 3)).toEqual(['body', 'organizations', Number(field.split(/[[\]]/)[1])]);
    expect(contents(server.store)).toBe(before);
    // The same in-process: nothing loaded either.
    const loaded = server.control.loadData(fileWith('in-process.yaml', text));
    expect(loaded.ok).toBe(false);
    expect(contents(server.store)).toBe(before);
  });

  it('refuses a body that is no data file with a 400', async () => {
    const before = contents(server.store);
    const empty = await server.app.inject({ method: 'POST', url: '/__control/data' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ error: 'BadRequest', detail: expect.stringContaining('The body must be a data file') });
    const notAnObject = await server.app.inject({ method: 'POST', url: '/__control/data', headers: { 'content-type': 'text/plain' }, payload: '- a list' });
    expect(notAnObject.statusCode).toBe(422);
    expect(notAnObject.json().detail[0].msg).toBe('request body:1:1: (top level): must be an object, not ["a list"]');
    const json = await server.app.inject({ method: 'POST', url: '/__control/data', headers: { 'content-type': 'application/json' }, payload: '{"organizations": [' });
    expect(json.statusCode).toBe(400);
    expect(json.json().detail).toMatch(/^request body:1:\d+: \(syntax\): not valid YAML or JSON/);
    expect(contents(server.store)).toBe(before);
  });

  it('loads a YAML or JSON file in place of the store (the clock back at its base), and a reset goes back to the demo store', async () => {
    server.control.reset();
    server.control.advanceClock(86_400_000);
    const answer = await server.app.inject({ method: 'POST', url: '/__control/data', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ organizations: [{ name: 'Acme', tokens: [{ token: 'polar_oat_posted_token' }], customers: [{ email: 'ada@example.com' }] }] }) });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ counts: { organizations: 1, customers: 1, tokens: 1 }, fixtures: { customer_id: expect.any(String) } });
    expect(server.store.clockOffsetMs).toBe(0);
    expect([...server.store.customers.all()]).toHaveLength(1);
    const customer = await server.get(`/v1/customers/${answer.json().fixtures.customer_id}`, {}, null, { authorization: 'Bearer polar_oat_posted_token' });
    expect(customer.json()).toMatchObject({ email: 'ada@example.com' });
    server.control.reset();
    expect(server.store.customers.get(server.fixtures.customer_id!)).toBeDefined();
  });
});

describe('a server started with a data file', () => {
  let server: TestServer;
  const file = fileWith('reset.yaml', goodFile());
  beforeAll(async () => {
    server = await testServer({ data: file, clock });
  });
  afterAll(async () => {
    await server.app.close();
  });
  const emails = () => [...server.store.customers.all()].map((customer) => customer.email).sort();

  it('a reset loads the file again, read anew', () => {
    server.control.createCustomer({ email: 'extra@example.com' });
    expect(emails()).toEqual(['ada@example.com', 'extra@example.com']);
    // Grace is added to the file: the reset reads it again.
    writeFileSync(file, goodFile().replace('email: ada@example.com }\n', 'email: ada@example.com }\n      - { email: grace@example.com }\n'));
    expect(server.control.reset().fixtures.customer_id).toBe('1c1c1c1c-0000-4000-8000-000000000001');
    expect(emails()).toEqual(['ada@example.com', 'grace@example.com']);
  });

  it('a reset whose file no longer loads is a 422, and nothing changes', async () => {
    server.control.createCustomer({ email: 'extra@example.com' });
    const before = contents(server.store);
    writeFileSync(file, goodFile('    subscriptions:\n      - { customer: ada, product: lifetime }\n'));
    const answer = await server.app.inject({ method: 'POST', url: '/__control/reset' });
    expect(answer.statusCode).toBe(422);
    expect(answer.json().detail[0].msg).toMatch(/^the data file does not load any more: .*reset\.yaml:13:\d+: organizations\[0\]\.subscriptions\[0\]\.product: /);
    expect(contents(server.store)).toBe(before);
  });
});

describe('--data with --state', () => {
  it('seeds a new state file; once it exists the data file is not read, and what was loaded survives a restart', async () => {
    const state = path.join(DIR, 'seeded.state');
    const file = fileWith('seed.yaml', goodFile());
    const first = await startReferenceServer({ data: file, stateFile: state, clock });
    expect(first.settings.data).toMatchObject({ loaded: true });
    const added = first.control.createCustomer({ email: 'kept@example.com' });
    await first.close();
    // The data file is now broken: it is not read, the state file holds the store.
    writeFileSync(file, 'organizations: [');
    const second = await startReferenceServer({ data: file, stateFile: state, clock });
    try {
      expect(second.settings.data).toEqual({ source: file, loaded: false });
      if (!added.ok) throw new Error(added.error.message);
      const kept = await fetch(`${second.url}/v1/customers/${added.value.id as string}`, { headers: { authorization: `Bearer ${second.credentials.admin}` } });
      expect(await kept.json()).toMatchObject({ email: 'kept@example.com' });
      // The harness's organization A is still the file's first organization.
      expect(second.fixtures.customer_id).toBe('1c1c1c1c-0000-4000-8000-000000000001');
    } finally {
      await second.close();
    }
  });

  it('keeps a store loaded through POST /__control/data across a restart', async () => {
    const state = path.join(DIR, 'posted.state');
    const first = await startReferenceServer({ stateFile: state, clock });
    const posted = await fetch(`${first.url}/__control/data`, { method: 'POST', headers: { 'content-type': 'application/yaml' }, body: goodFile('    tokens: [{ token: polar_oat_after_restart }]\n') });
    expect(posted.status).toBe(200);
    await first.close();
    const second = await startReferenceServer({ stateFile: state, clock });
    try {
      const answer = await fetch(`${second.url}/v1/products/?sorting=name`, { headers: { authorization: 'Bearer polar_oat_after_restart' } });
      expect(((await answer.json()) as { items: { name: string }[] }).items.map((p) => p.name)).toEqual(['Lifetime', 'Pro']);
      expect(second.fixtures.customer_id).toBe('1c1c1c1c-0000-4000-8000-000000000001');
    } finally {
      await second.close();
    }
  });
});
