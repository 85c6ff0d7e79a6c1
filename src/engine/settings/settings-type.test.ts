import { describe, expectTypeOf, it } from 'vitest';
import type { AnalysisSettings, EstimatorName, Method, Mode, StopRule } from '../types.ts';

// The settings' type is read off the schema; `tsc` checks these (vitest runs them as no-ops).
describe('AnalysisSettings, read off the schema', () => {
  it('types each field by its entry: numbers, choices, switches and structured values', () => {
    expectTypeOf<AnalysisSettings['worlds']>().toEqualTypeOf<number>();
    expectTypeOf<AnalysisSettings['mode']>().toEqualTypeOf<Mode>();
    expectTypeOf<AnalysisSettings['method']>().toEqualTypeOf<Method | 'auto'>();
    expectTypeOf<AnalysisSettings['stop']>().toEqualTypeOf<StopRule>();
    expectTypeOf<AnalysisSettings['estimator']>().toEqualTypeOf<EstimatorName>();
    expectTypeOf<AnalysisSettings['fixChoice']>().toEqualTypeOf<Readonly<Record<string, string>> | undefined>();
    expectTypeOf<AnalysisSettings['repairs']>().toEqualTypeOf<{ success?: number; size: number } | undefined>();
  });

  it('makes an optional entry an optional field, and a required one required', () => {
    expectTypeOf<AnalysisSettings['tieTolerance']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<AnalysisSettings['interactions']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<Pick<AnalysisSettings, 'seed'>>().toEqualTypeOf<{ seed: number }>();
    expectTypeOf<Pick<AnalysisSettings, 'tieTolerance'>>().toEqualTypeOf<{ tieTolerance?: number }>();
  });
});
