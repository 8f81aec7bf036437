import { readFileSync } from 'node:fs';
import { resolveOptions } from '@verify-kit/core/internal/wiring/options';
import { createVerifyKit } from '@verify-kit/express';
import { afterAll, describe, expect, test } from 'vitest';
import { type OptionEntry, optionGroups } from '../../docs/.vitepress/option-index.js';
import { keysOf, type SchemaKeys, schemaOf } from './support/schema-keys.js';
import { SHELL_OPTIONS } from './support/shell-options.js';

// docs/options.md has one entry per option: an option no entry names, or an entry that names no
// option, fails here. The options are read from their zod schemas as createVerifyKit,
// requireApproved and kit.shutdown run them; the few a server adds without a schema from
// SHELL_OPTIONS, which the compiler checks against the servers' option types.

const page = readFileSync(new URL('../../docs/options.md', import.meta.url), 'utf8');
const groups = optionGroups(page);
/** The entries of the sections with these anchors, or of every other section. */
const entriesOf = (anchors: string[], others = false): OptionEntry[] =>
  groups.filter((group) => anchors.includes(group.anchor) !== others).flatMap((group) => group.entries);

/** The names an options schema takes, at the depth the page documents: `name` and `name.key`. */
const namesOf = ({ top, nested }: SchemaKeys) => [
  ...top,
  ...Object.entries(nested).flatMap(([name, keys]) => keys.map((key) => `${name}.${key}`)),
];

const kit = createVerifyKit({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', workflowId: 'w' });
afterAll(() => kit.close());

const engine = schemaOf((input) => resolveOptions(input));
const gate = schemaOf((input) => kit.requireApproved(input));
const shutdown = schemaOf((input) => kit.shutdown(input));

describe('the schemas are read as the factories run them', () => {
  test('each schema caught is the one whose error lists the known options', () => {
    for (const { schema, known } of [engine, gate, shutdown]) {
      expect(keysOf(schema).top).toEqual(known);
    }
  });

  test('options that are objects are read to their keys', () => {
    const { nested } = keysOf(engine.schema);
    expect(nested.sessionLimit).toEqual(expect.arrayContaining(['perClient', 'perIp', 'redis']));
    expect(nested.sendLink).toEqual(expect.arrayContaining(['channels', 'contactOf', 'smsCountries']));
    expect(keysOf(gate.schema).top).toEqual(expect.arrayContaining(['redirectTo', 'onRefuse']));
  });
});

describe('docs/options.md documents every option once', () => {
  test('no option has two entries', () => {
    const names = groups.flatMap((group) => group.entries.map(({ anchor }) => anchor));
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  test("createVerifyKit: the engine's options and what each server adds", () => {
    const documented = entriesOf(['requireapproved', 'shutdown'], true).map(({ name }) => name);
    const options = [...namesOf(keysOf(engine.schema)), ...SHELL_OPTIONS];
    expect({ undocumented: options.filter((name) => !documented.includes(name)) }).toEqual({
      undocumented: [],
    });
    expect({ noSuchOption: documented.filter((name) => !options.includes(name)) }).toEqual({
      noSuchOption: [],
    });
  });

  test("requireApproved: the gate's rules, Express's included", () => {
    const documented = entriesOf(['requireapproved']).map(({ name }) => name);
    expect(documented.sort()).toEqual(namesOf(keysOf(gate.schema)).sort());
  });

  test('kit.shutdown', () => {
    const documented = entriesOf(['shutdown']).map(({ name }) => name);
    expect(documented.sort()).toEqual(namesOf(keysOf(shutdown.schema)).sort());
  });

  test('an entry of an object option sits under the option, one level down', () => {
    const misplaced = groups
      .flatMap((group) => group.entries)
      .filter((entry) => (entry.level === 4) !== entry.name.includes('.'));
    expect(misplaced.map(({ name }) => name)).toEqual([]);
  });
});
