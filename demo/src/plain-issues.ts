import type { z } from 'zod';

/*
 * The demo's validation messages in plain words, for the people who read them next to a field: a
 * schema's own message (e.g. "enter at least 1 minute") wins; this map words every other issue
 * instead of zod's defaults ("Invalid input: expected number, received null").
 */

function expected(kind: unknown): string {
  switch (kind) {
    case 'number':
      return 'enter a number';
    case 'int':
      return 'enter a whole number';
    case 'boolean':
      return 'tick or untick the box';
    case 'string':
      return 'enter some text';
    case 'array':
      return 'give a list';
    default:
      return 'this value is not accepted';
  }
}

export const plainIssue: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'this is required' : expected(issue.expected);
    case 'too_small':
      if (issue.origin === 'string') {
        return Number(issue.minimum) <= 1
          ? 'this cannot be empty'
          : `enter at least ${issue.minimum} characters`;
      }
      if (issue.origin === 'array') return `add at least ${issue.minimum}`;
      return `enter ${issue.minimum} or more`;
    case 'too_big':
      if (issue.origin === 'string') return `use at most ${issue.maximum} characters`;
      if (issue.origin === 'array') return `use at most ${issue.maximum}`;
      return `enter ${issue.maximum} or less`;
    case 'invalid_value':
      return `choose one of: ${issue.values.map(String).join(', ')}`;
    case 'unrecognized_keys':
      return `remove what is not asked for: ${issue.keys.join(', ')}`;
    default:
      return undefined;
  }
};
