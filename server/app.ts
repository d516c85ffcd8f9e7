/**
 * The reference server as a Fastify instance: routes generated from the spec's operations and
 * bound to {@link HANDLERS} by operationId, behind one pipeline (authenticate, authorize, validate
 * path, query and body, handle, write). Every answer, errors included, is in the API's own format.
 * Besides the API it serves what its own answers point to (upload part URLs, receipt and invoice
 * PDFs, the ID token signing key) and the control API; none of these are in the spec. Around the
 * pipeline: the rate limit (rate-limit.ts), webhook delivery of the event log (webhooks/) and,
 * with `stateFile`, the store kept in a file across restarts (persistence.ts).
 * @see docs/design.md (Reference server)
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { HarnessError } from '../core/errors.js';
import { API_VERSIONS, loadSpec, specPath, type ApiVersion, type LoadedSpec, type Operation } from '../core/spec/load.js';
import { authenticate, authorize, issueDemoTokens, type DemoTokenName, type Principal, type ReferenceRole } from './auth.js';
import { compileBodyParser, FORM_MEDIA_TYPE, InvalidJsonBody, parseFormBody, TEXT_BODY_PATHS, TextBody, UnreadBody } from './body.js';
import { createControl, registerControlRoutes, type ReferenceControl } from './control.js';
import { asBytes, encode, preferredCoding, type ContentCoding } from './content-coding.js';
import { readDemoCache, recallDemo, rememberDemo, writeDemoCache } from './demo-cache.js';
import { registerDashboardRoutes } from './dashboard/routes.js';
import { seedDemoData, type DemoData, type DemoDataVariant } from './demo-data.js';
import { notifyStoreChanged } from './events.js';
import { resolveFaults, type FaultId, type FaultSet } from './faults.js';
import { HANDLERS } from './handlers.js';
import { registerHeaderFaults, send } from './http.js';
import { generateServerKeys, type ServerKeys } from './keys.js';
import { removeStrayTempFiles } from './persistence.js';
import { lockStateFile, recoverState, startStatePersister, type RecoveredState, type StatePersister } from './state-journal.js';
import { isExemptClient, registerRateLimit, resolveRateLimit, type RateLimitOption, type RateLimitSettings } from './rate-limit.js';
import { errorReply, validationReply, type Reply, type ValidationEntry } from './replies.js';
import { checkPartRequest, MAX_UPLOAD_PART_BYTES, receivePart } from './resources/files/uploads.js';
import { BodyTooLarge, closeAfterRefusal, DEFAULT_IDLE_TIMEOUT_MS, readCapped } from './connections.js';
import { answerKeptFirst, ResponseCache } from './response-cache.js';
import { serveOrderDocument } from './resources/orders/documents.js';
import { clearStore, createStore, moveStoreContents, type Store } from './store.js';
import { dataSeedingOf } from './data/identity.js';
import { loadData, type LoadedData } from './data/load.js';
import { DATA_OPTION_NAME, describeProblem, readDataSource } from './data/read.js';
import { fail, ok } from './result.js';
import { notFoundAsSent } from './tenancy.js';
import { applyWriteFaults, planWriteFaults } from './write-faults.js';
import { compilePathParser, compileQueryParser, parseQueryString, type RawQuery } from './validation.js';
import { createWebhookDispatcher, type WebhookDeliveryOptions, type WebhookDispatcher } from './webhooks/dispatcher.js';

/** Options of {@link buildApp}. */
export interface BuildAppOptions {
  /** Seed of the demo data and demo tokens (default 1). */
  seed?: number;
  /**
   * The version of requests without a `Polar-Version` header (default `2026-10`, the version of the
   * default document); a request selects another with that header. Applied at serialization.
   * @see spec/rules.yaml versioning.version_selection; docs/platform.md (Version per request)
   */
  apiVersion?: ApiVersion;
  /** Fault ids of server/faults.ts to switch on. */
  faults?: string[];
  /** OpenAPI document whose operations become routes (default spec/openapi.yaml). */
  specFile?: string;
  /** Current time (default the system clock); demo data does not depend on it. A fixed instant (`() => new Date('2027-01-31T09:00:00Z')`) makes a test clock that only the control API's advance moves (docs/lifecycle.md). */
  clock?: () => Date;
  /** Which demo store to seed (default `default`: only the price types the platform's document knows; `full`: the description's six). @see server/demo-data.ts DemoDataVariant */
  demoData?: DemoDataVariant;
  /**
   * The store's records from a data file instead of the demo store: a path to a YAML or JSON file,
   * or the file's content as a value. Validated against spec/data.schema.json and the store's rules,
   * then loaded at once. With `stateFile`, it seeds a new state file and is not read when the state
   * file exists. A reset loads it again (a path is read again).
   * @throws HarnessError CNF_ERR_DATA_INVALID (from buildApp): one line naming the file, the line and the field; nothing is loaded, no state file is written
   * @see docs/data-file.md
   */
  data?: string | Record<string, unknown>;
  /** Fastify (pino) request logging; off by default. */
  logger?: boolean;
  /** Serve the control API under `/__control/` (default true). The in-process control functions work either way. */
  control?: boolean;
  /**
   * Requests per second per client IP (default 100, the API's limit), `false` for no limit (the
   * harness's embedded target), or `{max, windowMs}`. The control API and the upload, receipt and
   * invoice URLs are not counted. @see spec/rules.yaml limits.rate; docs/server-behaviour.md (Rate limit)
   */
  rateLimit?: RateLimitOption;
  /** Webhook delivery: attempts, backoff, timeout, which URLs may be contacted (default: loopback only). */
  webhooks?: WebhookDeliveryOptions;
  /**
   * Keep the store in this file: loaded at start when it exists, with its journal replayed (else
   * the demo data is seeded and written); every change of a request is fsynced in the journal
   * before the request is answered (state-journal.ts). The file is locked for this server.
   * @throws HarnessError CNF_ERR_CONFIG_INVALID (from buildApp) for a file that cannot be read, is corrupt, of another format version, of another seed than `seed`, or in use by another server
   */
  stateFile?: string;
  /** Journal bytes after which a snapshot of the store is written in the background (default 16 MiB). */
  stateCompactAfterBytes?: number;
  /** Milliseconds a connection may go without any traffic either way before it is closed (default 90,000: a client that stops reading its answers). */
  idleTimeoutMs?: number;
  /**
   * Keep the answers of paginated lists as bytes until the store changes (default true; off while
   * any fault is on). @see server/response-cache.ts
   */
  responseCache?: boolean;
}

