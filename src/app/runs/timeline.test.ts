import { describe, expect, it } from 'vitest';
import { buildRun, type StepDraft } from '../../runs/index.ts';
import { formatLatency, panWindow, parentChain, placeRulerLabels, rulerTarget, rulerTicks, timelineBars, visibleRange, zoomWindow } from './timeline.ts';

const step = (id: string, parent: string | null, start: number | null, end: number | null): StepDraft => ({ id, parent, name: id, kind: 'other', start, end, model: null, usage: null, error: null, attributes: {} });

describe('timeline', () => {
  it('places bars in percent of the run span; untimed steps get none', () => {
    const run = buildRun({ id: 'r', steps: [step('a', null, 1000, 2000), step('b', 'a', 1250, 1750), step('c', 'a', 1500, null)] });
    expect(timelineBars(run)).toEqual([{ left: 0, width: 100 }, { left: 25, width: 50 }, { left: 50, width: 0.3 }]);
    expect(timelineBars(buildRun({ id: 'r', steps: [step('x', null, null, null)] }))).toEqual([null]);
  });
  it('formats latency', () => {
    expect([formatLatency(0.5), formatLatency(850), formatLatency(2350), formatLatency(72_000)]).toEqual(['0.50 ms', '850 ms', '2.35 s', '1 min 12 s']);
  });
  it('renders only the visible rows of a long list, with a margin', () => {
    expect(visibleRange(0, 300, 30, 1000)).toEqual({ from: 0, to: 20 });
    expect(visibleRange(3000, 300, 30, 1000)).toEqual({ from: 90, to: 120 });
    expect(visibleRange(29_900, 300, 30, 1000)).toEqual({ from: 986, to: 1000 });
  });
  it('lists the parent chain root first', () => {
    const run = buildRun({ id: 'r', steps: [step('a', null, 0, 3), step('b', 'a', 1, 2), step('c', 'b', 1, 2)] });
    expect(parentChain(run, 'c').map((s) => s.id)).toEqual(['a', 'b', 'c']);
  });

  it('zooms around an anchor and pans inside the run, never past its ends', () => {
    const span = { start: 1000, end: 2000 };
    // 4x closer around 25% of the window: the time at 25% (1250) stays at 25%.
    expect(zoomWindow(span, span, 4, 0.25)).toEqual({ start: 1187.5, end: 1437.5 });
    expect(panWindow(span, { start: 1187.5, end: 1437.5 }, 0.5)).toEqual({ start: 1312.5, end: 1562.5 });
    expect(panWindow(span, { start: 1800, end: 1900 }, 5)).toEqual({ start: 1900, end: 2000 });
    expect(zoomWindow(span, span, 0.25)).toEqual(span);
    // Zooming stops at a millionth of the run (1 ms of this 1 s run is far wider: the floor is 1 µs or run/1e6).
    const tight = zoomWindow(span, span, 1e12);
    expect(tight.end - tight.start).toBeCloseTo(1e-3, 9);
  });

  it('a zoomed window shows a 1 ms step of a long run as a wide bar, and hides steps outside it', () => {
    const run = buildRun({ id: 'r', steps: [step('a', null, 0, 100_000), step('b', 'a', 50_000, 50_001), step('c', 'a', 90_000, 91_000)] });
    expect(timelineBars(run)[1]).toEqual({ left: 50, width: 0.3 });
    const window = { start: 50_000, end: 50_002 };
    expect(timelineBars(run, window)).toEqual([{ left: 0, width: 100 }, { left: 0, width: 50 }, null]);
  });

  it('puts ruler ticks at round times from the run start', () => {
    const span = { start: 1000, end: 2000 };
    expect(rulerTicks(span, span).map((t) => [t.at, t.label])).toEqual([[0, '0'], [20, '200 ms'], [40, '400 ms'], [60, '600 ms'], [80, '800 ms'], [100, '1.00 s']]);
    expect(rulerTicks(span, { start: 1100, end: 1150 }).map((t) => t.label)).toEqual(['100 ms', '110 ms', '120 ms', '130 ms', '140 ms', '150 ms']);
  });

  it('places ruler labels so none is clipped at an edge or overlaps another', () => {
    const span = { start: 1000, end: 2000 };
    const boxes = (width: number) =>
      placeRulerLabels(rulerTicks(span, span, rulerTarget(width)), width).map((t) => {
        const x = (t.at / 100) * width;
        const w = t.label.length * 6.5 + 4;
        return t.align === 'start' ? [x, x + w] : [x - w, x];
      });
    for (const width of [60, 90, 200, 480, 900]) {
      const placed = boxes(width);
      expect(placed.length, `at ${width} px`).toBeGreaterThan(0);
      for (const [from, to] of placed) expect(from >= 0 && to <= width, `inside at ${width} px`).toBe(true);
      for (let k = 1; k < placed.length; k++) expect(placed[k][0], `apart at ${width} px`).toBeGreaterThan(placed[k - 1][1]);
    }
    // The first label starts at 0, the last one ends at the right edge.
    expect(placeRulerLabels([{ at: 0, label: '0' }, { at: 100, label: '1.00 s' }], 400).map((t) => t.align)).toEqual(['start', 'end']);
    // Two ticks too close for their labels: the second is left out.
    expect(placeRulerLabels([{ at: 0, label: '100 ms' }, { at: 5, label: '110 ms' }], 400).map((t) => t.label)).toEqual(['100 ms']);
    expect(rulerTarget(90)).toBe(2);
    expect(rulerTarget(480)).toBe(7);
  });
});
