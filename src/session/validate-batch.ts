import { validateUsage } from './validate-usage.ts';
import type { BatchResult, BatchStep } from '../engine/types.ts';
import { expectFiniteNumber, expectNonEmptyString, expectObject } from '../formats/validate.ts';
import { arrayOf, expectBoolean, expectInterval, expectNonNegative, optionalField, requiredField } from './validate-fields.ts';

function validateBatchStep(value: unknown, path: string): BatchStep {
  const object = expectObject(value, path);
  const meanFixAlone = optionalField(object, 'meanFixAlone', path, expectFiniteNumber);
  return {
    step: requiredField(object, 'step', path, expectNonEmptyString),
    fixAloneRate: requiredField(object, 'fixAloneRate', path, expectFiniteNumber),
    ...(meanFixAlone !== undefined && { meanFixAlone }),
    meanShapley: requiredField(object, 'meanShapley', path, expectFiniteNumber),
    ci: requiredField(object, 'ci', path, expectInterval),
    share: requiredField(object, 'share', path, expectFiniteNumber),
    lastTouch: requiredField(object, 'lastTouch', path, expectNonNegative),
  };
}

/** The batch aggregate over a session's failing cases, rebuilt from untrusted JSON. */
export function validateBatch(value: unknown, path: string): BatchResult {
  const object = expectObject(value, path);
  const stoppedEarly = optionalField(object, 'stoppedEarly', path, expectBoolean);
  const usage = optionalField(object, 'usage', path, validateUsage);
  const fixAloneKnown = optionalField(object, 'fixAloneKnown', path, expectNonNegative);
  return {
    failures: requiredField(object, 'failures', path, expectNonNegative),
    analyzed: requiredField(object, 'analyzed', path, expectNonNegative),
    ...(fixAloneKnown !== undefined && { fixAloneKnown }),
    unfixable: requiredField(object, 'unfixable', path, expectNonNegative),
    cost: requiredField(object, 'cost', path, expectNonNegative),
    steps: requiredField(object, 'steps', path, (v, p) => arrayOf(v, p, validateBatchStep)),
    ...(stoppedEarly !== undefined && { stoppedEarly }),
    ...(usage !== undefined && { usage }),
  };
}
