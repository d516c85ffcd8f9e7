// The dashboard's files and its change stream: served with the control API only, under a
// Content-Security-Policy that allows nothing from another origin; the stream tells of a change
// and is ended when the server closes, so that closing never waits for an open page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_CSP } from '../../../server/dashboard/routes.js';
import { startReferenceServer, type RunningReference } from '../../../server/index.js';
import { testServer, type TestServer } from '../support.js';

let server: TestServer;

beforeAll(async () => {
  server = await testServer();
});

afterAll(async () => {
  await server.app.close();
});

describe('the dashboard\'s files', () => {
  it.each([
    ['/__dashboard/', 'text/html; charset=utf-8', '<title>Dashboard · Billing API reference server</title>'],
    ['/__dashboard/dashboard.js', 'text/javascript; charset=utf-8', "new EventSource('/__dashboard/changes')"],
    ['/__dashboard/dashboard.css', 'text/css; charset=utf-8', '.topbar'],
  ])('%s', async (url, type, content) => {
    const response = await server.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(type);
    expect(response.headers['content-security-policy']).toBe(DASHBOARD_CSP);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.body).toContain(content);
  });

  it('redirects /__dashboard to /__dashboard/', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/__dashboard' });
    expect([response.statusCode, response.headers.location]).toEqual([308, '/__dashboard/']);
  });

  it('the page loads nothing from another origin: no URL with a scheme, no inline script or style', async () => {
    const page = (await server.app.inject({ method: 'GET', url: '/__dashboard/' })).body;
    expect(page).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(page).not.toMatch(/<script>|<style>|style="/);
  });

  it('is not served without the control API', async () => {
    const off = await testServer({ control: false });
    try {
      expect((await off.app.inject({ method: 'GET', url: '/__dashboard/' })).statusCode).toBe(404);
      expect((await off.app.inject({ method: 'GET', url: '/__control/overview' })).statusCode).toBe(404);
    } finally {
      await off.app.close();
    }
  });
});

describe('the change stream', () => {
  let running: RunningReference;
  beforeAll(async () => {
    running = await startReferenceServer({ rateLimit: false });
  });

  it('sends a change at once, and one after the store changes; a close of the server ends it', async () => {
    const response = await fetch(`${running.url}/__dashboard/changes`);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (count: number) => {
      while ((text.match(/event: change/g) ?? []).length < count) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended: ${text}`);
        text += decoder.decode(value);
      }
    };
    await readUntil(1);
    expect(text).toMatch(/^retry: 2000\n\nevent: change\ndata: \{"notices":0\}\n\n/);
    running.control.createCustomer({ email: 'streamed@example.com' });
    await readUntil(2);
    expect(text).toMatch(/event: change\ndata: \{"notices":1\}\n\n$/);
    // The server closes with the stream open: the stream ends, the close does not wait for it.
    await running.close();
    const { done } = await reader.read();
    expect(done).toBe(true);
  });
});
