/**
 * Evidence of more than one exchange, found in a stream of exchanges whoever made them (a run's
 * cells and scenarios, the proxy, a HAR file, `judgeExchange`): the pairs of `Check.pair` relations,
 * each of one client (the same credentials) with no write between. The one judging path
 * (engine/judge.ts `JudgedCells`) hands every exchange it judges to a {@link PairFinder} and every
 * pair found to the checks whose `evidence` is `pair` with that relation, so a rule of two exchanges
 * is written once and judged wherever its evidence appears.
 * @see docs/architecture.md (Evidence); core/types.ts `PairRelation`
 */
import type { Operation } from '../core/spec/load.js';
import type { Exchange, HttpRequest, PairRelation } from '../core/types.js';
import { secretIdentity } from '../checks/support.js';

/** An exchange with the operation it was matched to. */
export interface OperationExchange {
  operation: Operation;
  exchange: Exchange;
}

/** Two exchanges of one client in a relation: the check judges `subject` with `other` as its history. */
export interface PairEvidence {
  relation: PairRelation;
  /** The exchange the pair's cell and findings belong to (see `PairRelation`). */
  subject: OperationExchange;
  other: OperationExchange;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The token endpoint: its answers issue the tokens an introspection may ask about. @see RFC 6749 section 5.1 */
const TOKEN_ROUTE = 'POST /v1/oauth2/token';
/** The introspection endpoint: a POST that changes nothing. @see RFC 7662 section 2 */
const INTROSPECTION_ROUTE = 'POST /v1/oauth2/introspect';
/** Query parameters that give a list its shape rather than its content. */
const SHAPE_PARAMETERS = new Set(['page', 'limit', 'sorting']);
/** Most remembered entries per kind (lists, reads, writes, tokens); the oldest is let go first. */
const MAX_ENTRIES = 512;

/**
 * The credential a request carries, as the client sent it: the Authorization header's value
 * without its scheme, else an API key header; undefined when it carries none.
 */
export function credentialOf(request: Pick<HttpRequest, 'headers'>): string | undefined {
  const authorization = request.headers.authorization;
  if (authorization !== undefined && authorization.trim() !== '') return authorization.replace(/^(Bearer|Basic)\s+/i, '');
  for (const name of ['x-api-key', 'api-key']) if (request.headers[name]) return request.headers[name];
  return undefined;
}

/** `METHOD path` of an operation, as the document has it. */
function routeOf(operation: Operation): string {
  return `${operation.method.toUpperCase()} ${operation.path}`;
}

/** Whether an exchange got a 2xx answer. */
function succeeded(exchange: Exchange): boolean {
  const status = exchange.response?.status;
  return status !== undefined && status >= 200 && status < 300;
}

/**
 * Whether a request may change what reads show: any method but GET, HEAD and OPTIONS, except an
 * introspection and a token request (which issue or describe tokens, not the records read).
 */
export function changesState(method: string, operation: Operation | undefined): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  if (!operation) return true;
  const route = routeOf(operation);
  return route !== INTROSPECTION_ROUTE && route !== TOKEN_ROUTE;
}

/**
 * The OAuth client of a token or introspection request: the form's `client_id`, else the user of
 * an HTTP Basic `Authorization` header (RFC 6749 section 2.3.1), else empty.
 */
function oauthClientOf(request: HttpRequest): string {
  const fromForm = formFields(request).get('client_id');
  if (fromForm) return fromForm;
  const basic = /^Basic\s+(\S+)/i.exec(request.headers.authorization ?? '')?.[1];
  if (!basic) return '';
  const decoded = Buffer.from(basic, 'base64').toString('utf8');
  const user = decoded.slice(0, Math.max(0, decoded.indexOf(':')));
  try {
    return decodeURIComponent(user);
  } catch {
    return user;
  }
}

