import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildApp, type BuildAppOptions, type ReferenceApp } from '../../server/app.js';
import { readStateFile, restoreStore, snapshotStore, STATE_FORMAT, STATE_FORMAT_VERSION, writeStateFile } from '../../server/persistence.js';
import { authenticate } from '../../server/auth.js';
import { ID_GAP_AFTER_CRASH, journalPath, recoverState } from '../../server/state-journal.js';
import { MAX_KEPT_EVENTS } from '../../server/store.js';
import { createStore } from '../../server/store.js';
import { localPath, testServer } from './support.js';

const CLOCK = () => new Date('2026-06-01T12:00:00Z');

function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'cnf-state-'));
}

async function build(options: BuildAppOptions): Promise<ReferenceApp> {
  return buildApp({ rateLimit: false, clock: CLOCK, ...options });
}

function admin(server: ReferenceApp) {
  return { authorization: `Bearer ${server.credentials.admin}` };
}

/** Changes of every kind: an order created and paid, a customer deleted, a seat invited, a code minted, the clock advanced, a webhook endpoint, a file uploaded. */
async function change(server: ReferenceApp): Promise<{ orderId: string; fileId: string }> {
  const created = server.control.createOrder();
  if (!created.ok) throw new Error(created.error.message);
  const orderId = created.value.id as string;
  server.control.completeOrder(orderId);
  expect((await server.app.inject({ method: 'DELETE', url: `/v1/customers/external/${server.fixtures.customer_external_id}`, headers: admin(server) })).statusCode).toBe(204);
  expect(server.control.createSeatInvitation({ email: 'kept@example.com' }).ok).toBe(true);
  expect(server.control.mintAuthorizationCode({ scope: 'openid' }).ok).toBe(true);
  server.control.advanceClock(90_000);
  expect(server.control.createWebhookEndpoint({ url: 'http://127.0.0.1:9/hook', events: ['order.paid'], name: 'kept' }).ok).toBe(true);
  const file = await server.app.inject({
    method: 'POST',
    url: '/v1/files/',
    headers: { ...admin(server), 'content-type': 'application/json' },
    payload: JSON.stringify({ name: 'a.txt', mime_type: 'text/plain', size: 5, service: 'downloadable', upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 4 }] } }),
  });
  expect(file.statusCode).toBe(200);
  const put = await server.app.inject({ method: 'PUT', url: localPath(file.json().upload.parts[0].url), payload: Buffer.from('hello') });
  expect(put.statusCode).toBe(200);
  return { orderId, fileId: file.json().id as string };
}

