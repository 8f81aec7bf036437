import { readFile } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { METRICS } from '../src/index.js';

// The README's metrics table is the one place the series are named for people: it lists exactly the
// instruments the package creates, each with its kind, unit and attributes (src/metric-names.ts).

const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
const section = readme.split('\n## Metrics\n')[1]?.split('\n## ')[0] ?? '';
const rows = section
  .split('\n')
  .filter((line) => line.startsWith('| `'))
  .map((line) => line.split(' | ').map((cell) => cell.replace(/^\| /, '').trim()));
const codes = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]);

test('the table names every metric once, and nothing else', () => {
  expect(rows.map((row) => codes(row[0] ?? '')[0]).sort()).toEqual(
    Object.values(METRICS)
      .map((metric) => metric.name)
      .sort(),
  );
});

test.each(Object.values(METRICS))('$name: its kind, unit, attributes and Prometheus name', (metric) => {
  const row = rows.find((cells) => codes(cells[0] ?? '')[0] === metric.name);
  const [, prometheus = '', kind, unit = '', attributes = ''] = row ?? [];
  const base = metric.name.replaceAll('.', '_');
  const expected = metric.kind === 'counter' ? `${base}_total` : base;
  expect(codes(prometheus)[0]).toBe(metric.kind === 'histogram' ? `${base}_bucket` : expected);
  expect(kind).toBe(metric.kind);
  expect(codes(unit)).toEqual([metric.unit]);
  // The attribute names (the values in parentheses are not names).
  const names = codes(attributes.replace(/\([^)]*\)/g, ''));
  expect(names).toEqual([...metric.attributes]);
});
