import { z } from 'zod';

// The option names of a zod schema, read from the schema itself: the object schema that refuses an
// unknown key hands itself to zod's error map (`inst`), whose shape names every option, and each
// option's own object schema (under its default, optional, union or pipe) names its keys.

/** A zod schema as its internals describe it (zod 4's `_zod.def`). */
interface Schema {
  shape?: Record<string, Schema>;
  _zod: { def: { type: string; innerType?: Schema; options?: Schema[]; in?: Schema; out?: Schema } };
}

/** The object schemas inside `schema`, through default, optional, nullable, readonly, union and pipe. */
function objectsIn(schema: Schema): Schema[] {
  const { def } = schema._zod;
  if (def.type === 'object') return [schema];
  if (def.innerType !== undefined) return objectsIn(def.innerType);
  if (def.options !== undefined) return def.options.flatMap(objectsIn);
  if (def.type === 'pipe')
    return [def.in, def.out].flatMap((part) => (part === undefined ? [] : objectsIn(part)));
  return [];
}

/** Every option a factory's schema takes: `name`, and `name.key` for an option that is an object. */
export interface SchemaKeys {
  top: string[];
  nested: Record<string, string[]>;
}

export function keysOf(schema: Schema): SchemaKeys {
  const shape = schema.shape ?? {};
  const nested: Record<string, string[]> = {};
  for (const [name, option] of Object.entries(shape)) {
    const keys = objectsIn(option).flatMap((object) => Object.keys(object.shape ?? {}));
    if (keys.length > 0) nested[name] = [...new Set(keys)];
  }
  return { top: Object.keys(shape), nested };
}

/**
 * The schema that `check` validates its options with, caught as it refuses an option no schema
 * has; and the names its INVALID_OPTIONS message lists as known, to show it is that schema.
 */
export function schemaOf(check: (input: Record<string, unknown>) => unknown): {
  schema: Schema;
  known: string[];
} {
  let caught: Schema | undefined;
  z.config({
    customError: (issue) => {
      if (issue.code === 'unrecognized_keys' && (issue.path ?? []).length === 0) {
        caught = (issue as unknown as { inst?: Schema }).inst;
      }
      return undefined;
    },
  });
  let message = '';
  try {
    check({ notAnOptionOfVerifyKit: true });
  } catch (error) {
    message = error instanceof Error ? error.message : String(error);
  } finally {
    z.config({ customError: undefined });
  }
  if (caught === undefined) throw new Error(`no schema refused an unknown option (the error: ${message})`);
  const known = /notAnOptionOfVerifyKit is not an option of [^(]+\(known: ([^)]+)\)/.exec(message)?.[1];
  return { schema: caught, known: known?.split(', ') ?? [] };
}
