/**
 * Writing report files (JSON, JUnit XML) where the CLI's `--output-dir` says.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { HarnessError } from '../core/errors.js';

/**
 * Writes a report file, creating its directory.
 * @throws HarnessError `CNF_ERR_CONFIG_INVALID` when the file cannot be written (a bad `--output-dir`)
 */
export async function writeReport(outputFile: string, text: string): Promise<void> {
  try {
    await mkdir(dirname(outputFile), { recursive: true });
    await writeFile(outputFile, text, 'utf8');
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `cannot write the report ${outputFile}: ${reason}`, { cause });
  }
}