/** The fields of a form-encoded body (an OAuth request), or none. */
function formFields(request: HttpRequest): URLSearchParams {
  const type = request.headers['content-type'] ?? '';
  return type.includes('application/x-www-form-urlencoded') && request.body !== undefined ? new URLSearchParams(request.body) : new URLSearchParams();
}

/** Whether `read` reads the record `write` wrote: the same path, or the write's resource above it (`/v1/products/{id}` for `/v1/products/{id}/benefits`), with the same path parameters. */
function readsRecordOf(write: OperationExchange, read: OperationExchange): boolean {
  const { path } = read.operation;
  if (path !== write.operation.path && !write.operation.path.startsWith(`${path}/`)) return false;
  const written = Object.entries(write.exchange.case.pathParams);
  const asked = read.exchange.case.pathParams;
  return written.length > 0 && Object.keys(asked).length > 0 && Object.entries(asked).every(([name, value]) => write.exchange.case.pathParams[name] === value);
}

/** Keeps a map below {@link MAX_ENTRIES}, letting the oldest entry go. */
function bounded<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value as K);
}

/**
 * Finds the pairs of `PairRelation` in a stream of exchanges, fed in the order they happened.
 * Remembers per client the last successful write awaiting its read, the last read of each record
 * request, the last answer of each list (and its last without page and limit), and the tokens issued; a write by any client forgets the
 * reads, lists and writes (their answers may no longer be the target's), never the tokens. Memory
 * is bounded ({@link MAX_ENTRIES} per kind). Not shared between threads.
 */
export class PairFinder {
  readonly #writes = new Map<string, OperationExchange>();
  readonly #reads = new Map<string, OperationExchange>();
  /** Per list (client, operation, path and filters): its last answer, and its last answer without page and limit. */
  readonly #lists = new Map<string, { last: OperationExchange; bare: OperationExchange | undefined }>();
  readonly #tokens = new Map<string, OperationExchange>();

  /** Forgets what a write may have made stale: writes awaiting a read, reads and lists (tokens stay). */
  forget(): void {
    this.#writes.clear();
    this.#reads.clear();
    this.#lists.clear();
  }

