/**
 * The dashboard at `/__dashboard/`: a page and its script and style, plain files of this folder
 * served as they are (no build step, nothing from another origin), and `/__dashboard/changes`, a
 * stream of server-sent events that tells the page the store may have changed (a request, a clock
 * advance, a webhook delivery attempt), at most every {@link CHANGE_NOTICE_INTERVAL_MS}. The page
 * then reads `GET /__control/overview` and acts through the control API: it is served only with
 * the control API.
 * @see docs/dashboard.md; the HTML Standard, section 9.2 (server-sent events: the event stream format)
 */
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { onStoreChanged } from '../events.js';
import type { Store } from '../store.js';

/** Most often a change notice is sent to a page, in milliseconds: a clock advance of a year is one notice, not thousands. */
export const CHANGE_NOTICE_INTERVAL_MS = 200;
/** How often an idle stream sends a comment, in milliseconds, so that proxies and the server's idle timeout keep it open. */
export const KEEP_ALIVE_MS = 15_000;

/**
 * The dashboard's Content-Security-Policy: its own script, style and requests only; no inline
 * script or style, no frame, no form posting elsewhere.
 * @see Content Security Policy Level 3 (W3C), section 6 (directives); docs/dashboard.md
 */
export const DASHBOARD_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The page's files by the name they are served at. */
const FILES: Record<string, { file: string; type: string }> = {
  '': { file: 'index.html', type: 'text/html; charset=utf-8' },
  'dashboard.js': { file: 'dashboard.js', type: 'text/javascript; charset=utf-8' },
  'dashboard.css': { file: 'dashboard.css', type: 'text/css; charset=utf-8' },
};

/**
 * Serves the dashboard of a server whose store is `store`: the page's files and the change stream.
 * Streams are ended when the server closes, so that closing never waits for an open page.
 * @see docs/dashboard.md (How it is made)
 */
export function registerDashboardRoutes(app: FastifyInstance, store: Store): void {
  const contents = Object.fromEntries(Object.entries(FILES).map(([name, { file }]) => [name, readFileSync(new URL(`./page/${file}`, import.meta.url))]));
  const headers = {
    'content-security-policy': DASHBOARD_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-cache',
  };
  app.get('/__dashboard', async (_request, reply) => reply.redirect('/__dashboard/', 308));
  for (const [name, { type }] of Object.entries(FILES)) {
    app.get(`/__dashboard/${name}`, async (_request, reply) => reply.headers({ ...headers, 'content-type': type }).send(contents[name]));
  }

  const streams = new Set<ServerResponse>();
  app.addHook('preClose', (done) => {
    for (const stream of streams) stream.end();
    done();
  });
  app.get('/__dashboard/changes', (request, reply) => {
    reply.hijack();
    const stream = reply.raw;
    stream.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
    let notices = 0;
    let timer: NodeJS.Timeout | undefined;
    let last = 0;
    const notify = () => {
      timer = undefined;
      last = Date.now();
      stream.write(`event: change\ndata: ${JSON.stringify({ notices })}\n\n`);
    };
    // The first notice at once: the page reads the overview when it connects, and after a reconnection.
    stream.write('retry: 2000\n\n');
    notify();
    const unsubscribe = onStoreChanged(store, () => {
      notices++;
      timer ??= setTimeout(notify, Math.max(0, CHANGE_NOTICE_INTERVAL_MS - (Date.now() - last)));
    });
    const keepAlive = setInterval(() => stream.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    streams.add(stream);
    stream.once('close', () => {
      streams.delete(stream);
      unsubscribe();
      clearInterval(keepAlive);
      clearTimeout(timer);
    });
    request.raw.once('close', () => stream.end());
  });
}
