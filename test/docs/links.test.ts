/**
 * The repository is self-contained: every link of the README and of docs/ points at a file of the
 * repository (a clone has no `../shared/`), and no text names a path above the repository.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const FILES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => join('docs', name))];

describe.each(FILES)('%s', (file) => {
  const text = readFileSync(join(ROOT, file), 'utf8');

  test('every link points at a file of the repository', () => {
    const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
    // The README sends readers to docs/: a README without links would mean this test reads nothing.
    if (file === 'README.md') expect(links.length).toBeGreaterThan(3);
    for (const link of links) {
      expect(link, `${file} links outside the repository`).not.toMatch(/^[a-z]+:/i);
      const target = resolve(dirname(join(ROOT, file)), link.split('#')[0]!);
      expect(relative(ROOT, target).startsWith('..'), `${file}: ${link} leaves the repository`).toBe(false);
      expect(existsSync(target), `${file}: ${link} does not exist`).toBe(true);
    }
  });

  test('no path above the repository is named', () => {
    expect(text).not.toMatch(/\.\.\/shared\b/);
  });
});
