/**
 * Overflow, the definition path: costs and metric values near the largest double
 * overflow in sums and differences; the case is refused with the field named, never printed as
 * null. (The game-file path is in src/cli/hostile-cli.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../engine/index.ts';
import { analyzeSourceCase } from '../sandbox/analyze-source.ts';

function twoSteps(cost: string, metric: string, range = ''): string {
  return `export default {
  name: 'overflow',${range}
  steps: [
    { name: 'a', inputs: ['x'], cost: ${cost}, run: () => 'bad', fixes: [{ name: 'f', cost: ${cost}, run: () => 'ok' }] },
    { name: 'b', inputs: ['a'], cost: ${cost}, run: () => 'bad', fixes: [{ name: 'f', cost: ${cost}, run: () => 'ok' }] },
  ],
  metric: ${metric},
};`;
}

describe('results that overflow are refused per case, naming the field', () => {
  it('step costs whose sum overflows', () => {
    const result = analyzeSourceCase(twoSteps('1.5e308', "(o) => (o.a === 'ok' || o.b === 'ok' ? 1 : 0)"), { id: 'c', inputs: { x: 1 } }, DEFAULT_SETTINGS);
    expect(result.error).toMatch(/^case "c": the results overflow \(cost is Infinity\)/);
  });

  it('metric values outside the declared range are refused as such', () => {
    const result = analyzeSourceCase(twoSteps('1', "(o) => (o.a === 'ok' ? 1.7e308 : -1.7e308)"), { id: 'c', inputs: { x: 1 } }, DEFAULT_SETTINGS);
    expect(result.error).toMatch(/^case "c": the metric returned -1\.7e\+308, outside the declared range \[0, 1\]/);
  });

  it('metric values within a declared range whose differences overflow', () => {
    const range = "\n  range: [-1.7e308, 1.7e308],";
    const result = analyzeSourceCase(twoSteps('1', "(o) => (o.a === 'ok' ? 1.7e308 : -1.7e308)", range), { id: 'c', inputs: { x: 1 } }, DEFAULT_SETTINGS);
    expect(result.error).toMatch(/^case "c": the results overflow \(.* is (-)?Infinity\)/);
    expect(result.shapley).toBeUndefined();
  });
});
