import { describe, expect, it } from 'vitest';
import { BENCHES } from '../src/registry.js';
import { buildResults, FIGURE_KEYS, type Figures, GOALS } from '../src/report/figures.js';
import { textTable } from '../src/report/format.js';
import { HOW_TO_READ, renderMarkdown } from '../src/report/markdown.js';

const machine = { cpuModel: 'Test CPU', cores: 2, memoryGB: 4, platform: 'Linux 6', arch: 'x64' };

function results(figures: Figures, unavailable = {}) {
  return buildResults({
    figures,
    unavailable,
    details: {},
    machine,
    node: 'v20.19.0',
    date: new Date('2026-01-02T03:04:05Z'),
    durationSec: 120,
    loadAverage: { start: 1, end: 2 },
  });
}

describe('bench results', () => {
  it('has every figure of issue 6 as a key, null with a reason when not measured', () => {
    const out = results(
      { 'widget.standalone.gzipBytes': 9000, 'ui.clickToQrMs': { median: 80, p95: 120, runs: 20 } },
      { 'push.decisionToUiMs': 'push: Chromium not found' },
    );
    expect(Object.keys(out.figures)).toEqual([...FIGURE_KEYS]);
    expect(out.figures['widget.standalone.gzipBytes']).toBe(9000);
    expect(out.figures['push.decisionToUiMs']).toBeNull();
    expect(out.unavailable['push.decisionToUiMs']).toBe('push: Chromium not found');
    expect(out.unavailable['lit.gzipBytes']).toBe('not measured');
    expect(out.unavailable['widget.standalone.gzipBytes']).toBeUndefined();
    expect(out).toMatchObject({ node: 'v20.19.0', date: '2026-01-02T03:04:05.000Z', machine });
    expect(JSON.parse(JSON.stringify(out))).toEqual(out);
  });

  it('judges each goal: met, missed by how much, or not measured', () => {
    const out = results({
      'widget.standalone.gzipBytes': 11_264,
      'gate.throughputRatio.reread': 0.6,
      'gate.throughputRatio.cached': 0.45,
      'push.decisionToUiMs': {
        webhooks: { median: 40, p95: 90, runs: 20 },
        polling: { median: 900, p95: 1900, runs: 20 },
      },
    });
    const goal = (key: string) => out.goals.find((g) => g.key === key)!;
    expect(out.goals.map((g) => g.key)).toEqual(GOALS.map((g) => g.key));
    expect(goal('widget.standalone.gzipBytes')).toMatchObject({
      met: false,
      missedBy: { amount: 1024, percent: 10 },
    });
    expect(goal('gate.throughputRatio.reread')).toMatchObject({ met: true, actual: 0.6 });
    expect(goal('gate.throughputRatio.cached')).toMatchObject({
      met: false,
      missedBy: { amount: 0.45, percent: 50 },
    });
    expect(goal('push.decisionToUiMs')).toMatchObject({ met: true, actual: 40 });
    expect(goal('client.throughputRatioVsUndici')).toMatchObject({ met: null, actual: null });
  });

  it('renders every figure, each goal verdict and how to read them in BENCHMARKS.md and the table', () => {
    const out = results({ 'gate.throughputRatio.cached': 0.45 });
    const markdown = renderMarkdown(out);
    const table = textTable(out);
    for (const key of FIGURE_KEYS) {
      expect(markdown).toContain(`\`${key}\``);
      expect(table).toContain(key);
      expect(HOW_TO_READ[key].length).toBeGreaterThan(20);
    }
    expect(markdown).toContain('`gate.throughputRatio.cached` missed ratio >= 0.9 by 0.45 (50%)');
    expect(markdown).toContain('pnpm bench');
  });

  it('assigns every figure to exactly one benchmark', () => {
    const keys = BENCHES.flatMap((bench) => bench.keys);
    expect([...keys].sort()).toEqual([...FIGURE_KEYS].sort());
  });
});

describe('the load section of BENCHMARKS.md', () => {
  it('reports errors, false grants, steps and memory of each `pnpm load` mode, and nothing before a run', async () => {
    const { renderLoadSection } = await import('../src/report/load-markdown.js');
    const { readFile } = await import('node:fs/promises');
    const load = JSON.parse(await readFile(new URL('../load-results.json', import.meta.url), 'utf8'));
    const section = renderLoadSection(load).join('\n');
    expect(section).toContain('## Load, soak and faults');
    for (const heading of ['### Load', '### Soak', '### Faults']) expect(section).toContain(heading);
    expect(section).toMatch(/\*\*0 errors, 0 false grants\*\*/);
    expect(section).toMatch(/\*\*0 false grants of \d+ gated requests\*\*/);
    expect(section).toContain('| gate |');
    expect(renderLoadSection(undefined)).toEqual([]);
    expect(renderMarkdown(results({}), load)).toContain('## Load, soak and faults');
  });
});
