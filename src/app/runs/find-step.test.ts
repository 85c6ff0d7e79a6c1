import { describe, expect, it } from 'vitest';
import { buildRun, type StepDraft } from '../../runs/index.ts';
import { findNextStep, naturalCompare } from './find-step.ts';

function step(id: string, extra: Partial<StepDraft> = {}): StepDraft {
  return { id, parent: null, name: id, kind: 'other', start: null, end: null, model: null, usage: null, error: null, attributes: {}, ...extra };
}

const run = buildRun({
  id: 'r',
  steps: [
    step('plan', { order: 0, kind: 'agent', output: { form: 'value', value: 'We will read the policy page.', role: 'assistant' } }),
    step('search', { order: 1, kind: 'tool', input: { form: 'value', value: { q: 'refund window' }, role: 'tool' } }),
    step('answer', { order: 2, kind: 'llm', model: 'gpt-4o-mini', output: { form: 'value', value: [{ role: 'assistant', content: 'Within 14 days.' }] } }),
  ],
});

describe('Find in the run view', () => {
  it('matches names, models and kinds first, then message content, wrapping after the selected step', () => {
    expect(findNextStep(run, -1, 'ANSWER')).toEqual({ index: 2, inMessages: false });
    expect(findNextStep(run, -1, 'gpt-4o')).toEqual({ index: 2, inMessages: false });
    expect(findNextStep(run, 0, 'policy')).toEqual({ index: 0, inMessages: true });
    expect(findNextStep(run, 0, 'refund window')).toEqual({ index: 1, inMessages: true });
    expect(findNextStep(run, 1, '14 days')).toEqual({ index: 2, inMessages: true });
  });

  it('says when nothing matches (null), and ignores an empty query', () => {
    expect(findNextStep(run, 0, 'no such text')).toBeNull();
    expect(findNextStep(run, 0, '   ')).toBeNull();
  });

  it('sorts run keys naturally: 1, 2, 10', () => {
    expect(['algorithm/10', 'algorithm/2', 'hand/1', 'algorithm/1'].sort(naturalCompare)).toEqual(['algorithm/1', 'algorithm/2', 'algorithm/10', 'hand/1']);
  });
});
