// `serve` port errors: a bad --port and a port it cannot listen on are CNF_ERR_* harness errors.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { listenFailure, parsePort } from '../../cli/listen-error.js';
import { startReferenceServer } from '../../server/index.js';

describe('parsePort', () => {
  test.each([['0', 0], ['4010', 4010], ['65535', 65535]] as const)('%s is %i', (value, want) => expect(parsePort(value)).toBe(want));
  test.each(['99999', '65536', '-1', '1.5', 'abc', ''])('%j is CNF_ERR_CONFIG_INVALID', (value) => {
    expect(() => parsePort(value)).toThrowError(expect.objectContaining({ code: 'CNF_ERR_CONFIG_INVALID', message: expect.stringContaining('--port must be an integer from 0 to 65535') }));
  });
});

describe('listenFailure', () => {
  test('a busy port is CNF_ERR_PORT_UNAVAILABLE naming the port and the way out', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const error = await startReferenceServer({ host: '127.0.0.1', port, seed: 1, rateLimit: false }).then(
        async (running) => {
          await running.close();
          throw new Error('the reference listened on a busy port');
        },
        (e: unknown) => e,
      );
      expect(listenFailure(error, { host: '127.0.0.1', port })).toMatchObject({
        code: 'CNF_ERR_PORT_UNAVAILABLE',
        message: `port ${port} on 127.0.0.1 is already in use; stop what listens there or pick another with --port (0 = a free one) (EADDRINUSE)`,
      });
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  test.each([
    ['EACCES', /not allowed to listen on 127\.0\.0\.1:80/],
    ['EADDRNOTAVAIL', /127\.0\.0\.1 is not an address of this machine/],
    ['ENOTFOUND', /host 127\.0\.0\.1 does not resolve/],
  ])('%s is CNF_ERR_PORT_UNAVAILABLE', (code, message) => {
    expect(listenFailure(Object.assign(new Error('x'), { code }), { host: '127.0.0.1', port: 80 })).toMatchObject({ code: 'CNF_ERR_PORT_UNAVAILABLE', message: expect.stringMatching(message) });
  });

  test('another error is not about the address', () => {
    expect(listenFailure(new Error('boom'), { host: '127.0.0.1', port: 80 })).toBeUndefined();
    expect(listenFailure(undefined, { host: '127.0.0.1', port: 80 })).toBeUndefined();
  });
});
