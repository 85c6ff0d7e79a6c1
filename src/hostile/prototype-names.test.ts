import { validatePipeline, type ValidPipeline } from '../engine/pipeline.ts';
import { describe, expect, it } from 'vitest';
import { analyzeCase } from '../engine/analyze.ts';
import { aggregateBatch } from '../engine/batch.ts';
import { DEFAULT_SETTINGS } from '../engine/settings.ts';
import type { CaseResult, PipelineDef } from '../engine/types.ts';
import { formatBatch, formatCase } from '../cli/tables.ts';
import { orderCases } from '../app/views/case-rows.ts';

/** Names that are members of Object.prototype (or set the prototype) when used as plain keys. */
const NAMES = ['__proto__', 'constructor', 'hasOwnProperty', 'toString'];

/**
 * A chain of four steps named after Object.prototype members. Fixing `__proto__` or `toString`
 * alone repairs the case, so both share the blame equally and the other two get none.
 */
function prototypeNamedPipeline(): ValidPipeline {
  return validatePipeline({
    name: 'prototype-names',
    steps: NAMES.map((name, i) => ({
      name,
      inputs: i === 0 ? ['x'] : [NAMES[i - 1]],
      cost: 1,
      run: () => 'bad',
      fixes: [{ name: 'fix', cost: 1, run: () => 'ok' }],
    })),
    metric: (outputs) => (Object.hasOwn(outputs, '__proto__') && outputs['__proto__'] === 'ok') || outputs['toString' as string] === 'ok' ? 1 : 0,
  });
}

describe('steps named __proto__, constructor, hasOwnProperty, toString', () => {
  const result = analyzeCase(prototypeNamedPipeline(), { id: 'c1', inputs: { x: 1 } }, DEFAULT_SETTINGS);

  it('every name keeps its own Shapley value, fix-alone and leave-one-out in the case', () => {
    expect(result.error).toBeUndefined();
    for (const record of [result.shapley!, result.fixAlone!, result.leaveOneOut!]) {
      expect(Object.keys(record)).toEqual(NAMES);
      for (const name of NAMES) expect(typeof record[name]).toBe('number');
    }
    expect(result.shapley!['__proto__']).toBeCloseTo(0.5, 12);
    expect(result.shapley!.toString).toBeCloseTo(0.5, 12);
    expect(result.shapley!.constructor).toBe(0);
    expect(result.shapley!.hasOwnProperty).toBe(0);
  });

  it('survives JSON and structured cloning as the same entries', () => {
    expect(Object.keys(JSON.parse(JSON.stringify(result)).shapley)).toEqual(NAMES);
    expect(Object.keys(structuredClone(result).shapley!)).toEqual(NAMES);
  });

  it('the batch has a number for every name', () => {
    const batch = aggregateBatch([result, structuredClone(result)], { delta: 0.05, bound: 'normal' });
    expect(batch.steps.map((s) => s.step)).toEqual(NAMES);
    for (const step of batch.steps) {
      expect(Number.isFinite(step.meanShapley)).toBe(true);
      expect(Number.isFinite(step.fixAloneRate)).toBe(true);
    }
    expect(batch.steps[0].meanShapley).toBeCloseTo(0.5, 12);
  });

  it('the command\'s tables show every name with its value', () => {
    const table = formatCase(structuredClone(result));
    expect(table).toMatch(/__proto__ +\+1\.000 +\+0\.000 +\+0\.500/);
    expect(table).toMatch(/constructor +\+0\.000 +\+0\.000 +\+0\.000/);
    expect(formatBatch(aggregateBatch([result], { delta: 0.05, bound: 'normal' }), 1)).toMatch(/__proto__ +100\.0 % +\+0\.500/);
  });

  it('the page sorts cases by a step named constructor by its value, not by Object', () => {
    const other = { ...structuredClone(result), id: 'c2', shapley: { ...structuredClone(result).shapley!, constructor: 0.25 } } as CaseResult;
    const rows = [{ id: 'c1', index: 0, result: structuredClone(result) }, { id: 'c2', index: 1, result: other }, { id: 'c3', index: 2 }];
    expect(orderCases(rows, '', false, { by: 'step', step: 'constructor', dir: 'desc' }).map((row) => row.id)).toEqual(['c2', 'c1', 'c3']);
  });

  it('a case without a value for a step named constructor reads as missing, not as Object', () => {
    const missing = { ...structuredClone(result), shapley: { toString: 1 } } as CaseResult;
    expect(formatCase(missing)).toMatch(/constructor +\+0\.000 +\+0\.000 +-/);
  });
});

describe('a recorded output named after an Object.prototype member', () => {
  it('is compared with the replay like any other (recorded outputs.constructor)', () => {
    const def = validatePipeline({
      name: 'recorded',
      steps: [{ name: 'constructor', inputs: ['x'], cost: 1, run: () => 'bad', fixes: [{ name: 'fix', cost: 1, run: () => 'ok' }] }],
      metric: (outputs) => (outputs['constructor' as string] === 'ok' ? 1 : 0),
    });
    const result = analyzeCase(def, { id: 'c1', inputs: { x: 1 }, outputs: { constructor: 'bad' } }, DEFAULT_SETTINGS);
    expect(result.error).toBeUndefined();
    expect(result.mismatches ?? []).toEqual([]);
  });

  it('naming a step the pipeline lacks is a mismatch, not a crash', () => {
    const def = validatePipeline({
      name: 'recorded',
      steps: [{ name: 'a', inputs: ['x'], cost: 1, run: () => 'bad', fixes: [{ name: 'fix', cost: 1, run: () => 'ok' }] }],
      metric: (outputs) => (outputs.a === 'ok' ? 1 : 0),
    });
    const result = analyzeCase(def, { id: 'c1', inputs: { x: 1 }, outputs: { a: 'bad', toString: 'x', hasOwnProperty: 'y' } }, DEFAULT_SETTINGS);
    expect(result.error).toBeUndefined();
    expect(result.mismatches).toEqual([
      'outputs.toString: recorded, but the pipeline has no such step',
      'outputs.hasOwnProperty: recorded, but the pipeline has no such step',
    ]);
  });
});
