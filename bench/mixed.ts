/**
 * The mixed workload of the benchmark: what an application sends a mock, rather than one request
 * repeated. Each request is drawn (seeded) from the list operations with a random page, limit,
 * filter set, sorting and, for some, an id filter or an id in the path; 10% are writes that change
 * the store and so drop every kept answer (PATCH an order's billing name, replace a product's
 * benefits, create a file). Prism gets the same reads (it keeps no state, so writes would measure
 * nothing). The requests are played in order by wrk's Lua `request()` (one thread: one sequence
 * shared by all connections) or by autocannon's request list.
 * @see docs/design.md (Performance); docs/reference-server.md (A realistic benchmark row)
 */
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Client } from 'undici';
import type { Store } from '../server/store.js';
import { idleShare, processCpuMs, type CpuProfile } from './cpu-profile.js';
import { spawnUntilLine } from './child-line.js';
import { random } from './fill-store.js';

/** One request of the workload; `body` is JSON. */
export interface MixedRequest {
  method: 'GET' | 'PATCH' | 'POST';
  path: string;
  body?: string;
}

/** Ids of organization A that the requests use (from bench/mixed-server.ts). */
export interface WorkloadIds {
  products: string[];
  orders: string[];
  subscriptions: string[];
  customers: string[];
  refunds: string[];
  files: string[];
  benefits: string[];
}

/**
 * The ids of one organization the workload uses: at most 500 of each kind; orders without an
 * invoice (their billing details may still change), customers not deleted, benefits not deleted.
 */
export function workloadIds(store: Store, organization: string): WorkloadIds {
  const idsOf = (records: Iterable<{ id: string }>) => [...records].slice(0, 500).map((r) => r.id);
  return {
    products: idsOf(store.products.inOrganization(organization)),
    orders: idsOf(store.orders.inOrganization(organization).filter((o) => o.invoice_generated_at === null)),
    subscriptions: idsOf(store.subscriptions.inOrganization(organization)),
    customers: idsOf(store.customers.inOrganization(organization).filter((c) => c.deleted_at === null)),
    refunds: idsOf(store.refunds.inOrganization(organization)),
    files: idsOf(store.files.inOrganization(organization)),
    benefits: idsOf(store.benefits.inOrganization(organization).filter((b) => !b.is_deleted)),
  };
}

const LIMITS = [1, 5, 10, 10, 20, 50, 100];
const PRODUCT_SORTS = ['created_at', 'name', 'price_amount_type', 'price_amount'];
const SUBSCRIPTION_SORTS = ['customer', 'status', 'started_at', 'current_period_end', 'ended_at', 'ends_at', 'amount', 'product', 'discount'];
const REFUND_SORTS = ['created_at', 'amount'];
const STATUSES = ['incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused'];
const VISIBILITIES = ['draft', 'private', 'public'];

/**
 * Draws the workload.
 * @param count requests to draw
 * @param writeShare share of writes, 0 to 1 (default 0.1)
 * @param seed default 15
 */