/** What a server was started with, for the banner and for callers. */
export interface ServerSettings {
  /** The rate limit in force, or false. */
  rateLimit: Required<RateLimitSettings> | false;
  /** Whether the control API is served over HTTP. */
  controlApi: boolean;
  /** The state file and whether the store was loaded from it (false: seeded and written anew), or null. */
  state: { file: string; loaded: boolean } | null;
  /**
   * The data file and what it loaded (records by kind, its tokens), or null for the demo store;
   * `loaded` is false when a state file existed and the data file was not read.
   */
  data: { source: string; loaded: boolean; counts?: LoadedData['counts']; tokens?: LoadedData['tokens'] } | null;
}

/** A built reference server, not yet listening. */
export interface ReferenceApp {
  app: FastifyInstance;
  store: Store;
  spec: LoadedSpec;
  /** Tokens of the harness roles (customer_session and member_session: the portal customer of organization A and its member). */
  credentials: Record<ReferenceRole, string>;
  /** Every demo token: the roles plus `oidc` (a member of organization A, every scope). */
  tokens: Record<DemoTokenName, string>;
  /** Ids that exist, by name (see demo-data.ts and demo-commerce.ts); `oauth_client_secret` is a secret. */
  fixtures: Record<string, string>;
  /** The faults switched on. */
  faults: FaultId[];
  /** The control functions of this server (reset, clock, orders, seat invitations, authorization codes, webhook endpoints and deliveries). */
  control: ReferenceControl;
  /** Webhook delivery of this server (`idle()` waits until deliveries settle). */
  webhooks: WebhookDispatcher;
  /** Rate limit, control API and state file as in force. */
  settings: ServerSettings;
}

const MAX_DETAIL_PATH = 200;

/** The request and response header that carries the API version, as the platform names it (docs/platform.md). */
export const VERSION_HEADER = 'polar-version';

/**
 * The version a request asks for with its `Polar-Version` header: `undefined` when it sends none
 * (the server's default applies), `null` for a value that is not a supported version (a repeated
 * header, which Node joins with `, `, is not one either).
 * @see docs/platform.md (the platform answers such a request 404 {"detail":"Not Found"})
 */
