// The floors of docs/architecture.md, kept by reading the import statements of every source file:
// an import may point to the file's own folder or to a lower floor, never up or sideways, and no
// two files import each other (directly or round a longer cycle).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The floors, lowest first; a folder may import its own floor's folder and every lower floor. */
const FLOORS: readonly (readonly string[])[] = [['spec'], ['core'], ['server', 'checks', 'generators'], ['engine'], ['reporters', 'suites'], ['cli']];

/** The floor of a source file and the folder that places it there, or undefined for files outside the floors (bin/, bench/, test/, spec/scripts/, index.ts). */
function placeOf(file: string): { floor: number; folder: string } | undefined {
  // The package's own manifest is data every floor may read (its name and version).
  if (file === 'package.json') return { floor: 0, folder: 'spec' };
  const [top, second] = file.split('/');
  if (top === 'spec' && second === 'scripts') return undefined;
  const floor = FLOORS.findIndex((folders) => folders.includes(top!));
  return floor < 0 ? undefined : { floor, folder: top! };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'generated' ? [] : sourceFiles(file);
    return /\.(ts|cjs|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** The files of ours a source file imports (static imports and exports, dynamic imports of a literal). */
export function importsOf(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'";]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
  return specifiers.map((specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, '.ts'));
}

const files = FLOORS.flat().flatMap((folder) => sourceFiles(folder)).filter((file) => placeOf(file) !== undefined);
const graph = new Map(files.map((file) => [file, importsOf(file, readFileSync(path.join(ROOT, file), 'utf8'))]));

describe('architecture', () => {
  it('reads the imports of the floors\' files', () => {
    expect(files.length).toBeGreaterThan(150);
    expect(graph.get('cli/run.ts')).toContain('engine/context.ts');
  });

  it('has no import pointing up a floor or sideways to another folder of the same floor', () => {
    const wrong: string[] = [];
    for (const [file, imports] of graph) {
      const from = placeOf(file)!;
      for (const target of imports) {
        const to = placeOf(target);
        if (!to) {
          wrong.push(`${file} imports ${target}, outside the floors`);
          continue;
        }
        if (to.floor > from.floor || (to.floor === from.floor && to.folder !== from.folder)) wrong.push(`${file} (${from.folder}) imports ${target} (${to.folder})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('has no two files that import each other, directly or round a cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string) => {
      state.set(file, 'open');
      stack.push(file);
      for (const next of graph.get(file) ?? []) {
        if (!graph.has(next)) continue;
        if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next].join(' -> '));
        else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });

  it('tells an upward import from a downward one (the rule can fail)', () => {
    const from = placeOf('checks/x.ts')!;
    expect(placeOf('engine/judge.ts')!.floor).toBeGreaterThan(from.floor);
    expect(placeOf('core/types.ts')!.floor).toBeLessThan(from.floor);
    expect(importsOf('checks/x.ts', "import { a } from '../engine/judge.js';\nexport * from './y.js';\nconst m = await import('../core/z.js');")).toEqual(['engine/judge.ts', 'checks/y.ts', 'core/z.ts']);
  });
});