export function mixedRequests(ids: WorkloadIds, count: number, writeShare = 0.1, seed = 15): MixedRequest[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const chance = (p: number) => next() < p;
  const sorting = (keys: readonly string[]) => {
    const chosen = new Set<string>();
    const many = chance(0.3) ? 2 : 1;
    while (chosen.size < many) chosen.add(pick(keys));
    return [...chosen].map((key) => `sorting=${chance(0.5) ? '-' : ''}${key}`);
  };
  const page = () => [`page=${chance(0.6) ? 1 : 1 + Math.floor(next() * 5)}`, `limit=${pick(LIMITS)}`];
  const query = (parts: string[]) => (parts.length > 0 ? `?${parts.join('&')}` : '');
  const requests: MixedRequest[] = [];
  let written = 0;
  for (let i = 0; i < count; i++) {
    if (chance(writeShare)) {
      written++;
      const kind = written % 3;
      if (kind === 0) {
        requests.push({ method: 'PATCH', path: `/v1/orders/${pick(ids.orders)}`, body: JSON.stringify({ billing_name: `Bench ${i}` }) });
      } else if (kind === 1) {
        const benefits = [...new Set([pick(ids.benefits), pick(ids.benefits)])].slice(0, Math.floor(next() * 3));
        requests.push({ method: 'POST', path: `/v1/products/${pick(ids.products)}/benefits`, body: JSON.stringify({ benefits }) });
      } else {
        requests.push({ method: 'POST', path: '/v1/files/', body: JSON.stringify({ name: `bench-${i}.bin`, mime_type: 'application/octet-stream', size: 10, service: 'downloadable', upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 9 }] } }) });
      }
      continue;
    }
    const which = next();
    if (which < 0.4) {
      const parts = page();
      if (chance(0.15)) parts.push(`id=${pick(ids.products)}`);
      if (chance(0.4)) parts.push(`visibility=${pick(VISIBILITIES)}`, ...(chance(0.3) ? [`visibility=${pick(VISIBILITIES)}`] : []));
      if (chance(0.3)) parts.push(`is_archived=${chance(0.5)}`);
      if (chance(0.3)) parts.push(`is_recurring=${chance(0.5)}`);
      if (chance(0.1)) parts.push(`query=${pick(['a', 'e', 'pro', 'team', 'kit'])}`);
      if (chance(0.7)) parts.push(...sorting(PRODUCT_SORTS));
      requests.push({ method: 'GET', path: `/v1/products/${query(parts)}` });
    } else if (which < 0.75) {
      const parts = page();
      if (chance(0.15)) parts.push(`customer_id=${pick(ids.customers)}`);
      if (chance(0.1)) parts.push(`product_id=${pick(ids.products)}`);
      if (chance(0.4)) parts.push(`status=${pick(STATUSES)}`, ...(chance(0.3) ? [`status=${pick(STATUSES)}`] : []));
      if (chance(0.2)) parts.push(`active=${chance(0.5)}`);
      if (chance(0.2)) parts.push(`cancel_at_period_end=${chance(0.5)}`);
      if (chance(0.7)) parts.push(...sorting(SUBSCRIPTION_SORTS));
      requests.push({ method: 'GET', path: `/v1/subscriptions/${query(parts)}` });
    } else if (which < 0.85) {
      const parts = page();
      if (chance(0.3) && ids.refunds.length > 0) parts.push(`id=${pick(ids.refunds)}`);
      if (chance(0.2)) parts.push(`succeeded=${chance(0.5)}`);
      if (chance(0.6)) parts.push(...sorting(REFUND_SORTS));
      requests.push({ method: 'GET', path: `/v1/refunds/${query(parts)}` });
    } else if (which < 0.93) {
      const parts = page();
      if (chance(0.3) && ids.files.length > 0) parts.push(`ids=${pick(ids.files)}`);
      requests.push({ method: 'GET', path: `/v1/files/${query(parts)}` });
    } else {
      requests.push({ method: 'GET', path: `/v1/customers/${pick(ids.customers)}/payment-methods${query(page())}` });
    }
  }
  return requests;
}

/**
 * A wrk Lua script that sends `requests` in order, round and round (with `-t1`, one sequence for
 * every connection), each with the `-H` headers; writes also carry `Content-Type: application/json`.
 */
export function wrkScript(requests: readonly MixedRequest[]): string {
  const quote = (text: string) => {
    if (text.includes(']==]')) throw new Error(`cannot quote ${text} in Lua`);
    return `[==[${text}]==]`;
  };
  const specs = requests.map((r) => `  {${quote(r.method)}, ${quote(r.path)}${r.body === undefined ? '' : `, ${quote(r.body)}`}},`);
  return [
    'local specs = {',
    ...specs,
    '}',
    'local count = #specs',
    'local requests = nil',
    'local i = 0',
    // Built on the first request, when wrk.headers holds the -H headers and the Host.
    'local function build()',
    '  requests = {}',
    '  for n, spec in ipairs(specs) do',
    '    local headers = {}',
    '    for name, value in pairs(wrk.headers) do headers[name] = value end',
    '    if spec[3] then headers["Content-Type"] = "application/json" end',
    '    requests[n] = wrk.format(spec[1], spec[2], headers, spec[3])',
    '  end',
    'end',
    'request = function()',
    '  if not requests then build() end',
    '  i = i % count + 1',
    '  return requests[i]',
    'end',
    '',
  ].join('\n');
}

/** Writes the wrk script of `requests` to `file`. @returns `file` */
export function writeWrkScript(file: string, requests: readonly MixedRequest[]): string {
  writeFileSync(file, wrkScript(requests));
  return file;
}

/** A mixed-server.ts process: its URL, tokens, fixtures, ids and RSS at start. */
export interface MixedServer {
  child: ChildProcess;
  url: string;
  admin: string;
  /** The demo token of every role (server/app.ts `credentials`). */
  credentials: Record<string, string>;
  /** The demo fixtures' ids by name (`organization_id`, `product_id`, ...). */
  fixtures: Record<string, string>;
  ids: WorkloadIds;
  /** Bytes, once listening (after growing the products, when asked). */
  rss: number;
}

/**
 * Spawns bench/mixed-server.ts and waits for its line.
 * @param args its options (`--port`, `--products`, `--rate-limit`, `--state`)
 * @throws Error when it exits or does not start within `timeoutMs`
 */
export async function startMixedServer(args: string[], timeoutMs = 120_000): Promise<MixedServer> {
  const { child, first } = await spawnUntilLine<Omit<MixedServer, 'child'>>(['bench/mixed-server.ts', ...args], timeoutMs);
  return { child, ...first };
}

/** Stops a mixed server: SIGTERM, SIGKILL after 5 s. */
export async function stopMixedServer(server: MixedServer): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** The counts of bench/mixed-server.ts: list answers kept and made, and its RSS in bytes. */
export async function mixedStats(server: MixedServer): Promise<{ kept: number; made: number; rss: number }> {
  const answer = await fetch(`${server.url}/__bench/stats`);
  return (await answer.json()) as { kept: number; made: number; rss: number };
}

