import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeReport } from '../../reporters/write-report.js';

describe('writeReport', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cnf-write-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('creates missing directories and writes UTF-8', async () => {
    const file = join(dir, 'a', 'b', 'report.json');
    await writeReport(file, '{"ok":"✓"}\n');
    expect(await readFile(file, 'utf8')).toBe('{"ok":"✓"}\n');
  });

  test('a path it cannot write is CNF_ERR_CONFIG_INVALID, naming the file', async () => {
    const blocker = join(dir, 'a-file');
    await writeFile(blocker, 'x');
    const file = join(blocker, 'report.json');
    await expect(writeReport(file, '{}')).rejects.toMatchObject({
      name: 'HarnessError',
      code: 'CNF_ERR_CONFIG_INVALID',
      message: expect.stringContaining(`cannot write the report ${file}:`),
    });
  });
});