export function requestedVersion(header: string | string[] | undefined): ApiVersion | null | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header.join(', ') : header.trim();
  return (API_VERSIONS as readonly string[]).includes(value) ? (value as ApiVersion) : null;
}
export { MAX_UPLOAD_PART_BYTES } from './resources/files/uploads.js';

/** `/v1/products/{id}` to Fastify's `/v1/products/:id`. */
function fastifyPath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, ':$1');
}

/** The URLs a path template is served at: as the spec gives it, and without its trailing slash for clients that drop it. */
function routeUrls(template: string): string[] {
  const url = fastifyPath(template);
  return url.length > 1 && url.endsWith('/') ? [url, url.slice(0, -1)] : [url];
}

/** Matches a request path to the methods the spec documents for it, for 405 answers and the Allow header. */
function methodsByPath(spec: LoadedSpec): (path: string) => string[] | undefined {
  const entries = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  for (const operation of spec.operations) {
    let entry = entries.get(operation.path);
    if (!entry) {
      const source = operation.path
        .replace(/\/$/, '')
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
        .join('[^/]+');
      // A trailing slash is optional only where the spec's path has one (and both URLs are served).
      entry = { pattern: new RegExp(`^${source}${operation.path.endsWith('/') ? '/?' : ''}$`), methods: new Set() };
      entries.set(operation.path, entry);
    }
    entry.methods.add(operation.method);
    if (operation.method === 'GET') entry.methods.add('HEAD');
  }
  return (path) => {
    const methods = [...entries.values()].filter((entry) => entry.pattern.test(path)).flatMap((entry) => [...entry.methods]);
    return methods.length > 0 ? [...new Set(methods)] : undefined;
  };
}

/** What the pipeline reads of a request. */
interface IncomingRequest {
  query: RawQuery;
  authorization: string | undefined;
  params: Record<string, string>;
  body: unknown;
  baseUrl: string;
  /** Path and query string as sent. */
  url: string;
  /** The content coding the request accepts for a list page made for it (content-coding.ts: gzip first, assembled), if any. */
  coding: ContentCoding | undefined;
  /** The content coding the request accepts for a kept answer or one compressed whole (content-coding.ts: brotli first), if any. */
  keptCoding: ContentCoding | undefined;
  /** The version the answer is made in: the request's Polar-Version, else the server's default. */
  apiVersion: ApiVersion;
  /** The Polar-Version header as sent (part of the response cache key). */
  versionHeader: string | undefined;
}

/** The demo state of a seeding: the data and the tokens. */
interface Seeding {
  demo: DemoData;
  tokens: Record<DemoTokenName, string>;
}

function seed(store: Store, variant: DemoDataVariant = 'default'): Seeding {
  const demo = seedDemoData(store, undefined, variant);
  return { demo, tokens: issueDemoTokens(store, demo.organizations, demo.userId, demo.portal) };
}

/**
 * The demo ids and token strings of a seed without touching `store`: a store restored from a file
 * holds the demo records and the digests of the demo tokens, not the token strings, which are
 * derived from the seed; seeding a scratch store gives them back.
 */
function seedingOf(seedValue: number): Seeding {
  return seed(createStore({ seed: seedValue }));
}

/** The seed whose demo store is kept between starts (server/demo-cache.ts): the default, which `serve` and most tests use. */
const CACHED_SEED = 1;

/** The data file of the options loaded into a new store, or the problem as a harness error. */
function loadDataOption(data: string | Record<string, unknown>, seedValue: number, clock: (() => Date) | undefined): LoadedData {
  const read = readDataSource(data);
  const loaded = read.ok ? loadData(read.value, { seed: seedValue, ...(clock ? { clock } : {}) }) : fail([read.error]);
  if (loaded.ok) return loaded.value;
  const [first, ...more] = loaded.error;
  throw new HarnessError('CNF_ERR_DATA_INVALID', `${describeProblem(first!)}${more.length > 0 ? ` (and ${more.length} more problem${more.length === 1 ? '' : 's'})` : ''}`);
}

/**
 * The seeding of a store read back from a state file: the demo one when the store holds the demo
 * organization A of its seed, else the one derived from a data file's records (server/data/identity.ts).
 */
