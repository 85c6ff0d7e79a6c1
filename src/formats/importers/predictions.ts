/**
 * Predictions files, scored against labelled runs:
 * `{ "<run id>": { "agent": "WebSurfer", "step": 3 } }`. Either field may be left out; a step
 * may be written as text ("3"), as Who&When labels are.
 */
import type { Predictions } from '../../runs/index.ts';
import { FormatError } from '../format-error.ts';
import type { Importer } from '../importer.ts';
import { childPath } from '../json-path.ts';
import { describeValue, expectObject, ownField } from '../validate.ts';
import { parseJsonKeepingBigInts } from '../recorded/big-int-json.ts';
import { opening } from '../recorded/sniff.ts';

export function parsePredictions(text: string): Predictions {
  const parsed = expectObject(parseJsonKeepingBigInts(text), '(top level)');
  const out: Predictions = {};
  for (const [id, value] of Object.entries(parsed)) {
    const path = childPath('', id);
    const entry = expectObject(value, path);
    const agent = ownField(entry, 'agent');
    const step = ownField(entry, 'step');
    const prediction: { agent?: string; step?: number } = {};
    if (agent !== undefined && agent !== null) {
      if (typeof agent !== 'string') throw new FormatError(childPath(path, 'agent'), `expected an agent name, ${describeValue(agent)}`);
      prediction.agent = agent;
    }
    if (step !== undefined && step !== null) {
      const index = typeof step === 'number' ? step : typeof step === 'string' && /^\s*\d+\s*$/.test(step) ? Number(step) : NaN;
      if (!Number.isInteger(index) || index < 0) throw new FormatError(childPath(path, 'step'), `expected a step index (a whole number from 0), ${describeValue(step)}`);
      prediction.step = index;
    }
    if (prediction.agent === undefined && prediction.step === undefined) throw new FormatError(path, 'expected "agent" or "step" (or both)');
    Object.defineProperty(out, id, { value: prediction, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

export const predictionsImporter: Importer = {
  label: 'attribution predictions ({ "<run id>": { agent, step } })',
  sniff: (text) => /^\{"[^"]*":\{"(agent|step)":/.test(opening(text, 256)),
  import: (text) => ({ kind: 'predictions', predictions: parsePredictions(text) }),
};
