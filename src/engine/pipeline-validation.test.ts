import { describe, expect, it } from 'vitest';
import { analyzeCase as analyzeValidated } from './analyze.ts';
import { DefinitionError, ReplayError } from './errors.ts';
import { validatePipeline } from './pipeline.ts';
import { Replayer } from './replay.ts';
import { WorldNoise } from './noise.ts';
import { DEFAULT_SETTINGS } from './settings.ts';
import type { AnalysisSettings, CaseDef, CaseResult, PipelineDef, StepDef, StepRun, VariantDef } from './types.ts';

const settings: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'exact' };

function step(name: string, inputs: string[], run: StepRun = () => name, fix: StepRun = () => `${name}!`): StepDef {
  return { name, inputs, cost: 1, run, fixes: [{ name: `${name} fix`, cost: 1, run: fix }] };
}

function pipeline(steps: StepDef[], metric: PipelineDef['metric'] = (out) => (out[steps[steps.length - 1].name] === 'ok' ? 1 : 0)): PipelineDef {
  return { name: 'p', steps, metric };
}

/** Validated first, as compiling a definition does: analyzeCase takes only validated definitions. */
function analyzeCase(def: PipelineDef, c: CaseDef, s: AnalysisSettings): CaseResult {
  return analyzeValidated(validatePipeline(def), c, s);
}

const aCase: CaseDef = { id: 'case-7', inputs: { question: 'q' } };

describe('validatePipeline', () => {
  const expectDefinitionError = (def: unknown, pattern: RegExp) => {
    expect(() => validatePipeline(def as PipelineDef)).toThrow(DefinitionError);
    expect(() => validatePipeline(def as PipelineDef)).toThrow(pattern);
  };

  it('accepts a well-formed pipeline', () => {
    expect(() => validatePipeline(pipeline([step('a', ['question']), step('b', ['a', 'question'])]))).not.toThrow();
  });

  it('rejects duplicate step names, naming the step', () => {
    expectDefinitionError(pipeline([step('a', ['question']), step('b', ['a']), step('a', ['b'])]), /step "a" is defined twice/);
  });

  it('rejects forward references and cycles, naming the step', () => {
    expectDefinitionError(pipeline([step('a', ['b']), step('b', ['question'])]), /step "a".*"b".*later step/);
    expectDefinitionError(pipeline([step('a', ['question', 'c']), step('b', ['a']), step('c', ['b'])]), /step "a".*"c"/);
    expectDefinitionError(pipeline([step('a', ['a'])]), /step "a".*own output/);
  });

  it('rejects a step without fixes or with a malformed fix', () => {
    expectDefinitionError(pipeline([{ ...step('a', ['question']), fixes: [] }]), /step "a" has no fixes/);
    expectDefinitionError(pipeline([{ ...step('a', ['question']), fixes: [{ name: 'f', cost: -1, run: () => 0 }] }]), /step "a": fix "f": cost/);
    expectDefinitionError(pipeline([{ ...step('a', ['question']), fixes: [{ name: 'f', cost: 1, run: () => 0 }, { name: 'f', cost: 1, run: () => 0 }] }]), /two fixes named "f"/);
    expectDefinitionError(pipeline([{ ...step('a', ['question']), fixes: [{ name: 'f', cost: 1 } as unknown as VariantDef] }]), /fix "f": run must be a function/);
  });

  it('rejects bad names, inputs, costs, metric, threshold and range', () => {
    expectDefinitionError(pipeline([step('', ['question'])]), /steps\[0\].*name/);
    expectDefinitionError(pipeline([step('a', ['question', 'question'])]), /step "a" lists an input twice/);
    expectDefinitionError(pipeline([{ ...step('a', ['question']), cost: NaN }]), /step "a".*cost/);
    expectDefinitionError({ ...pipeline([step('a', ['question'])]), metric: 1 }, /metric/);
    expectDefinitionError({ ...pipeline([step('a', ['question'])]), threshold: 'high' }, /threshold/);
    expectDefinitionError({ ...pipeline([step('a', ['question'])]), range: [1, 0] }, /range/);
    expectDefinitionError({ name: 'p', steps: [], metric: () => 0 }, /steps/);
    expectDefinitionError(null, /object/);
  });

  it('owns the name, fixes-list and models rules the sandbox used to repeat', () => {
    expectDefinitionError(pipeline([step('a\u001b[31m', ['question'])]), /^steps\[0\]: name "a\\u001b\[31m" contains the control character U\+001B/);
    expectDefinitionError(pipeline([step('a'.repeat(201), ['question'])]), /^steps\[0\]: name is 201 characters long \(at most 200\)$/);
    expectDefinitionError({ ...pipeline([step('a', ['question'])]), name: 'p\u0000' }, /^name "p\\u0000" contains the control character U\+0000/);
    expectDefinitionError(pipeline([{ ...step('a', ['question']), fixes: 'f' as unknown as VariantDef[] }]), /^step "a": fixes must be an array/);
    expectDefinitionError(pipeline([[step('a', ['question'])] as unknown as StepDef]), /^steps\[0\] must be an object/);
    expectDefinitionError({ ...pipeline([step('a', ['question'])]), models: { default: ' ' } }, /^models\.default must be a non-empty model id$/);
    expectDefinitionError(pipeline([{ ...step('a', ['question']), cost: undefined as unknown as number }]), /^step "a": cost is missing/);
  });

  it('returns the definition itself, marked as validated', () => {
    const def = pipeline([step('a', ['question'])]);
    expect(validatePipeline(def)).toBe(def);
    // @ts-expect-error analyzeCase takes only a validated definition: the rules run once, at compile time.
    expect(() => analyzeValidated(pipeline([step('a', ['b']), step('b', ['question'])]), aCase, settings)).not.toThrow(DefinitionError);
  });

  it('a malformed definition is refused before any case is analysed', () => {
    expect(() => analyzeCase(pipeline([step('a', ['b']), step('b', ['question'])]), aCase, settings)).toThrow(/step "a"/);
    expect(() => analyzeCase(pipeline([step('a', ['question']), step('a', ['question'])]), aCase, settings)).toThrow(DefinitionError);
  });

  it('the replayer itself refuses a forward reference (when called without validation)', () => {
    const def = pipeline([step('a', ['b']), step('b', ['question'])]);
    expect(() => new Replayer(def, aCase, [new WorldNoise(1)], [0, 0])).toThrow(ReplayError);
    expect(() => new Replayer(def, aCase, [new WorldNoise(1)], [0, 0])).toThrow(/step "a" reads "b"/);
  });
});