  /**
   * Takes the next exchange of the stream and gives the pairs it completes, each once.
   * @param operation the operation it was matched to
   */
  observe(operation: Operation, exchange: Exchange): PairEvidence[] {
    const method = exchange.request.method.toUpperCase();
    const route = routeOf(operation);
    const current: OperationExchange = { operation, exchange };
    if (route === TOKEN_ROUTE) {
      this.#rememberTokens(current);
      return [];
    }
    if (route === INTROSPECTION_ROUTE) return this.#introspected(current);
    const client = clientOf(exchange.request);
    if (changesState(method, operation)) {
      this.forget();
      if (succeeded(exchange) && Object.keys(exchange.case.pathParams).length > 0) bounded(this.#writes, client, current);
      return [];
    }
    if (method !== 'GET' || !succeeded(exchange) || exchange.response?.json === undefined) return [];
    const pairs: PairEvidence[] = [];
    const write = this.#writes.get(client);
    if (write && readsRecordOf(write, current)) {
      this.#writes.delete(client);
      pairs.push({ relation: 'write_then_read', subject: write, other: current });
    }
    if (operation.paginated) pairs.push(...this.#listed(client, current));
    else {
      const key = `${client}\u0000${exchange.request.url}`;
      const earlier = this.#reads.get(key);
      if (earlier) pairs.push({ relation: 'read_then_read', subject: current, other: earlier });
      bounded(this.#reads, key, current);
    }
    return pairs;
  }

  /**
   * Pairs a list answer with the same list's last answer under another shape, and with its last
   * answer asked without page and limit (the defaults' pair): totals that agree pair by pair agree
   * all along, so the last one is enough, and the bare one is kept for the defaults.
   */
  #listed(client: string, current: OperationExchange): PairEvidence[] {
    const key = listKeyOf(client, current.operation, current.exchange);
    const shape = shapeOf(current.exchange);
    const known = this.#lists.get(key);
    const earlier = [known?.last, known?.bare].filter((entry, i, all): entry is OperationExchange => entry !== undefined && all.indexOf(entry) === i && shapeOf(entry.exchange) !== shape);
    this.#rememberList(key, current);
    return earlier.map((other) => ({ relation: 'list_two_shapes', subject: current, other }));
  }

  #rememberList(key: string, current: OperationExchange): void {
    const bare = current.exchange.case.query.page === undefined && current.exchange.case.query.limit === undefined;
    bounded(this.#lists, key, { last: current, bare: bare ? current : this.#lists.get(key)?.bare });
  }

  /**
   * Takes a list answer that another finder saw last (another judging thread's, told by the pool of
   * engine/observed/judge-pool.ts `JudgePool`) as this list's answer, without pairing it: the
   * next answer of the list pairs with it as with one seen here. Only a successful JSON answer
   * of a paginated list counts, as in {@link observe}.
   * @param replace forget what this finder remembered of the list first (the pool's first answer of a list's context)
   */
  recall(operation: Operation, exchange: Exchange, replace: boolean): void {
    if (!operation.paginated || exchange.request.method.toUpperCase() !== 'GET') return;
    const key = listKeyOf(clientOf(exchange.request), operation, exchange);
    if (replace) this.#lists.delete(key);
    if (succeeded(exchange) && exchange.response?.json !== undefined) this.#rememberList(key, { operation, exchange });
  }

  #rememberTokens(current: OperationExchange): void {
    const body = current.exchange.response?.json as { access_token?: unknown; refresh_token?: unknown } | undefined;
    if (!succeeded(current.exchange) || !body) return;
    const clientId = oauthClientOf(current.exchange.request);
    for (const token of [body.access_token, body.refresh_token]) if (typeof token === 'string' && token !== '') bounded(this.#tokens, `${clientId}\u0000${secretIdentity(token)}`, current);
  }

  #introspected(current: OperationExchange): PairEvidence[] {
    const form = formFields(current.exchange.request);
    const issued = this.#tokens.get(`${oauthClientOf(current.exchange.request)}\u0000${secretIdentity(form.get('token') ?? '')}`);
    return issued && succeeded(current.exchange) ? [{ relation: 'token_then_introspection', subject: issued, other: current }] : [];
  }
}

/** The client of a request, as pairs are kept: its credential and the version it asked for. */
function clientOf(request: Pick<HttpRequest, 'headers'>): string {
  return `${credentialOf(request) ?? ''}\u0000${request.headers['polar-version'] ?? ''}`;
}

/**
 * The list an answer belongs to, for the `list_two_shapes` pairs: the client (see `clientOf`), the
 * operation, its path parameters and its query but the shape (page, limit, sorting).
 */
function listKeyOf(client: string, operation: Operation, exchange: Exchange): string {
  const content = Object.entries(exchange.case.query).filter(([name]) => !SHAPE_PARAMETERS.has(name)).sort(([a], [b]) => a.localeCompare(b));
  return `${client}\u0000${operation.operationId}\u0000${JSON.stringify(exchange.case.pathParams)}\u0000${JSON.stringify(content)}`;
}

/**
 * The list a request of a paginated list belongs to (the key a {@link PairFinder} keeps its last
 * answers under), or undefined for any other request: a pool of judging threads (engine/observed/judge-pool.ts
 * `JudgePool`) tells the thread that
 * judges the next answer of a list which answers of it another thread saw last.
 */
export function listOf(operation: Operation, exchange: Exchange): string | undefined {
  if (!operation.paginated || exchange.request.method.toUpperCase() !== 'GET') return undefined;
  return listKeyOf(clientOf(exchange.request), operation, exchange);
}

/** A list request's shape: its page, limit and sort order as asked (absent ones empty). */
function shapeOf(exchange: Exchange): string {
  const { query } = exchange.case;
  return JSON.stringify([query.page ?? '', query.limit ?? '', query.sorting ?? '']);
}
