#!/usr/bin/env node
// The `conformance` command. The sources are TypeScript run as they are (docs/decisions.md: no
// build step). Node strips their types itself where it can (Node >= 22.18, files outside
// node_modules); the sources import each other as `./x.js` (what tsc and bundlers expect), so a
// resolve hook maps a relative `.js` import of a `.ts` file to the `.ts` file. Elsewhere tsx
// compiles them, slower to start.
import { enableCompileCache, registerHooks } from 'node:module';

// V8's code cache on disk (Node >= 22.1): later starts skip compiling the modules again.
enableCompileCache?.();

const nativeTypeScript = Boolean(process.features.typescript) && typeof registerHooks === 'function' && !import.meta.url.includes('/node_modules/');

if (nativeTypeScript) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
        try {
          return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
        } catch {
          // A real .js file.
        }
      }
      return nextResolve(specifier, context);
    },
  });
} else {
  const { register } = await import('tsx/esm/api');
  register();
}
await import('../harness/cli.ts');