/** The reference's answer to one request of the sequence, as sent on the wire (not decoded). */
export interface RecordedAnswer {
  status: number;
  /** The headers the ceiling repeats: `content-type`, `content-encoding` and `vary`, when sent. */
  headers: Record<string, string>;
  body: Buffer;
}

/** The headers of an answer that the ceiling repeats: they say how the bytes are coded (RFC 9110 sections 8.3, 8.4, 12.5.5). */
const REPEATED_HEADERS = ['content-type', 'content-encoding', 'vary'] as const;

/**
 * Plays `requests` in order against `origin`, one at a time, and keeps each answer's bytes as
 * sent (undici's `request` does not decode a content coding), so that a ceiling can answer the
 * same sequence with the same bytes, coded the same way for the same Accept-Encoding.
 * @param headers sent with every request (the token, Accept-Encoding); writes add `content-type: application/json`
 * @returns one answer per request, in the sequence's order
 * @throws Error when the origin does not answer
 */
export async function recordAnswers(origin: string, requests: readonly MixedRequest[], headers: Record<string, string>): Promise<RecordedAnswer[]> {
  const client = new Client(origin, { pipelining: 1 });
  try {
    const answers: RecordedAnswer[] = [];
    for (const r of requests) {
      const answer = await client.request({ method: r.method, path: r.path, headers: r.body === undefined ? headers : { ...headers, 'content-type': 'application/json' }, ...(r.body === undefined ? {} : { body: r.body }) });
      const body = Buffer.from(await answer.body.arrayBuffer());
      const kept: Record<string, string> = {};
      for (const name of REPEATED_HEADERS) {
        const value = answer.headers[name];
        if (value !== undefined) kept[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      answers.push({ status: answer.statusCode, headers: kept, body });
    }
    return answers;
  } finally {
    await client.close();
  }
}

/** One answer of the ceiling's index (bench/ceiling-server.ts `--sequence`): its bytes are `body[offset, offset + length)`. */
export interface CeilingEntry {
  /** `METHOD PATH`, as the ceiling matches a request. */
  key: string;
  status: number;
  headers: Record<string, string>;
  offset: number;
  length: number;
}

/**
 * The index and bytes of the sequence ceiling: the i-th entry is the i-th request's recorded
 * answer, its bytes laid end to end in `body`. The ceiling serves a request the next answer
 * recorded for its key, so a path asked twice in the sequence (a read again after a write) gets
 * its two answers in the sequence's order.
 * @throws Error when there are not as many answers as requests
 * @see docs/performance.md (The mixed rows against their ceiling)
 */
export function ceilingIndex(requests: readonly MixedRequest[], answers: readonly RecordedAnswer[]): { index: CeilingEntry[]; body: Buffer } {
  if (answers.length !== requests.length) throw new Error(`${answers.length} answers for ${requests.length} requests`);
  let offset = 0;
  const index = requests.map((r, i) => {
    const answer = answers[i]!;
    const entry = { key: `${r.method} ${r.path}`, status: answer.status, headers: answer.headers, offset, length: answer.body.length };
    offset += answer.body.length;
    return entry;
  });
  return { index, body: Buffer.concat(answers.map((a) => a.body)) };
}

/**
 * A CPU profile of a mixed server (bench/mixed-server.ts, `/__bench/profile/start` and `/stop`)
 * during `load`, and the server's idle share over the same span from its CPU time (/proc).
 * @returns what `load` returned, the V8 profile (bench/cpu-profile.ts) and the idle share, 0 to 1 (undefined without /proc)
 * @throws Error when the server refuses to start or stop the profile
 */
export async function profileDuring<T>(server: MixedServer, load: () => Promise<T>): Promise<{ load: T; profile: CpuProfile; idle: number | undefined }> {
  const started = await fetch(`${server.url}/__bench/profile/start`, { method: 'POST' });
  if (!started.ok) throw new Error(`the mixed server did not start a profile: ${started.status}`);
  const cpuBefore = processCpuMs(server.child.pid);
  const wallStarted = performance.now();
  let result: T;
  try {
    result = await load();
  } catch (error) {
    await fetch(`${server.url}/__bench/profile/stop`, { method: 'POST' }).catch(() => undefined);
    throw error;
  }
  const wallMs = performance.now() - wallStarted;
  const cpuAfter = processCpuMs(server.child.pid);
  const stopped = await fetch(`${server.url}/__bench/profile/stop`, { method: 'POST' });
  if (!stopped.ok) throw new Error(`the mixed server did not stop its profile: ${stopped.status}`);
  const profile = (await stopped.json()) as CpuProfile;
  return { load: result, profile, idle: cpuBefore !== undefined && cpuAfter !== undefined ? idleShare(cpuAfter - cpuBefore, wallMs) : undefined };
}
