/**
 * Loading the adapter of a run: `--adapter reference` (the reference server's control API) or a
 * module exporting `createAdapter(target)`, checked and wrapped so that whatever a capability
 * throws becomes an AdapterError naming the adapter and the capability.
 * @see docs/stateful.md (Adapters); core/adapter.ts (the capabilities)
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ADAPTER_CAPABILITIES, AdapterError, REFERENCE_ADAPTER_NAME, type AdapterFactory, type AdapterSource, type TargetAdapter } from '../../core/adapter.js';
import { HarnessError } from '../../core/errors.js';
import type { Target } from '../../core/target.js';
import { createReferenceAdapter } from './reference.js';

/**
 * Resolves the `--adapter` option: `reference`, or a module file that must exist.
 * @param value the option as given; relative paths are resolved against `cwd`
 * @throws HarnessError CNF_ERR_CONFIG_INVALID when the file does not exist
 */
export async function resolveAdapterOption(value: string, cwd: string = process.cwd()): Promise<AdapterSource> {
  if (value === REFERENCE_ADAPTER_NAME) return { kind: 'reference' };
  const file = path.resolve(cwd, value);
  const found = await stat(file).catch(() => undefined);
  if (!found?.isFile()) throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--adapter ${value}: no such file (give a module exporting createAdapter(target), or "${REFERENCE_ADAPTER_NAME}")`);
  return { kind: 'module', file };
}

/**
 * Imports an adapter module and returns its `createAdapter` export.
 * @throws HarnessError CNF_ERR_CONFIG_INVALID when the module cannot be imported or exports no `createAdapter` function
 */
export async function importAdapterFactory(file: string): Promise<AdapterFactory> {
  let module: { createAdapter?: unknown; default?: { createAdapter?: unknown } };
  try {
    module = (await import(pathToFileURL(file).href)) as typeof module;
  } catch (error) {
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--adapter ${file} cannot be imported: ${(error as Error).message}`, { cause: error });
  }
  const factory = module.createAdapter ?? module.default?.createAdapter;
  if (typeof factory !== 'function') throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--adapter ${file} does not export a function createAdapter(target)`);
  return factory as AdapterFactory;
}

/**
 * Checks what an adapter factory returned and wraps every capability so that anything it throws
 * becomes an {@link AdapterError} naming the adapter and the capability.
 * @throws HarnessError CNF_ERR_CONFIG_INVALID when it is not an object or a capability is not a function
 */
export function guardAdapter(candidate: unknown, origin: string): TargetAdapter {
  if (!candidate || typeof candidate !== 'object') throw new HarnessError('CNF_ERR_CONFIG_INVALID', `${origin}: createAdapter(target) must return an object, not ${candidate === null ? 'null' : typeof candidate}`);
  const adapter = candidate as TargetAdapter & Record<string, unknown>;
  const name = typeof adapter.name === 'string' && adapter.name !== '' ? adapter.name : origin;
  const guarded: Record<string, unknown> = { name };
  if (adapter.eventsAtOnce !== undefined) {
    if (typeof adapter.eventsAtOnce !== 'boolean') throw new HarnessError('CNF_ERR_CONFIG_INVALID', `${origin}: eventsAtOnce must be true or false, not ${typeof adapter.eventsAtOnce}`);
    guarded.eventsAtOnce = adapter.eventsAtOnce;
  }
  for (const key of [...ADAPTER_CAPABILITIES, 'settleDeliveries', 'close'] as const) {
    const fn = adapter[key];
    if (fn === undefined) continue;
    if (typeof fn !== 'function') throw new HarnessError('CNF_ERR_CONFIG_INVALID', `${origin}: ${key} must be a function, not ${typeof fn}`);
    guarded[key] = async (...args: unknown[]) => {
      try {
        return await (fn as (...a: unknown[]) => unknown).apply(adapter, args);
      } catch (error) {
        if (error instanceof AdapterError) throw error;
        throw new AdapterError(key, `adapter "${name}": ${key} failed: ${(error as Error)?.message ?? String(error)}`, { cause: error });
      }
    };
  }
  return guarded as unknown as TargetAdapter;
}

/**
 * Creates the adapter of a run, in the worker: the reference adapter, or the module's.
 * @param source the run context's adapter; undefined gives no adapter
 * @returns the guarded adapter, or undefined without a source
 * @throws HarnessError CNF_ERR_CONFIG_INVALID for a module that cannot be used
 */
export async function loadAdapter(source: AdapterSource | undefined, target: Target): Promise<TargetAdapter | undefined> {
  if (!source) return undefined;
  if (source.kind === 'reference') {
    return guardAdapter(createReferenceAdapter(target), 'reference adapter');
  }
  const factory = await importAdapterFactory(source.file);
  let created: unknown;
  try {
    created = await factory(target);
  } catch (error) {
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--adapter ${source.file}: createAdapter(target) threw: ${(error as Error)?.message ?? String(error)}`, { cause: error });
  }
  return guardAdapter(created, path.basename(source.file));
}

/**
 * The adapter with `after` called once each capability call has settled (answered or thrown):
 * the one judging path forgets then the exchanges awaiting their pair, since a read after the
 * call may show what the call changed (engine/evidence.ts). `close` and non-function members are
 * passed through as they are.
 */
export function afterEachCall(adapter: TargetAdapter, after: () => void): TargetAdapter {
  return new Proxy(adapter, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function' || property === 'close') return value;
      return async (...args: unknown[]) => {
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } finally {
          after();
        }
      };
    },
  });
}