describe('analyzeCase errors name the case and the step', () => {
  it('an input that is neither an earlier step nor a case input', () => {
    const r = analyzeCase(pipeline([step('a', ['question']), step('b', ['a', 'context'])]), aCase, settings);
    expect(r.error).toMatch(/case "case-7"/);
    expect(r.error).toMatch(/step "b" reads "context"/);
    expect(r.failed).toBe(true);
    expect(r.shapley).toBeUndefined();
  });

  it('a step that throws', () => {
    const def = pipeline([step('a', ['question']), step('b', ['a'], () => {
      throw new Error('model timed out');
    })]);
    const r = analyzeCase(def, aCase, settings);
    expect(r.error).toMatch(/case "case-7".*step "b".*model timed out/);
  });

  it('a fix that throws (only reached in counterfactual runs)', () => {
    const def = pipeline([step('a', ['question'], () => 'x', () => {
      throw new TypeError('bad fix');
    }), step('b', ['a'])]);
    const r = analyzeCase(def, aCase, settings);
    expect(r.error).toMatch(/case "case-7".*step "a" \(fix "a fix"\).*bad fix/);
  });

  it('a metric returning a non-number, NaN, or throwing', () => {
    const steps = [step('a', ['question'])];
    for (const [metric, what] of [
      [() => 'yes', /metric returned a string/],
      [() => NaN, /metric returned NaN/],
      [() => undefined, /metric returned undefined/],
      [() => {
        throw new Error('boom');
      }, /metric threw: boom/],
    ] as const) {
      const r = analyzeCase(pipeline(steps, metric as unknown as PipelineDef['metric']), aCase, settings);
      expect(r.error).toMatch(/case "case-7"/);
      expect(r.error).toMatch(what);
    }
  });

  it('a metric outside the declared range', () => {
    const r = analyzeCase({ ...pipeline([step('a', ['question'])], () => 2) }, aCase, settings);
    expect(r.error).toMatch(/case "case-7".*2.*outside the declared range \[0, 1\]/);
  });

  it('a non-plain output, naming the step and the path', () => {
    class Doc {
      text = 'x';
    }
    for (const [value, what] of [
      [new Map(), /Map/],
      [new Doc(), /Doc/],
      [{ list: [1, () => 0] }, /\.list\[1\].*function/],
      [10n, /bigint/],
    ] as const) {
      const r = analyzeCase(pipeline([step('a', ['question'], () => value), step('b', ['a'])]), aCase, settings);
      expect(r.error).toMatch(/case "case-7"/);
      expect(r.error).toMatch(/step "a"/);
      expect(r.error).toMatch(what);
    }
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(analyzeCase(pipeline([step('a', ['question'], () => cyclic)]), aCase, settings).error).toMatch(/\.self.*refers to itself/);
  });

  it('a step that returns a promise', () => {
    const r = analyzeCase(pipeline([step('a', ['question'], () => Promise.resolve(1))]), aCase, settings);
    expect(r.error).toMatch(/step "a".*promise/);
  });

  it('an unknown fix choice', () => {
    const r = analyzeCase(pipeline([step('a', ['question'])]), aCase, { ...settings, fixChoice: { a: 'nope' } });
    expect(r.error).toMatch(/step "a" has no fix named "nope"/);
  });

  it('a step named like an Object.prototype member works, and fixChoice picks its fixes', () => {
    const def: PipelineDef = {
      name: 'proto',
      steps: [
        { name: 'constructor', inputs: ['question'], cost: 1, run: () => 'bad', fixes: [{ name: 'f1', cost: 1, run: () => 'bad' }, { name: 'f2', cost: 1, run: () => 'ok' }] },
      ],
      metric: (out) => ((out['constructor'] as unknown) === 'ok' ? 1 : 0),
    };
    const r = analyzeCase(def, aCase, settings);
    expect(r.error).toBeUndefined();
    expect(r.shapley).toEqual({ constructor: 0 });
    expect(analyzeCase(def, aCase, { ...settings, fixChoice: { constructor: 'f2' } }).shapley).toEqual({ constructor: 1 });
  });

  it('a step may not change a cached value that later runs share', () => {
    const def = pipeline([
      step('a', ['question'], () => ({ docs: ['x'] })),
      step('b', ['a'], ({ a }) => {
        (a as { docs: string[] }).docs.push('y');
        return 'ok';
      }),
    ]);
    const r = analyzeCase(def, aCase, settings);
    expect(r.error).toMatch(/step "b" threw/);
  });
});
