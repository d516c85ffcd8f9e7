/**
 * The Chromium the project's browser tests launch (playwright-core): Debian's /usr/bin/chromium
 * when that is present, else the Chromium shipped inside the npm package `@sparticuz/chromium` (a
 * dev dependency: `npm ci` installs it, no system package needed). Never a downloaded browser.
 * The package's `executablePath()` decompresses its browser into the temporary directory on first
 * use and takes any file already there as complete; two test files asking at once (vitest runs two
 * at a time) could launch a binary still being written, so the first decompression is done under a
 * lock that every process of the machine takes.
 */
import { existsSync } from 'node:fs';
import { mkdir, rmdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Debian's Chromium, used when installed. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** Every launch's flags: the background-networking ones keep Chromium from calling home, which a closed network refuses. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * The packaged Chromium's own flags (its build is meant for a container without a zygote process),
 * minus the ones that weaken a page's security (web security, site isolation).
 */
export const PACKAGED_ARGS = ['--no-zygote', '--single-process', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', "--headless='shell'"];

/** Held while the packaged Chromium is decompressed (a directory: making one is atomic). */
const LOCK = join(tmpdir(), 'cnf-chromium-inflate.lock');
/** A lock older than this was left by a process that died holding it. */
const STALE_MS = 120_000;

let packaged: Promise<string> | undefined;

/** The packaged Chromium's executable, decompressed once per machine under {@link LOCK}. */
async function packagedChromium(): Promise<string> {
  const chromium = (await import('@sparticuz/chromium')).default;
  for (;;) {
    try {
      await mkdir(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const held = await stat(LOCK).catch(() => undefined);
      if (held && Date.now() - held.mtimeMs > STALE_MS) await rmdir(LOCK).catch(() => undefined);
      else await sleep(100);
    }
  }
  try {
    return await chromium.executablePath();
  } finally {
    await rmdir(LOCK).catch(() => undefined);
  }
}

/**
 * The Chromium to launch and its flags: Debian's when installed, else the packaged one.
 * @throws when neither is available (a test fails then rather than skips: a missing browser must never pass)
 */
export async function chromiumToRun(): Promise<{ executablePath: string; args: string[] }> {
  if (existsSync(DEBIAN_CHROMIUM)) return { executablePath: DEBIAN_CHROMIUM, args: CHROMIUM_ARGS };
  packaged ??= packagedChromium();
  return { executablePath: await packaged, args: [...CHROMIUM_ARGS, ...PACKAGED_ARGS] };
}
