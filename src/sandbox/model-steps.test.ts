import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type ModelAnswer } from '../engine/index.ts';
import { toyAnswer } from '../engine/testing/toy-model.ts';
import type { AnalysisSettings, CaseDef, CaseResult } from '../engine/types.ts';
import { analyzeSourceCase, analyzeSourceCaseRound, describeSource } from './analyze-source.ts';
import { oneStepSource } from './testing/one-step.ts';
import { TRIAGE_SOURCE } from './testing/triage-source.ts';

const settings: AnalysisSettings = { ...DEFAULT_SETTINGS, models: { default: 'toy-1' } };

function rounds(source: string, c: CaseDef, s = settings): { result: CaseResult; sent: number } {
  const answers = new Map<string, ModelAnswer>();
  let sent = 0;
  for (let k = 0; k < 50; k++) {
    const round = analyzeSourceCaseRound(source, c, s, answers);
    if (round.kind === 'result') return { result: round.result, sent };
    for (const p of round.requests) {
      expect(answers.has(p.key)).toBe(false);
      answers.set(p.key, toyAnswer(p.request));
      sent++;
    }
  }
  throw new Error('no result');
}

describe('model steps in the sandbox', () => {
  const cases = describeSource(TRIAGE_SOURCE).cases;

  it('analyse a definition whose steps call llm.chat and llm.choose', () => {
    for (const c of cases) {
      const { result, sent } = rounds(TRIAGE_SOURCE, c);
      expect(result.error).toBeUndefined();
      expect(sent).toBeGreaterThan(0);
      const total = Object.values(result.shapley ?? {}).reduce((a, b) => a + b, 0);
      if (result.failed) expect(total).toBeCloseTo(result.vAll - result.vEmpty, 12);
    }
  });

  it('keep a step suspended when the definition catches the throw', () => {
    const caught = TRIAGE_SOURCE.replace(
      "run: ({ ticket }, noise, { llm }) => llm.choose({ messages: [{ role: 'user', content: 'Ticket: ' + ticket }], options: OPTIONS }),",
      "run: ({ ticket }, noise, { llm }) => { try { return llm.choose({ messages: [{ role: 'user', content: 'Ticket: ' + ticket }], options: OPTIONS }); } catch (e) { return 'close'; } },",
    );
    expect(caught).not.toBe(TRIAGE_SOURCE);
    for (const c of cases.slice(0, 3)) expect(rounds(caught, c).result).toEqual(rounds(TRIAGE_SOURCE, c).result);
  });

  it('hand definitions frozen results and no engine objects', () => {
    const source = oneStepSource(`
      const r = llm.chat({ messages: [{ role: 'system', content: 'ANSWER:fixed' }, { role: 'user', content: 'q' }], temperature: 0 });
      let threw = false; try { r.text = 'changed'; } catch (e) { threw = true; }
      return [r.text, threw, Object.isFrozen(r.usage), Object.keys(llm).sort().join(',')].join('|');`).replace('run: (inputs, noise) =>', 'run: (inputs, noise, { llm }) =>');
    const { result } = rounds(source, { id: 'x', inputs: { question: 'q', doc: 'd' } });
    expect(result.factualOutputs!.probe).toBe('fixed|true|true|chat,choose');
  });

  it('refuse llm outside a step (kept from a run and called in the metric), with a clear message', () => {
    const source = oneStepSource('kept = llm; return 1;', 'let kept = null;')
      .replace('run: (inputs, noise) =>', 'run: (inputs, noise, { llm }) =>')
      .replace("metric: (outputs) => (outputs.probe === 'fixed' ? 1 : 0),", "metric: (outputs) => kept.chat({ messages: [{ role: 'user', content: 'q' }] }).text.length,");
    const result = analyzeSourceCase(source, { id: 'x', inputs: { question: 'q', doc: 'd' } }, settings);
    expect(result.error).toMatch(/the metric threw: .*llm is only available while a step runs/);
  });

  it('name the step when a definition calls a model where no host answers', () => {
    const result = analyzeSourceCase(TRIAGE_SOURCE, cases[0], settings);
    expect(result.error).toBe('case "t0": step "classify" calls a model (llm.chat or llm.choose), but no model host answers requests here');
  });

  it('check llm arguments in the step that passes them', () => {
    const source = oneStepSource(`return llm.choose({ messages: [{ role: 'user', content: 'q' }], options: ['a', 'a'] });`).replace('run: (inputs, noise) =>', 'run: (inputs, noise, { llm }) =>');
    const { result } = rounds(source, { id: 'x', inputs: { question: 'q', doc: 'd' } });
    expect(result.error).toMatch(/step "probe" threw: .*option "a" is listed twice/);
  });

  it('use the model ids the definition names, unless the study maps the alias itself', () => {
    const withModels = TRIAGE_SOURCE.replace("name: 'triage',", "name: 'triage', models: { default: 'toy-1' },");
    expect(describeSource(withModels).models).toEqual({ default: 'toy-1' });
    const bare: AnalysisSettings = { ...DEFAULT_SETTINGS };
    const first = analyzeSourceCaseRound(withModels, cases[0], bare, new Map());
    expect(first.kind === 'pending' && first.requests[0].request.model).toBe('toy-1');
    const overridden = analyzeSourceCaseRound(withModels, cases[0], { ...bare, models: { default: 'toy-9' } }, new Map());
    expect(overridden.kind === 'pending' && overridden.requests[0].request.model).toBe('toy-9');
    expect(() => describeSource(TRIAGE_SOURCE.replace("name: 'triage',", "name: 'triage', models: { default: '' },"))).toThrow('pipeline.js: models.default must be a non-empty model id');
  });

  it('send a definition\'s modelParams with every request of the alias, the study\'s on top key by key', () => {
    const withParams = TRIAGE_SOURCE.replace("name: 'triage',", "name: 'triage', models: { default: 'toy-1' }, modelParams: { default: { reasoning_effort: 'none', top_k: 1 } },");
    const first = analyzeSourceCaseRound(withParams, cases[0], { ...DEFAULT_SETTINGS }, new Map());
    expect(first.kind === 'pending' && first.requests.map((r) => r.request.params)).toEqual([{ reasoning_effort: 'none', top_k: 1 }]);
    const study = analyzeSourceCaseRound(withParams, cases[0], { ...DEFAULT_SETTINGS, modelParams: { default: { top_k: 5, chat_template_kwargs: { enable_thinking: false } } } }, new Map());
    expect(study.kind === 'pending' && study.requests[0].request.params).toEqual({ reasoning_effort: 'none', top_k: 5, chat_template_kwargs: { enable_thinking: false } });
    // Without parameters the request (so its key) is what it always was.
    const bare = analyzeSourceCaseRound(TRIAGE_SOURCE, cases[0], settings, new Map());
    expect(bare.kind === 'pending' && 'params' in bare.requests[0].request).toBe(false);
    expect(() => describeSource(TRIAGE_SOURCE.replace("name: 'triage',", "name: 'triage', modelParams: { default: { temperature: 1 } },"))).toThrow('modelParams.default.temperature: "temperature" is set by the llm call itself');
  });
});