describe('snapshotStore and restoreStore', () => {
  it('round-trips the whole store: same snapshot, same indexes, shared records stay shared', async () => {
    const server = await testServer({ clock: CLOCK });
    await change(server);
    const snapshot = snapshotStore(server.store);
    const text = JSON.stringify(snapshot);
    const restored = restoreStore(JSON.parse(text), { clock: CLOCK });
    expect(JSON.stringify(snapshotStore(restored))).toBe(text);
    expect([restored.seed, restored.idSequence, restored.clockOffsetMs]).toEqual([server.store.seed, server.store.idSequence, 90_000]);
    expect(restored.clock().toISOString()).toBe(server.store.clock().toISOString());
    const [customer] = server.store.customers.lookup('external_id', server.fixtures.customer_external_id!);
    expect(restored.customers.lookup('external_id', server.fixtures.customer_external_id!)).toEqual([customer]);
    expect(restored.orders.lookup('customer_id', customer!.id).map((o) => o.id)).toEqual(server.store.orders.lookup('customer_id', customer!.id).map((o) => o.id));
    const media = [...restored.medias.all()][0]!;
    expect(restored.files.get(media.id)).toBe(media);
    expect(restored.tokens[0]!.digest).toBeInstanceOf(Buffer);
    expect(restored.tokens[0]!.scopes).toBeInstanceOf(Set);
    expect(restored.tokens).toEqual(server.store.tokens);
    expect(restored.authorizationCodes).toEqual(server.store.authorizationCodes);
    expect(restored.events).toEqual(server.store.events);
  });

  it('keeps values that look like its own tags, and __proto__ keys, as data', () => {
    const store = createStore({ seed: 3 });
    const tricky = JSON.parse('{"$b": "aGk=", "$same": ["x", "y"], "__proto__": {"polluted": true}, "plain": {"$o": 1}}');
    store.organizations.insert({ id: 'org', organization_id: 'org', created_at: 't', modified_at: null, name: 'n', slug: 's' });
    store.events.push({ id: 'e', type: 't', timestamp: 't', data: tricky });
    const restored = restoreStore(JSON.parse(JSON.stringify(snapshotStore(store))));
    expect(restored.events[0]!.data).toEqual(tricky);
    expect(Object.getPrototypeOf(restored.events[0]!.data)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps data nested as deep as JSON can hold (no recursion limit of its own)', () => {
    const store = createStore({ seed: 3 });
    const deep = JSON.parse(`${'{"a":'.repeat(3000)}[1, {"$s": 2}]${'}'.repeat(3000)}`);
    store.events.push({ id: 'e', type: 't', timestamp: 't', data: deep });
    store.authorizationCodes.set('k', { client_id: 'c', redirect_uri: null, scope: '', subject: { type: 'user', id: 'u', organizationIds: [] }, nonce: null, expiresAtMs: 1, used: false, issued: { access: [Buffer.from('x')], refresh: [] } });
    const restored = restoreStore(JSON.parse(JSON.stringify(snapshotStore(store))));
    expect(JSON.stringify(restored.events)).toBe(JSON.stringify(store.events));
    expect(restored.authorizationCodes.get('k')!.issued.access[0]).toEqual(Buffer.from('x'));
  });

  it.each<[string, unknown]>([
    ['an unknown collection', { seed: 1, idSequence: 0, clockOffsetMs: 0, data: { widgets: [] } }],
    ['a collection that is not a list', { seed: 1, idSequence: 0, clockOffsetMs: 0, data: { products: {} } }],
    ['a record without an id', { seed: 1, idSequence: 0, clockOffsetMs: 0, data: { products: [{ name: 'x' }] } }],
    ['a duplicate id', { seed: 1, idSequence: 0, clockOffsetMs: 0, data: { organizations: [{ id: 'a', organization_id: 'a' }, { id: 'a', organization_id: 'a' }] } }],
    ['a reference to a missing record', { seed: 1, idSequence: 0, clockOffsetMs: 0, data: { files: [{ $same: ['medias', 'nope'] }] } }],
    ['an unknown tag', { seed: 1, idSequence: 0, clockOffsetMs: 0, data: { events: [{ $x: 1 }] } }],
    ['a seed that is not a number', { seed: 'one', idSequence: 0, clockOffsetMs: 0, data: {} }],
  ])('refuses %s with CNF_ERR_CONFIG_INVALID', (_name, snapshot) => {
    expect(() => restoreStore(snapshot as never)).toThrowError(expect.objectContaining({ code: 'CNF_ERR_CONFIG_INVALID' }));
  });
});

describe('--state FILE', () => {
  it('seeds and writes a new file, keeps every change across a restart, and behaves the same', async () => {
    const file = path.join(tempDir(), 'state.json');
    const first = await build({ stateFile: file });
    expect(first.settings.state).toEqual({ file, loaded: false });
    expect((await readStateFile(file))!.seed).toBe(1);
    const { orderId, fileId } = await change(first);
    const before = await first.app.inject({ url: '/v1/files/?limit=100&sorting=-created_at', headers: admin(first) });
    const idSequence = first.store.idSequence;
    await first.app.close();

    const second = await build({ stateFile: file });
    try {
      expect(second.settings.state).toEqual({ file, loaded: true });
      expect(second.credentials).toEqual(first.credentials);
      expect(second.fixtures).toEqual(first.fixtures);
      expect(second.store.idSequence).toBe(idSequence);
      expect(second.store.clock().toISOString()).toBe('2026-06-01T12:01:30.000Z');
      expect(second.store.orders.get(orderId)?.status).toBe('paid');
      expect(second.store.files.get(fileId)?.is_uploaded).toBe(true);
      expect(second.control.events('order.paid').map((e) => e.data.id)).toContain(orderId);
      const after = await second.app.inject({ url: '/v1/files/?limit=100&sorting=-created_at', headers: admin(second) });
      expect(after.body).toBe(before.body);
      // The deleted customer stays deleted: deleting it again is a 404.
      expect((await second.app.inject({ method: 'DELETE', url: `/v1/customers/external/${second.fixtures.customer_external_id}`, headers: admin(second) })).statusCode).toBe(404);
      // Reset still restores the demo state of the seed.
      second.control.reset();
      expect(second.store.orders.get(orderId)).toBeUndefined();
    } finally {
      await second.app.close();
    }
    const recovered = await recoverState(file);
    expect(recovered?.store.orders.get(orderId)).toBeUndefined();
    expect(recovered?.crashed).toBe(false);
  });

  it('has a change of an HTTP request in the journal before its answer, and one of an in-process call soon after', async () => {
    const file = path.join(tempDir(), 'state.json');
    const server = await build({ stateFile: file });
    try {
      const answer = await server.app.inject({ method: 'POST', url: '/__control/orders', headers: { 'content-type': 'application/json' }, payload: '{"checkout":false}' });
      expect(answer.statusCode).toBe(201);
      // Read at once, without polling: the answer was sent after the fsync.
      expect(readFileSync(journalPath(file, 1), 'utf8')).toContain(answer.json().id);
      const created = server.control.createOrder({ checkout: false });
      if (!created.ok) throw new Error(created.error.message);
      await expect.poll(() => readFileSync(journalPath(file, 1), 'utf8'), { timeout: 2000, interval: 10 }).toContain(created.value.id as string);
      const disk = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!);
      expect([disk.format, disk.version, disk.generation]).toEqual([STATE_FORMAT, STATE_FORMAT_VERSION, 1]);
    } finally {
      await server.app.close();
    }
  });

  it('groups the commits of concurrent requests into fewer fsyncs, and compacts in the background', async () => {
    const file = path.join(tempDir(), 'state.json');
    const server = await build({ stateFile: file, stateCompactAfterBytes: 64 * 1024 });
    const ids: string[] = [];
    try {
      for (let round = 0; round < 10; round++) {
        const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => server.app.inject({ method: 'POST', url: '/__control/customers', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ external_id: `group-${round}-${i}` }) })));
        for (const answer of answers) {
          expect(answer.statusCode).toBe(201);
          ids.push(answer.json().id as string);
        }
      }
    } finally {
      await server.app.close();
    }
    const recovered = await recoverState(file);
    expect(ids.filter((id) => !recovered?.store.customers.get(id))).toEqual([]);
    expect(recovered?.generation).toBeGreaterThan(1);
    expect(readdirSync(path.dirname(file)).sort()).toEqual(['state.json', `state.json.journal.${recovered!.generation}`]);
  });

  it('journals what changes in place (a code used twice revokes its tokens, an endpoint disabled, benefits replaced) and ids go on past a gap after a crash', async () => {
    const file = path.join(tempDir(), 'state.json');
    const server = await build({ stateFile: file });
    const form = (fields: Record<string, string>) => ({ method: 'POST' as const, url: '/v1/oauth2/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });
    const minted = server.control.mintAuthorizationCode({ scope: 'openid products:read' });
    if (!minted.ok) throw new Error(minted.error.message);
    const client = { client_id: server.fixtures.oauth_client_id!, client_secret: server.fixtures.oauth_client_secret! };
    const exchange = { grant_type: 'authorization_code', code: minted.value.code, redirect_uri: minted.value.redirect_uri!, ...client };
    const first = await server.app.inject(form(exchange));
    expect(first.statusCode).toBe(200);
    const accessToken = first.json().access_token as string;
    expect(authenticate(server.store, `Bearer ${accessToken}`).ok).toBe(true);
    // The code again: refused, and the tokens issued from it are revoked (in place, RFC 6749 section 4.1.2).
    expect((await server.app.inject(form(exchange))).statusCode).toBe(400);
    expect(authenticate(server.store, `Bearer ${accessToken}`).ok).toBe(false);
    const endpoint = await server.app.inject({ method: 'POST', url: '/__control/webhook-endpoints', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ url: 'http://127.0.0.1:9/x', events: ['order.paid'] }) });
    expect((await server.app.inject({ method: 'POST', url: `/__control/webhook-endpoints/${endpoint.json().id}/enabled`, headers: { 'content-type': 'application/json' }, payload: '{"enabled":false}' })).statusCode).toBe(200);
    const benefits = await server.app.inject({ method: 'POST', url: `/v1/products/${server.fixtures.product_id}/benefits`, headers: { ...admin(server), 'content-type': 'application/json' }, payload: JSON.stringify({ benefits: [] }) });
    expect(benefits.statusCode).toBe(200);
    const idSequence = server.store.idSequence;
    // No close: what a kill leaves (read with the same clock, so that the token has not expired by it).
    const recovered = await recoverState(file, { clock: CLOCK });
    expect(recovered?.crashed).toBe(true);
    const store = recovered!.store;
    expect(store.idSequence).toBe(idSequence + ID_GAP_AFTER_CRASH);
    expect(authenticate(store, `Bearer ${accessToken}`).ok).toBe(false);
    expect([...store.authorizationCodes.values()].some((code) => code.used)).toBe(true);
    expect(store.webhookEndpoints.get(endpoint.json().id)?.enabled).toBe(false);
    expect(store.products.get(server.fixtures.product_id!)?.benefit_ids).toEqual([]);
    expect(authenticate(store, `Bearer ${server.credentials.admin}`).ok).toBe(true);
    await server.app.close();
  });

  it('journals an anonymizing delete: the customer\'s members and seat invitations stay anonymized after a crash, its license keys revoked', async () => {
    const file = path.join(tempDir(), 'state.json');
    const server = await build({ stateFile: file });
    // A customer with an external id and members.
    const customer = [...server.store.customers.all()].find((c) => c.external_id !== null && c.deleted_at === null && server.store.members.lookup('customer_id', c.id).length > 0);
    expect(customer).toBeDefined();
    const members = server.store.members.lookup('customer_id', customer!.id).map((m) => m.id);
    const keys = server.store.licenseKeys.lookup('customer_id', customer!.id).filter((k) => k.status === 'granted').map((k) => k.id);
    const before = members.map((id) => server.store.members.get(id)!.email);
    const deleted = await server.app.inject({ method: 'DELETE', url: `/v1/customers/external/${customer!.external_id}?anonymize=true`, headers: admin(server) });
    expect(deleted.statusCode).toBe(204);
    const live = members.map((id) => server.store.members.get(id)!.email);
    live.forEach((email, i) => expect(email).not.toBe(before[i]));
    // No close: what a kill leaves.
    const recovered = await recoverState(file, { clock: CLOCK });
    const store = recovered!.store;
    expect(members.map((id) => store.members.get(id)!.email)).toEqual(live);
    expect(members.every((id) => store.members.get(id)!.name === null)).toBe(true);
    expect(keys.map((id) => store.licenseKeys.get(id)!.status)).toEqual(keys.map(() => 'revoked'));
    await server.app.close();
  });

  it('keeps only the newest events: the log is a window', async () => {
    const server = await build({});
    const log = server.store.events;
    for (let i = 0; i < MAX_KEPT_EVENTS * 1.3; i++) log.push({ id: `e${i}`, type: 'x', timestamp: '', data: {} });
    expect(log.length).toBeLessThanOrEqual(MAX_KEPT_EVENTS * 1.25);
    expect(log.length).toBeGreaterThanOrEqual(MAX_KEPT_EVENTS);
    expect(log.at(-1)!.id).toBe(`e${Math.ceil(MAX_KEPT_EVENTS * 1.3) - 1}`);
    await server.app.close();
  });

  it('loads the main file when an interrupted write left a temporary file beside it, and removes the stray file', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'state.json');
    const first = await build({ stateFile: file });
    const created = first.control.createOrder({ checkout: false });
    await first.app.close();
    const stray = path.join(dir, `.state.json.${process.pid}.0123456789ab.tmp`);
    writeFileSync(stray, '{"format":"billing-api-reference-state","version":1,"store":{"seed":1,"idSeq');
    const second = await build({ stateFile: file });
    try {
      expect(second.settings.state?.loaded).toBe(true);
      expect(created.ok && second.store.orders.get(created.value.id as string)).toBeTruthy();
      expect(readdirSync(dir).sort()).toEqual(['state.json', 'state.json.journal.1', 'state.json.lock']);
    } finally {
      await second.app.close();
    }
  });

  it.each<[string, string, RegExp]>([
    ['corrupt JSON', '{"format": "billing-api-reference-state", "vers', /not valid JSON/],
    ['an empty file', '', /not valid JSON/],
    ['another format version', JSON.stringify({ format: STATE_FORMAT, version: 99, store: {} }), /format version 99/],
    ['another kind of file', JSON.stringify({ hello: 'world' }), /not a reference server state file/],
    ['records that do not fit', JSON.stringify({ format: STATE_FORMAT, version: 1, store: { seed: 1, idSequence: 0, clockOffsetMs: 0, data: { products: 5 } } }), /does not fit/],
    ['a format 2 file cut short', `${JSON.stringify({ format: STATE_FORMAT, version: 2, seed: 1, idSequence: 0, clockOffsetMs: 0, generation: 1 })}\n{"f":"products","r":{"id":"x"`, /not valid JSON at line 2/],
    ['a format 2 file without its end line', `${JSON.stringify({ format: STATE_FORMAT, version: 2, seed: 1, idSequence: 0, clockOffsetMs: 0, generation: 1 })}\n`, /cut short/],
  ])('refuses %s with CNF_ERR_CONFIG_INVALID and leaves the file alone', async (_name, content, message) => {
    const file = path.join(tempDir(), 'state.json');
    writeFileSync(file, content);
    await expect(build({ stateFile: file })).rejects.toMatchObject({ code: 'CNF_ERR_CONFIG_INVALID', message: expect.stringMatching(message) });
    expect(readFileSync(file, 'utf8')).toBe(content);
  });

  describe('a state file or journal one of whose lines is replaced', () => {
    const dir = tempDir();
    const file = path.join(dir, 'state.json');
    let good: string[] = [];
    let journal = '';
    const lineValues = ['null', '[]', '5', '"x"', '{}', '{"f":"orders"}', '{"f":"orders","r":null}', '{"f":"nope","r":{}}', '{"f":"orders","r":{"id":5}}', '{"f":"tokens","a":null}', '{"f":"events","a":5}', '{"f":"authorizationCodes","m":[1]}', '{"f":"orders","r":{"$same":["x","y"]}}'];
    const journalValues = ['null', '[]', '{}', '{"i":1,"o":0,"x":[null]}', '{"i":1,"o":0,"x":[["put","orders",null]]}', '{"i":1,"o":0,"x":[["tok",null]]}', '{"i":1,"o":0,"x":[["add","events",null]]}', '{"i":1,"o":0,"x":[["map","refreshTokens",null,null]]}', '{"i":1,"o":0,"x":[["del","orders",5]]}'];

    it('is refused with CNF_ERR_CONFIG_INVALID naming the line, whatever the line and the value', async () => {
      const first = await build({ stateFile: file });
      first.control.createOrder({ checkout: false });
      await first.app.close();
      good = readFileSync(file, 'utf8').split('\n');
      journal = readFileSync(journalPath(file, 1), 'utf8');
      // The header, a record near the start, one in the middle, the last records before the end line.
      for (const line of [1, 2, Math.floor(good.length / 2), good.length - 3, good.length - 2]) {
        for (const value of lineValues) {
          const damaged = good.map((text, i) => (i === line - 1 ? value : text)).join('\n');
          writeFileSync(file, damaged);
          const refused = await build({ stateFile: file }).then(
            async (server) => (await server.app.close(), undefined),
            (error: { code?: string; message: string }) => error,
          );
          expect(refused, `line ${line} replaced by ${value}`).toMatchObject({ code: 'CNF_ERR_CONFIG_INVALID', message: expect.stringMatching(/line \d+/) });
          expect(readFileSync(file, 'utf8')).toBe(damaged);
        }
      }
      writeFileSync(file, good.join('\n'));
      for (const value of journalValues) {
        writeFileSync(journalPath(file, 1), `${value}\n${journal}`);
        await expect(build({ stateFile: file }), value).rejects.toMatchObject({ code: 'CNF_ERR_CONFIG_INVALID', message: expect.stringMatching(/at line 1/) });
      }
    }, 60_000);
  });

  it('refuses a file of another seed than the one asked for', async () => {
    const file = path.join(tempDir(), 'state.json');
    await writeStateFile(file, snapshotStore(createStore({ seed: 5 })));
    await expect(build({ stateFile: file, seed: 6 })).rejects.toMatchObject({ code: 'CNF_ERR_CONFIG_INVALID', message: expect.stringContaining('seed 5') });
  });

  it('refuses a journal with a corrupt line before its last one, and drops a last line cut short', async () => {
    const file = path.join(tempDir(), 'state.json');
    const first = await build({ stateFile: file });
    const created = first.control.createOrder({ checkout: false });
    await first.app.close();
    const journal = journalPath(file, 1);
    const good = readFileSync(journal, 'utf8');
    writeFileSync(journal, `${good}{"i":5,"o":0,"x":[["put","orders",{"id"`);
    const recovered = await recoverState(file);
    expect(created.ok && recovered?.store.orders.get(created.value.id as string)).toBeTruthy();
    expect(readFileSync(journal, 'utf8')).toBe(good);
    writeFileSync(journal, `{"i":5,"o":0,"x":[["put"\n${good}`);
    await expect(build({ stateFile: file })).rejects.toMatchObject({ code: 'CNF_ERR_CONFIG_INVALID', message: expect.stringMatching(/corrupt at line 1/) });
  });

  it('refuses a state file that another server of this process uses, and takes over a lock left by a dead process', async () => {
    const file = path.join(tempDir(), 'state.json');
    const first = await build({ stateFile: file });
    try {
      await expect(build({ stateFile: file })).rejects.toMatchObject({ code: 'CNF_ERR_STATE_IN_USE', message: expect.stringMatching(/in use by another reference server/) });
    } finally {
      await first.app.close();
    }
    // A process id no live process has (the kernel's pid_max is at most 2^22).
    writeFileSync(`${file}.lock`, '99999999\n');
    const second = await build({ stateFile: file });
    expect(second.settings.state?.loaded).toBe(true);
    await second.app.close();
  });

  it('refuses a state file in a directory that does not exist', async () => {
    const file = path.join(tempDir(), 'missing', 'state.json');
    await expect(build({ stateFile: file })).rejects.toMatchObject({ code: 'CNF_ERR_CONFIG_INVALID', message: expect.stringContaining('cannot write') });
  });
});
