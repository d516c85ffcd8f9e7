// Loads the TypeScript sources on Node >= 22 and starts the command line (bin/conformance.js
// checks the Node version first, since this file uses APIs an older Node lacks).
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
