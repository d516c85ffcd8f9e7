import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { printBanner, startReferenceServer, type StartOptions } from '../../server/index.js';

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