function restoredSeeding(store: Store, demo: Seeding): Seeding {
  return store.organizations.get(demo.demo.organizations.a) ? demo : dataSeedingOf(store);
}

/**
 * The store to start with and its demo seeding: restored from the state file when it exists;
 * else the demo store of the default seed as the last start left it (server/demo-cache.ts);
 * else a new store, seeded (and, for the default seed, kept for the next start).
 * @throws HarnessError CNF_ERR_CONFIG_INVALID (see BuildAppOptions.stateFile)
 */
async function openSeededStore(options: BuildAppOptions): Promise<{ store: Store; restored: boolean; recovered?: RecoveredState; seeding: Seeding; loaded?: LoadedData }> {
  const opened = await openStore(options);
  const seedValue = opened.store.seed;
  const variant = options.demoData ?? 'default';
  if (options.data !== undefined && !opened.restored) {
    const loaded = loadDataOption(options.data, seedValue, options.clock);
    moveStoreContents(opened.store, loaded.store);
    return { ...opened, seeding: loaded.seeding, loaded };
  }
  // Only the default store is cached: the demo cache is keyed by the seed alone.
  const cached = seedValue === CACHED_SEED && variant === 'default' ? await readDemoCache(seedValue, options.clock) : undefined;
  if (opened.restored) return { ...opened, seeding: restoredSeeding(opened.store, cached?.seeding ?? seedingOf(seedValue)) };
  const restored = cached?.store();
  if (cached && restored) return { store: restored, restored: false, seeding: cached.seeding };
  // Without a state file, a seed this process drew before is restored from its snapshot.
  const recalled = options.stateFile === undefined ? recallDemo(seedValue, variant, options.clock) : undefined;
  if (recalled) return { store: recalled.store, restored: false, seeding: recalled.seeding };
  const seeding = seed(opened.store, variant);
  if (seedValue === CACHED_SEED && variant === 'default') await writeDemoCache(opened.store, seeding);
  else if (options.stateFile === undefined) rememberDemo(opened.store, seeding, variant);
  return { ...opened, seeding };
}

/**
 * The store to start with: restored from the state file when it exists, otherwise new.
 * @throws HarnessError CNF_ERR_CONFIG_INVALID (see BuildAppOptions.stateFile)
 */
async function openStore(options: BuildAppOptions): Promise<{ store: Store; restored: boolean; recovered?: RecoveredState }> {
  const clock = options.clock ? { clock: options.clock } : {};
  if (options.stateFile !== undefined) {
    await removeStrayTempFiles(options.stateFile);
    const recovered = await recoverState(options.stateFile, clock);
    if (recovered) {
      if (options.seed !== undefined && options.seed !== recovered.store.seed) {
        throw new HarnessError('CNF_ERR_CONFIG_INVALID', `the state file ${options.stateFile} holds the store of seed ${recovered.store.seed}, not ${options.seed}; leave out the seed or use another state file`);
      }
      return { store: recovered.store, restored: true, recovered };
    }
  }
  return { store: createStore({ seed: options.seed ?? 1, ...clock }), restored: false };
}

/** Registers the content-type parsers: none of them fails, so that a bad body is answered by the pipeline in the API's format. */
function registerBodyParsers(app: FastifyInstance): void {
  // `__proto__` and `constructor.prototype` keys are dropped rather than refused.
  const parseJson = app.getDefaultJsonParser('remove', 'remove');
  app.removeContentTypeParser('application/json');
  const keptAsText = (url: string) => TEXT_BODY_PATHS.has(url.split('?')[0]!.replace(/\/$/, ''));
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (keptAsText(request.url)) return done(null, new TextBody(text, 'application/json'));
    // An empty body with Content-Type: application/json is no body at all, not a parse error.
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, (error, value) => done(null, error ? new InvalidJsonBody(error.message) : value));
  });
  app.addContentTypeParser(FORM_MEDIA_TYPE, { parseAs: 'string' }, (_request, body, done) => done(null, parseFormBody(body.toString())));
  // Any other media type is read and kept aside, so that unknown routes and methods are answered
  // 404/405 rather than 415, and an operation can say which type it wanted.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
    const contentType = String(request.headers['content-type'] ?? '');
    done(null, keptAsText(request.url) ? new TextBody(body.toString('utf8'), contentType) : new UnreadBody(contentType));
  });
}

