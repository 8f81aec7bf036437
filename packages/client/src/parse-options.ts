import type { z } from 'zod';
import { ERROR_CODES, VerifyKitError } from './errors.js';

/** One wrong option: its dotted path ('' for the options as a whole) and how to fix it. */
export interface OptionIssue {
  path: string;
  message: string;
}

/**
 * Validates a factory's options once, at the edge: the parsed options (defaults filled in), or a
 * VerifyKitError INVALID_OPTIONS whose message names `factory` and each wrong option, with the
 * issues as `details` (`OptionIssue[]`). Messages never contain a value given (a key or a secret).
 */
export function parseOptions<S extends z.ZodType>(
  schema: S,
  input: unknown,
  factory = 'options',
): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw invalidOptions(factory, parsed.error, optionNames(schema));
}

/** The option names of an object schema, also under a `.transform()` (a pipe whose `in` is the object). */
function optionNames(schema: unknown): string[] | undefined {
  const { shape, in: input } = schema as { shape?: unknown; in?: unknown };
  if (typeof shape === 'object' && shape !== null) return Object.keys(shape);
  return input === undefined ? undefined : optionNames(input);
}

/** The INVALID_OPTIONS error of parseOptions, for a factory that ran its schema itself. */
export function invalidOptions(
  factory: string,
  error: z.ZodError,
  known?: readonly string[],
): VerifyKitError {
  const details = error.issues.flatMap((issue): OptionIssue[] => {
    const path = issue.path.map(String).join('.');
    if (issue.code !== 'unrecognized_keys') return [{ path, message: issue.message }];
    const knownHere = path === '' && known ? ` (known: ${known.join(', ')})` : '';
    return issue.keys.map((key) => ({
      path: path === '' ? key : `${path}.${key}`,
      message: `is not an option of ${factory}${knownHere}`,
    }));
  });
  const summary = details.map((d) => (d.path === '' ? d.message : `${d.path} ${d.message}`)).join('; ');
  return new VerifyKitError(ERROR_CODES.INVALID_OPTIONS, `${factory}: invalid options: ${summary}`, {
    details,
  });
}

const pathOf = (issue: z.core.$ZodIssue) => issue.path.map(String).join('.');

/** Zod issues as verify-kit's details: `[{ path, message }]`, the path dotted. */
export function issueDetails(issues: readonly z.core.$ZodIssue[]): OptionIssue[] {
  return issues.map((issue) => ({ path: pathOf(issue), message: issue.message }));
}
