import { describe, expect, it } from 'vitest';
import { BENCH_NAMES, FIGURE_KEYS, formatFigure, judge, keysOf } from '../src/figures.js';
import { buildResults, withFigures } from '../src/results.js';

const run = (figures = {}, unavailable = {}) =>
  buildResults({
    figures,
    unavailable,
    details: {},
    startedAt: new Date('2026-01-02T03:04:05Z'),
    loadAtStart: 1,
  });

describe('bench results', () => {
  it('has every figure as a key: null with the reason when not measured', () => {
    const out = run(
      { 'widget.standalone.gzipBytes': 9000 },
      { 'push.decisionToUiMs': 'push: Chromium not found' },
    );
    expect(Object.keys(out.figures)).toEqual(FIGURE_KEYS);
    expect(out.figures['widget.standalone.gzipBytes']).toBe(9000);
    expect(out.figures['push.decisionToUiMs']).toBeNull();
    expect(out.unavailable['push.decisionToUiMs']).toBe('push: Chromium not found');
    expect(out.unavailable['widget.split.litGzipBytes']).toBe('not measured');
    expect(JSON.parse(JSON.stringify(out))).toEqual(out);
  });

  it('every benchmark measures at least one declared figure', () => {
    for (const name of BENCH_NAMES) expect(keysOf(name).length, name).toBeGreaterThan(0);
  });

  it('judges each goal on the field it names: met, missed, or not measured', () => {
    const verdicts = judge({
      'widget.standalone.gzipBytes': 11_464,
      'push.decisionToUiMs': { webhooks: { median: 12 }, polling: { median: 900 } },
      'gate.throughputRatio.distinctVsLimit': 0.9,
      'ui.clickToQr': { median: 40, limitMedian: Number.NaN, vsLimit: Number.NaN },
    });
    const of = (key: string) => verdicts.find((v) => v.key === key);
    expect(of('widget.standalone.gzipBytes')).toMatchObject({
      met: false,
      actual: 11_464,
      goal: 'value <= 11450 B',
    });
    expect(of('push.decisionToUiMs')).toMatchObject({
      met: true,
      actual: 12,
      goal: 'webhooks.median <= 300 ms',
    });
    expect(of('gate.throughputRatio.distinctVsLimit')).toMatchObject({ met: true, goal: 'value >= 0.9' });
    expect(of('ui.clickToQr')).toMatchObject({ met: null, actual: null, goal: 'vsLimit <= 1.2' });
    expect(judge({ 'peers.hono.verifyKitVsBestPeer': { ratio: 1.4, low: 1.3, high: 1.5 } })).toContainEqual({
      key: 'peers.hono.verifyKitVsBestPeer',
      goal: 'ratio >= 1',
      actual: 1.4,
      met: true,
    });
    expect(
      judge({ 'ui.timeToQr.slow3g': { median: 2010, limitMedian: 1900, vsLimit: 1.06 } }),
    ).toContainEqual({
      key: 'ui.timeToQr.slow3g',
      goal: 'vsLimit <= 1.1',
      actual: 1.06,
      met: true,
    });
    expect(of('client.throughputRatioVsUndici')).toMatchObject({ met: null });
    expect(of('widget.split.litGzipBytes')).toBeUndefined();
  });

  it('formats figures with their units', () => {
    expect(formatFigure('widget.standalone.gzipBytes', 11_054)).toBe('11054 B');
    expect(formatFigure('gate.throughputRatio.distinctVsLimit', 0.89)).toBe('0.89×');
    expect(formatFigure('gate.revocationMs', { count: 25, p50: 38.8 })).toBe('count 25, p50 38.8 ms');
    expect(formatFigure('peers.fetch.clerkVsPlain', { ratio: 0.5, low: 0.48, high: 0.52 })).toBe(
      'ratio 0.5×, low 0.48×, high 0.52×',
    );
    expect(formatFigure('push.decisionToUiMs', { webhooks: { median: 11 } })).toBe('webhooks: median 11 ms');
    expect(formatFigure('ui.timeToQr.slow3g', { median: 2010, limitMedian: 1900, vsLimit: 1.06 })).toBe(
      'median 2010 ms, limitMedian 1900 ms, vsLimit 1.06×',
    );
  });

  it('replaces only the table between the markers of BENCHMARKS.md', () => {
    const prose =
      '# Benchmarks\n\nHand-written.\n\n<!-- figures:start (written by `pnpm bench --publish`) -->\nold\n<!-- figures:end -->\n\nMore prose.\n';
    const out = withFigures(prose, run({ 'sandbox.createPerSec': 3373 }));
    expect(out.startsWith('# Benchmarks\n\nHand-written.\n')).toBe(true);
    expect(out.endsWith('<!-- figures:end -->\n\nMore prose.\n')).toBe(true);
    expect(out).not.toContain('\nold\n');
    expect(out).toContain('| `sandbox.createPerSec` | 3373 /s |  |');
    expect(out).toContain(
      '| `widget.standalone.gzipBytes` | not measured (not measured) | value <= 11450 B: not measured |',
    );
    expect(() => withFigures('# no markers', run())).toThrow(/markers/);
  });
});
