/**
 * Judging observed traffic from a user's own code: {@link judgeExchange} for one exchange, and a
 * fetch ({@link judgedFetch}) or an undici dispatcher interceptor ({@link judgingInterceptor}) that
 * judges every exchange it makes, in place, by the same path as the proxy and the harness.
 * @see docs/observed.md (From your own tests)
 */
import type { Dispatcher } from 'undici';
import { API_VERSIONS, loadSpec, specPath, type ApiVersion, type LoadedSpec } from '../../core/spec/load.js';
import type { HttpRequest } from '../../core/types.js';
import type { ObservedExchange } from './exchange.js';
import { ObservedJudge, type ObservedJudgeOptions, type ObservedVerdict } from './judge.js';
import { flatHeaders, MAX_JUDGED_BODY, observedResponse } from './response.js';

/** Which documents an observed judge judges against. */
export interface ObservedDocuments {
  /** An OpenAPI document file (default: both bundled versions, chosen per exchange by `Polar-Version`). */
  spec?: string;
  /** One bundled version. */
  apiVersion?: ApiVersion;
}

/**
 * A judge of observed exchanges over the documents asked for.
 * @throws HarnessError CNF_ERR_SPEC_INVALID when a document cannot be read or is not valid
 */
export async function createObservedJudge(documents: ObservedDocuments = {}, options: Omit<ObservedJudgeOptions, 'specs'> = {}): Promise<ObservedJudge> {
  const specs: LoadedSpec[] = documents.spec
    ? [await loadSpec(documents.spec)]
    : await Promise.all((documents.apiVersion ? [documents.apiVersion] : API_VERSIONS).map((v) => loadSpec(specPath(v))));
  return new ObservedJudge({ ...options, specs });
}

let defaultJudge: Promise<ObservedJudge> | undefined;

/** Options of {@link judgeExchange}. */
export interface JudgeExchangeOptions extends ObservedDocuments {
  /** The judge to use (keeps page walks and counts across calls); default one judge of the bundled documents shared by calls without `judge`, `spec` or `apiVersion`. */
  judge?: ObservedJudge;
}

/**
 * Judges one exchange your own code made, by the checks the proxy runs: the operation matched
 * from the document, then every check that can judge one observed exchange.
 * @param exchange the request as sent (absolute URL, lower-case header names) and its response
 *   (`status`, lower-case `headers`, `body` text, `json` when parsed, `elapsedMs`) or `transportError`
 * @returns the operation matched (none for a request outside the document) and the failures, typed
 *   as a run's (`Failure`: check id, finding kind, message, reproducer)
 * @throws HarnessError CNF_ERR_SPEC_INVALID when a document given cannot be loaded
 */
export async function judgeExchange(exchange: ObservedExchange, options: JudgeExchangeOptions = {}): Promise<ObservedVerdict> {
  const judge = options.judge
    ?? (options.spec || options.apiVersion ? await createObservedJudge(options) : await (defaultJudge ??= createObservedJudge()));
  return judge.judge(exchange);
}

/**
 * A fetch that judges every exchange it makes: the answer is returned untouched, and a clone of it
 * is read and judged; `onVerdict` is told of each verdict once its body was read. A coded answer's
 * size on the wire is not visible to fetch, so its Content-Length is taken as declared.
 * @param fetchImpl the fetch to wrap (default `globalThis.fetch`)
 * @param pending every judging in flight is added here, so a test can wait for all of them
 */
export function judgedFetch(judge: Pick<ObservedJudge, 'judge'>, onVerdict: (verdict: ObservedVerdict) => void, fetchImpl: typeof fetch = globalThis.fetch, pending?: Set<Promise<void>>): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const requestBody = request.body ? await request.clone().text() : undefined;
    const observedRequest: HttpRequest = { method: request.method, url: request.url, headers: flatHeaders(request.headers), ...(requestBody !== undefined ? { body: requestBody } : {}) };
    const started = performance.now();
    let response: Response;
    try {
      response = await fetchImpl(request);
    } catch (error) {
      const err = error as Error & { cause?: { code?: string } };
      onVerdict(judge.judge({ request: observedRequest, transportError: { code: err.cause?.code ?? err.name, message: err.message } }));
      throw error;
    }
    const copy = response.clone();
    const judging = (async () => {
      const raw = Buffer.from(await copy.arrayBuffer());
      const headers = flatHeaders(copy.headers);
      const observed = observedResponse(copy.status, headers, raw, raw.length, Math.round((performance.now() - started) * 1000) / 1000);
      if (headers['content-encoding'] !== undefined && headers['content-length'] !== undefined) observed.wireBytes = Number(headers['content-length']);
      onVerdict(judge.judge({ request: observedRequest, response: observed }));
    })().catch(() => undefined);
    pending?.add(judging);
    void judging.finally(() => pending?.delete(judging));
    return response;
  };
}

/**
 * An undici interceptor that judges every exchange dispatched through it, the body as received
 * (decoded for judging, its size on the wire kept): `agent.compose(judgingInterceptor(judge, onVerdict))`.
 * A request body given as a string or Buffer is judged with the request; a streamed one is not kept.
 * @see https://undici.nodejs.org/#/docs/api/Dispatcher?id=dispatchercomposeinterceptors-interceptor
 */
export function judgingInterceptor(judge: Pick<ObservedJudge, 'judge'>, onVerdict: (verdict: ObservedVerdict) => void): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => {
    const url = new URL(options.path, options.origin).href;
    const rawHeaders = options.headers;
    const headers: Record<string, string> = Array.isArray(rawHeaders)
      ? flatHeaders(Array.from({ length: rawHeaders.length / 2 }, (_, i) => [String(rawHeaders[2 * i]), String(rawHeaders[2 * i + 1])] as [string, string]))
      : rawHeaders ? flatHeaders(rawHeaders as Record<string, string | string[] | undefined>) : {};
    const body = typeof options.body === 'string' ? options.body : Buffer.isBuffer(options.body) ? options.body.toString('utf8') : undefined;
    const request: HttpRequest = { method: options.method, url, headers, ...(body !== undefined ? { body } : {}) };
    const started = performance.now();
    const chunks: Buffer[] = [];
    let size = 0;
    let status = 0;
    let responseHeaders: Record<string, string> = {};
    const settle = (exchange: ObservedExchange) => onVerdict(judge.judge(exchange));
    return dispatch(options, {
      onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
      onRequestUpgrade: (controller, statusCode, upgradeHeaders, socket) => handler.onRequestUpgrade?.(controller, statusCode, upgradeHeaders, socket),
      onResponseStart(controller, statusCode, answerHeaders, statusMessage) {
        status = statusCode;
        responseHeaders = flatHeaders(answerHeaders as Record<string, string | string[] | undefined>);
        return handler.onResponseStart?.(controller, statusCode, answerHeaders, statusMessage);
      },
      onResponseData(controller, chunk) {
        if (size < MAX_JUDGED_BODY) chunks.push(chunk);
        size += chunk.length;
        return handler.onResponseData?.(controller, chunk);
      },
      onResponseEnd(controller, trailers) {
        settle({ request, response: observedResponse(status, responseHeaders, Buffer.concat(chunks), size, Math.round((performance.now() - started) * 1000) / 1000) });
        return handler.onResponseEnd?.(controller, trailers);
      },
      onResponseError(controller, error) {
        settle({ request, transportError: { code: (error as Error & { code?: string }).code ?? error.name, message: error.message } });
        return handler.onResponseError?.(controller, error);
      },
    });
  };
}