/**
 * Builds the reference server: loads the spec, seeds the store with the demo data, issues the
 * demo tokens and registers one route per operation (plus the no-trailing-slash variant), the
 * upload, document and key routes and, unless `control: false`, the control API.
 * @throws HarnessError CNF_ERR_FAULT_UNKNOWN for an unknown fault id; CNF_ERR_SPEC_INVALID for an unreadable or invalid spec
 * @see docs/design.md (Reference server)
 */
export async function buildApp(options: BuildAppOptions = {}): Promise<ReferenceApp> {
  const faults: FaultSet = resolveFaults(options.faults ?? []);
  // The default version: of requests without a Polar-Version header, of webhook deliveries and control answers.
  const apiVersion: ApiVersion = options.apiVersion ?? '2026-10';
  const spec = await loadSpec(options.specFile ?? specPath());
  const rateLimit = resolveRateLimit(options.rateLimit);
  const keys: ServerKeys = await generateServerKeys();
  // The lock first: nothing of the file is touched while another server may be writing it.
  const releaseState = options.stateFile !== undefined ? await lockStateFile(options.stateFile) : async () => undefined;
  let opened: Awaited<ReturnType<typeof openSeededStore>>;
  try {
    opened = await openSeededStore(options);
  } catch (error) {
    await releaseState();
    throw error;
  }
  const { store, restored } = opened;
  let seeding = opened.seeding;
  // A reset and POST /__control/data load a data file into a new store, then move it into this one at once.
  const clock = options.clock;
  const adopt = (loaded: LoadedData) => {
    webhooks.reset();
    moveStoreContents(store, loaded.store);
    seeding = loaded.seeding;
    return seeding.demo;
  };
  // Deliveries never go to the reference's own port (known once it listens; deliveries run only after a request).
  const ownPort = () => {
    const address = app.server.address();
    return address !== null && typeof address === 'object' ? address.port : undefined;
  };
  const webhooks = createWebhookDispatcher({ store, apiVersion, faults }, { ownPort, ...options.webhooks });
  const control = createControl({
    store,
    apiVersion,
    faults,
    demo: () => seeding.demo,
    reseed: () => {
      if (options.data !== undefined) return adopt(loadDataOption(options.data, store.seed, clock));
      webhooks.reset();
      clearStore(store);
      seeding = seed(store, options.demoData);
      return seeding.demo;
    },
    loadData: (text) => {
      const loaded = loadData(text, { seed: store.seed, ...(clock ? { clock } : {}) });
      if (!loaded.ok) return loaded;
      adopt(loaded.value);
      return ok({ counts: loaded.value.counts, fixtures: seeding.demo.fixtures });
    },
    webhooks,
  });
  let persister: StatePersister | undefined;
  if (options.stateFile !== undefined) {
    try {
      persister = await startStatePersister(store, options.stateFile, {
        generation: opened.recovered?.generation ?? 1,
        journalBytes: opened.recovered?.journalBytes ?? 0,
        fresh: !restored,
        faults,
        ...(options.stateCompactAfterBytes !== undefined ? { compactAfterBytes: options.stateCompactAfterBytes } : {}),
      });
    } catch (error) {
      await webhooks.close();
      await releaseState();
      throw new HarnessError('CNF_ERR_CONFIG_INVALID', `cannot write the state file ${options.stateFile}: ${(error as Error).message}`, { cause: error });
    }
  }

  const app = Fastify({
    logger: options.logger ?? false,
    // Long ids reach the handlers (and get the API's 422 or 404), not the router's own 400.
    routerOptions: { querystringParser: parseQueryString, maxParamLength: 2048 },
    // A client that declares a body and stops sending must not hold a connection forever.
    requestTimeout: 30_000,
    // Nor one that stops reading (pipelined requests whose answers pile up): cut after this long without any traffic.
    connectionTimeout: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    // Requests Node's HTTP parser rejects (unknown methods, oversized headers, bad framing) get the
    // API's error body too, instead of Fastify's default.
    clientErrorHandler: (error: NodeJS.ErrnoException, socket) => {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      const reply = errorReply(status, status === 431 ? 'the request headers are too large' : status === 408 ? 'the request took too long' : 'the request is not valid HTTP');
      const body = JSON.stringify(reply.body);
      socket.end(
        `HTTP/1.1 ${status} ${(reply.body as { error: string }).error}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
    frameworkErrors: (error, _request, reply) => {
      send(reply, errorReply(400, error.message));
    },
  });
  registerBodyParsers(app);
  // Set before any plugin is registered, so that encapsulated routes (uploads) inherit it.
  app.setErrorHandler((error: { statusCode?: number; message?: string }, request, reply) => {
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'unexpected error');
    // A refusal before the body was read (too large, or a part of the wrong size): answer, then close (connections.ts).
    if (!request.raw.complete) closeAfterRefusal(request.raw, reply.raw);
    return send(reply, errorReply(status, status === 500 ? 'The server failed to handle the request.' : (error.message ?? 'Bad request.')));
  });
  // Every answer carries the version it was made in; an unsupported version on an API path is
  // answered as the platform does, before the rate limit counts it. A callback hook (see onResponse below).
  app.addHook('onRequest', (request, reply, done) => {
    const asked = requestedVersion(request.headers[VERSION_HEADER]);
    reply.header(VERSION_HEADER, asked ?? apiVersion);
    // The reference's clock is its test clock: once moved (or given), the Date of its answers follows it,
    // as its records' timestamps and its tokens' iat and exp do (RFC 9110 section 6.6.1: the origin's clock).
    const now = store.clock().getTime();
    if (Math.abs(now - Date.now()) >= 1000) reply.header('date', new Date(now).toUTCString());
    if (asked === null && request.url.startsWith('/v1/')) {
      void reply.code(404).type('application/json; charset=utf-8').send({ detail: 'Not Found' });
      return;
    }
    done();
  });
  await registerRateLimit(app, rateLimit, faults);
  registerHeaderFaults(app, faults);
  // The store has no change tracking: any request that may change state is a change for persistence.
  // A callback hook, not an async one: it runs on every response, and a promise per request shows in the benchmark.
  app.addHook('onResponse', (request, _reply, done) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS') notifyStoreChanged(store);
    done();
  });
  // With a state file, the changes of a request that may change state are fsynced before its answer
  // is sent (a callback hook, and none without a state file: a promise per request shows in the benchmark).
  if (persister) {
    const journal = persister;
    app.addHook('onSend', (request, reply, payload, done) => {
      // A 5xx (a failed commit among them) is sent as it is: waiting again would fail again.
      if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS' || reply.statusCode >= 500) return done(null, payload);
      journal.durable().then(() => done(null, payload), (error: Error) => done(error));
    });
  }
  app.addHook('onClose', async () => {
    await webhooks.close();
    if (persister) {
      try {
        await persister.close();
      } catch (error) {
        app.log.error({ err: error }, 'cannot write the state file on close');
        process.emitWarning(`cannot write the state file ${persister.file} on close: ${(error as Error).message}`);
      }
    }
    await releaseState();
  });

  let requestNumber = 0;
  // Faults may make a list answer differ from one request to the next (pages_overlap); with any on, nothing is kept.
  const responses = options.responseCache !== false && faults.size === 0 ? new ResponseCache(store) : undefined;
  if (responses) {
    let closing = false;
    app.addHook('preClose', (done) => {
      closing = true;
      done();
    });
    answerKeptFirst(app.server, responses, { exempt: (socket) => isExemptClient(rateLimit, socket), closing: () => closing });
  }
  const writeFaults = planWriteFaults(faults);
  const serveOperation = (operation: Operation) => {
    const handler = HANDLERS[operation.operationId];
    const changesState = !['GET', 'HEAD', 'OPTIONS'].includes(operation.method);
    // Compiled on the operation's first request, so that a start does not wait for twenty operations' validators.
    let parsers: { parsePath: ReturnType<typeof compilePathParser>; parseQuery: ReturnType<typeof compileQueryParser>; parseBody: ReturnType<typeof compileBodyParser> } | undefined;
    const parsersOf = () => (parsers ??= {
      parsePath: compilePathParser(operation.parameters),
      parseQuery: compileQueryParser(operation.parameters, faults.has('limit_unbounded') ? { ignoreMaximum: ['limit'] } : {}),
      parseBody: compileBodyParser(operation),
    });
    const cache = operation.method === 'GET' && operation.paginated ? responses : undefined;
    // The wrong_content_type fault writes list answers as text/plain, uncoded (http.ts).
    const plainText = faults.has('wrong_content_type') && operation.paginated;
    const answerOf = async (request: IncomingRequest, cacheKey: string | undefined): Promise<Reply> => {
      if (!handler) return errorReply(501, `The reference server has no handler for ${operation.operationId}.`);
      let principal: Principal | undefined;
      if (operation.security.length > 0) {
        const header = request.authorization ?? (faults.has('missing_auth_accepted') ? `Bearer ${seeding.tokens.admin}` : undefined);
        const auth = authenticate(store, header);
        if (!auth.ok) {
          if (!faults.has('error_body_wrong')) return auth.reply;
          const { detail } = auth.reply.body as { detail: string };
          return { ...auth.reply, body: { detail } };
        }
        const denied = authorize(auth.principal, operation.security, faults);
        if (denied) return denied;
        principal = auth.principal;
        if (changesState) {
          const refusedKind = (principal.kind === 'pat' && faults.has('pat_refused_on_writes')) || (principal.kind === 'member_session' && faults.has('member_session_refused_on_writes'));
          if (refusedKind) return errorReply(403, `This operation does not accept ${principal.kind} tokens.`);
          // cross_tenant_write: a write finds the records of every organization.
          if (faults.has('cross_tenant_write')) principal = { ...principal, organizationIds: Array.from(store.organizations.all(), (o) => o.id) };
        }
      }
      if (faults.has('server_error_on_bad_limit') && request.query.limit !== undefined && !/^\d+$/.test(String(request.query.limit))) {
        throw new Error(`limit ${String(request.query.limit)} is not a number`);
      }
      const { parsePath, parseQuery, parseBody } = parsersOf();
      const path = parsePath(request.params);
      const query = parseQuery(request.query);
      const body = parseBody ? parseBody(request.body) : ({ ok: true, value: undefined } as const);
      if (!body.ok && 'reply' in body) return body.reply;
      const entries: ValidationEntry[] = [...(path.ok ? [] : path.errors), ...(query.ok ? [] : query.errors), ...(body.ok ? [] : body.entries)];
      if (entries.length > 0 || !path.ok || !query.ok || !body.ok) return validationReply(entries);
      const handled = notFoundAsSent(await handler({
        store,
        apiVersion: request.apiVersion,
        faults,
        principal,
        query: query.query,
        pathParams: path.values,
        body: body.value,
        requestNumber: ++requestNumber,
        baseUrl: request.baseUrl,
        keys,
      }), faults);
      // Kept answers are written without Fastify's hooks (response-cache.ts), so they carry the header themselves.
      const answer: Reply = { ...handled, headers: { ...handled.headers, [VERSION_HEADER]: request.apiVersion } };
      if (cacheKey === undefined) return answer;
      return cache!.set(cacheKey, answer, (principal as { expiresAtMs?: number } | undefined)?.expiresAtMs ?? Number.POSITIVE_INFINITY, request.coding);
    };
    return async (request: IncomingRequest): Promise<{ answer: Reply; plainText: boolean }> => {
      const cacheKey = cache && ResponseCache.key(request.authorization, request.baseUrl, request.url, request.versionHeader);
      const kept = cacheKey === undefined ? undefined : cache!.get(cacheKey, request.keptCoding);
      if (kept) return { answer: kept, plainText: false };
      const handled = await answerOf(request, cacheKey);
      const { answer, plainText: faultedPlain } = writeFaults.size ? applyWriteFaults(spec, operation, writeFaults, handled) : { answer: handled, plainText: false };
      if ((plainText && answer.status === 200) || faultedPlain) return { answer, plainText: true };
      // Kept answers come coded from the cache; every other answer with a body is coded here: in
      // gzip first when it can be assembled from kept pieces (a list page), else brotli first.
      if (answer.body === undefined || answer.headers?.['content-encoding'] !== undefined) return { answer, plainText: false };
      const bytes = asBytes(answer);
      return { answer: encode(bytes, bytes.coded?.gzip ? request.coding : request.keptCoding, 'fresh'), plainText: false };
    };
  };

  for (const operation of spec.operations) {
    const serve = serveOperation(operation);
    for (const url of routeUrls(operation.path)) {
      app.route({
        method: operation.method,
        url,
        handler: async (request, reply) => {
          const versionHeader = request.headers[VERSION_HEADER] as string | undefined;
          const { answer, plainText } = await serve({
            apiVersion: requestedVersion(versionHeader) ?? apiVersion,
            versionHeader,
            query: request.query as RawQuery,
            authorization: request.headers.authorization,
            params: request.params as Record<string, string>,
            body: request.body,
            baseUrl: `${request.protocol}://${request.host}`,
            url: request.url,
            coding: preferredCoding(request.headers['accept-encoding']),
            keptCoding: preferredCoding(request.headers['accept-encoding'], 'kept'),
          });
          return send(reply, answer, plainText);
        },
      });
    }
  }

  const machine = { store, apiVersion, faults, keys };
  await app.register(async (uploads) => {
    // A part is checked before its body is read (signature, upload, part, expiry, declared size),
    // and its body is read with the part's size as the cap: no client makes the server hold bytes
    // it would refuse. A refusal is answered at once, then the connection is closed (lingering).
    const acceptedParts = new WeakMap<object, number>();
    uploads.addHook('onRequest', async (request, reply) => {
      const params = request.params as { uploadId?: string; partNumber?: string };
      const checked = checkPartRequest(machine, {
        uploadId: params.uploadId ?? '',
        partNumber: params.partNumber ?? '',
        query: request.query as Record<string, unknown>,
        contentLength: request.headers['content-length'],
      });
      if (checked.ok) {
        acceptedParts.set(request.raw, checked.value.expectedSize);
        return;
      }
      closeAfterRefusal(request.raw, reply.raw);
      return send(reply, checked.error);
    });
    // Part bodies are raw bytes of any media type.
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('*', (request, payload, done) => {
      const cap = Math.min(acceptedParts.get(request.raw) ?? 0, MAX_UPLOAD_PART_BYTES);
      // A part longer than its range is a 400, as one of the wrong declared length (S3 answers EntityTooLarge with 400).
      readCapped(payload, cap, (error, body) => done(error instanceof BodyTooLarge ? Object.assign(new Error(`The part is longer than its range of ${cap} bytes.`), { statusCode: 400 }) : error, body));
    });
    uploads.put('/__uploads/:uploadId/:partNumber', async (request, reply) => {
      const params = request.params as { uploadId: string; partNumber: string };
      const checksum = request.headers['x-amz-checksum-sha256'];
      return send(reply, receivePart(machine, {
        uploadId: params.uploadId,
        partNumber: params.partNumber,
        query: request.query as Record<string, unknown>,
        checksumHeader: typeof checksum === 'string' ? checksum : undefined,
        body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
      }));
    });
  });
  for (const kind of ['receipt', 'invoice'] as const) {
    app.get(`/__${kind}s/:file`, async (request, reply) => send(reply, serveOrderDocument(machine, kind, (request.params as { file: string }).file, request.query as Record<string, unknown>)));
  }
  app.get('/.well-known/jwks.json', async (_request, reply) => send(reply, { status: 200, body: { keys: [keys.idToken.publicJwk] } }));
  if (options.control !== false) {
    registerControlRoutes(app, control);
    registerDashboardRoutes(app, store);
  }

  const allowedMethods = methodsByPath(spec);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const shown = path.length > MAX_DETAIL_PATH ? `${path.slice(0, MAX_DETAIL_PATH)}...` : path;
    const allowed = allowedMethods(path);
    if (allowed) {
      return send(reply, errorReply(405, `Method ${request.method} is not allowed on ${shown}; allowed: ${allowed.join(', ')}.`, { allow: allowed.join(', ') }));
    }
    return send(reply, errorReply(404, `No resource at ${request.method} ${shown}.`));
  });

  const { admin, reader, writer, no_scope, other_org, pat, customer_session, member_session, portal_no_scope } = seeding.tokens;
  return {
    app,
    store,
    spec,
    credentials: { admin, reader, writer, no_scope, other_org, pat, customer_session, member_session, portal_no_scope },
    tokens: seeding.tokens,
    fixtures: seeding.demo.fixtures,
    faults: [...faults],
    control,
    webhooks,
    settings: {
      rateLimit,
      controlApi: options.control !== false,
      state: options.stateFile !== undefined ? { file: options.stateFile, loaded: restored } : null,
      data: options.data === undefined
        ? null
        : { source: typeof options.data === 'string' ? options.data : DATA_OPTION_NAME, loaded: opened.loaded !== undefined, ...(opened.loaded ? { counts: opened.loaded.counts, tokens: opened.loaded.tokens } : {}) },
    },
  };
}
