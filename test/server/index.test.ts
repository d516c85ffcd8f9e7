import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { printBanner, startReferenceServer, type StartOptions } from '../../server/index.js';

describe('startReferenceServer', () => {
  it('listens on a free loopback port, serves the demo tokens and closes', async () => {
    const running = await startReferenceServer({ port: 0 });
    try {
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(Object.keys(running.credentials).sort()).toEqual(['admin', 'customer_session', 'member_session', 'no_scope', 'other_org', 'pat', 'portal_no_scope', 'reader', 'writer']);
      for (const name of [
        'organization_id', 'other_organization_id', 'product_id', 'subscription_id', 'customer_id', 'customer_external_id', 'benefit_id',
        'other_organization_benefit_id', 'order_id', 'refund_id', 'file_id', 'webhook_endpoint_id', 'oauth_client_id', 'oauth_client_secret',
      ]) {
        expect(running.fixtures[name], name).toBeTruthy();
      }
      const response = await fetch(`${running.url}/v1/products/?limit=1`, { headers: { authorization: `Bearer ${running.credentials.admin}` } });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { items: unknown[] }).items).toHaveLength(1);

      const banner = printBanner(running);
      expect(banner).toContain(running.url);
      for (const token of Object.values(running.tokens)) expect(banner).toContain(token);
      expect(banner).toContain(`curl -H "Authorization: Bearer ${running.credentials.admin}"`);
    } finally {
      await running.close();
    }
    await expect(fetch(`${running.url}/v1/products/`)).rejects.toThrow();
  });
});

describe('the listening server hands out URLs it serves', () => {
  it('uploads a file in two parts at the part URLs, and the file becomes uploaded', async () => {
    const running = await startReferenceServer({ port: 0 });
    try {
      const admin = { authorization: `Bearer ${running.credentials.admin}`, 'content-type': 'application/json' };
      const content = Buffer.from('hello, reference server!');
      const sha = (data: Buffer) => createHash('sha256').update(data).digest('base64');
      const parts = [content.subarray(0, 10), content.subarray(10)];
      const created = await fetch(`${running.url}/v1/files/`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({
          name: 'hello.txt', mime_type: 'text/plain', size: content.length, service: 'downloadable', checksum_sha256_base64: sha(content),
          upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 9, checksum_sha256_base64: sha(parts[0]!) }, { number: 2, chunk_start: 10, chunk_end: content.length - 1 }] },
        }),
      });
      expect(created.status).toBe(200);
      const file = (await created.json()) as { id: string; upload: { parts: { url: string; headers: Record<string, string> }[] } };
      for (const [i, part] of file.upload.parts.entries()) {
        expect(part.url.startsWith(`${running.url}/__uploads/`)).toBe(true);
        const put = await fetch(part.url, { method: 'PUT', headers: part.headers, body: parts[i] });
        expect(put.status).toBe(200);
        expect(put.headers.get('etag')).toBe(`"${createHash('md5').update(parts[i]!).digest('hex')}"`);
      }
      const listed = await fetch(`${running.url}/v1/files/?ids=${file.id}`, { headers: admin });
      const [item] = ((await listed.json()) as { items: { is_uploaded: boolean; checksum_sha256_base64: string }[] }).items;
      expect(item).toMatchObject({ is_uploaded: true, checksum_sha256_base64: sha(content) });
    } finally {
      await running.close();
    }
  });

  it('serves the receipt PDF at the URL orders:get_receipt answers, and the control API over HTTP', async () => {
    const running = await startReferenceServer({ port: 0 });
    try {
      const admin = { authorization: `Bearer ${running.credentials.admin}` };
      const receipt = await fetch(`${running.url}/v1/orders/${running.fixtures.order_id}/receipt`, { headers: admin });
      const { url } = (await receipt.json()) as { url: string };
      const pdf = await fetch(url);
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 8).toString()).toBe('%PDF-1.4');

      const order = await fetch(`${running.url}/__control/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(order.status).toBe(201);
      const { id } = (await order.json()) as { id: string };
      const completed = await fetch(`${running.url}/__control/orders/${id}/complete`, { method: 'POST' });
      expect(((await completed.json()) as { status: string }).status).toBe('paid');
    } finally {
      await running.close();
    }
  });

  it('does not serve the control API with control: false, yet keeps the in-process functions', async () => {
    const running = await startReferenceServer({ port: 0, control: false });
    try {
      const response = await fetch(`${running.url}/__control/reset`, { method: 'POST' });
      expect(response.status).toBe(404);
      expect(running.control.advanceClock(1000).ok).toBe(true);
    } finally {
      await running.close();
    }
  });
});

describe('the serve banner says which settings are on', () => {
  it.each<[string, StartOptions, string[], string[]]>([
    ['the defaults', {}, ['Rate limit: 100 requests per second per IP', 'Control API: on (', 'State file: none'], []],
    ['rate limit off, no control API', { rateLimit: false, control: false }, ['Rate limit: off', 'Control API: off'], ['/__control/']],
    ['a rate limit of 20 and the fault that ignores it', { rateLimit: 20, faults: ['rate_limit_ignored'] }, ['Rate limit: off (fault rate_limit_ignored)'], []],
  ])('%s', async (_name, options, shown, absent) => {
    const running = await startReferenceServer({ port: 0, ...options });
    try {
      const banner = printBanner(running);
      for (const line of shown) expect(banner).toContain(line);
      for (const text of absent) expect(banner).not.toContain(text);
    } finally {
      await running.close();
    }
  });

  it('a state file: new, then loaded', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'cnf-serve-')), 'state.json');
    const first = await startReferenceServer({ port: 0, stateFile: file });
    await first.close();
    expect(printBanner(first)).toContain(`State file: ${file} (new, demo data written;`);
    const second = await startReferenceServer({ port: 0, stateFile: file });
    await second.close();
    expect(printBanner(second)).toContain(`State file: ${file} (loaded;`);
    expect(second.credentials).toEqual(first.credentials);
  });
});
