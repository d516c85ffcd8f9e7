// Lets Node load the package's TypeScript sources (docs/decisions.md: no build step); imported
// once, for its effect, by the command line (bin/start.js) and the library entry (index.js).
// Node >= 22.18 strips the types itself for files outside node_modules; the sources import each
// other as `./x.js` (what tsc and bundlers expect), so a resolve hook maps a relative `.js` import
// of a `.ts` file to the `.ts` file. Elsewhere (an older Node, or the package installed under a
// node_modules folder, where Node refuses to strip types) tsx compiles them, slower to start.
import { enableCompileCache, registerHooks } from 'node:module';

// V8's code cache on disk (Node >= 22.1): later starts skip compiling the modules again.
enableCompileCache?.();

const nativeTypeScript = Boolean(process.features.typescript) && typeof registerHooks === 'function' && !import.meta.url.includes('/node_modules/');

if (nativeTypeScript) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      // A parent's URL may carry a query (vitest's native runner adds `?vitest=`).
      if (specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL?.replace(/[?#].*$/, '').endsWith('.ts')) {
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
