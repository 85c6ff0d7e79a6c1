/**
 * Hostile model-step definitions: steps that call `llm` with huge prompts or ask for
 * requests without bound fail their own case with a clear message, before anything is fetched.
 * The pool-level cases (a step that catches its suspension and spins, a step asking for one new
 * request per round for ever) are in src/pool/node/model-pool.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type ModelAnswer } from '../engine/index.ts';
import { MAX_MODEL_REQUESTS_PER_CASE, MAX_PROMPT_CHARS } from '../engine/limits.ts';
import { toyAnswer } from '../engine/testing/toy-model.ts';
import type { AnalysisSettings, CaseDef, CaseResult } from '../engine/types.ts';
import { analyzeSourceCaseRound } from '../sandbox/analyze-source.ts';
import { oneStepSource } from '../sandbox/testing/one-step.ts';

const settings: AnalysisSettings = { ...DEFAULT_SETTINGS, models: { default: 'toy-1' } };
const CASE: CaseDef = { id: 'c', inputs: { question: 'q', doc: 'd' } };

function modelStep(body: string): string {
  return oneStepSource(body).replace('run: (inputs, noise) =>', 'run: (inputs, noise, { llm }) =>');
}

/** Rounds until a result, answering with the toy model; how many requests were fetched. */
function rounds(source: string): { result: CaseResult; fetched: number } {
  const answers = new Map<string, ModelAnswer>();
  let fetched = 0;
  for (let k = 0; k < 20; k++) {
    const round = analyzeSourceCaseRound(source, CASE, settings, answers);
    if (round.kind === 'result') return { result: round.result, fetched };
    for (const p of round.requests) answers.set(p.key, toyAnswer(p.request));
    fetched += round.requests.length;
  }
  throw new Error('no result after 20 rounds');
}

describe('hostile model steps', () => {
  it('a prompt past the size limit fails the case, naming the step; nothing is requested', () => {
    const { result, fetched } = rounds(modelStep(`return llm.chat({ messages: [{ role: 'system', content: 'x' }, { role: 'user', content: 'y'.repeat(${MAX_PROMPT_CHARS}) }] }).text;`));
    expect(fetched).toBe(0);
    expect(result.error).toMatch(new RegExp(`^case "c": step "probe" threw: .*llm\\.chat: the messages hold ${MAX_PROMPT_CHARS + 1} characters \\(at most ${MAX_PROMPT_CHARS}\\)`));
  });

  it('llm.choose options count towards the prompt size too', () => {
    const { result, fetched } = rounds(modelStep(`return llm.choose({ messages: [{ role: 'user', content: 'pick' }], options: ['a', 'b'.repeat(${MAX_PROMPT_CHARS})] });`));
    expect(fetched).toBe(0);
    expect(result.error).toMatch(/llm\.choose: the messages hold \d+ characters \(at most \d+\)/);
  });

  it('a step that catches every suspension and asks for ever more requests fails once past the per-case limit, before any is fetched', () => {
    const { result, fetched } = rounds(modelStep(`
      for (let i = 0; i < ${MAX_MODEL_REQUESTS_PER_CASE * 2}; i++) { try { llm.chat({ messages: [{ role: 'user', content: 'q' + i }] }); } catch (e) {} }
      return 'done';`));
    expect(fetched).toBe(0);
    expect(result.error).toMatch(new RegExp(`^case "c": step "probe": llm\\.chat asks for more than ${MAX_MODEL_REQUESTS_PER_CASE} distinct model requests in one case`));
  });

  it('a step within the limits still gets its answers (the limits do not touch ordinary model steps)', () => {
    const { result, fetched } = rounds(modelStep(`
      const texts = [];
      for (let i = 0; i < 50; i++) { try { texts.push(llm.chat({ messages: [{ role: 'user', content: 'q' + i }] }).text); } catch (e) { texts.push('?'); } }
      return texts.length === 50 ? 'done' : 'short';`));
    expect(fetched).toBe(50);
    expect(result.error).toBeUndefined();
    expect(result.factualOutputs!.probe).toBe('done');
  });
});
