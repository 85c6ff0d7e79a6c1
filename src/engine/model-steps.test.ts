import { validatePipeline, type ValidPipeline } from './pipeline.ts';
import { describe, expect, it } from 'vitest';
import { analyzeCase } from './analyze.ts';
import { DEFAULT_SETTINGS } from './settings.ts';
import { ModelContext } from './model-context.ts';
import { requestKey, type ModelAnswer } from './model-call.ts';
import { createStepNoise, WorldNoise } from './noise.ts';
import { StepLlm, chooseRequest } from './step-llm.ts';
import { runRounds, toyAnswer, toyChooseLogits } from './testing/toy-model.ts';
import type { AnalysisSettings, CaseDef, Llm, PipelineDef, StepTools } from './types.ts';

const MODELS = { default: 'toy-1', big: 'toy-2' };
const settings = (over: Partial<AnalysisSettings> = {}): AnalysisSettings => ({ ...DEFAULT_SETTINGS, models: MODELS, ...over });
const llmOf = (tools: StepTools | undefined): Llm => tools!.llm;

const OPTIONS = ['refund', 'escalate', 'close'];
const classifyPrompt = (ticket: string, hint: string) => `${hint}Ticket: ${ticket}`;

/** Support triage whose steps call the (toy) model through `llm`. */
function modelPipeline(): ValidPipeline {
  return validatePipeline({
    name: 'triage',
    steps: [
      {
        name: 'classify', inputs: ['ticket'], cost: 1,
        run: ({ ticket }, _noise, tools) => llmOf(tools).choose({ messages: [{ role: 'user', content: classifyPrompt(String(ticket), '') }], options: OPTIONS }),
        fixes: [{ name: 'hint', cost: 1, run: ({ ticket }, _noise, tools) => llmOf(tools).choose({ messages: [{ role: 'user', content: classifyPrompt(String(ticket), 'PREFER:refund ') }], options: OPTIONS }) }],
      },
      {
        name: 'draft', inputs: ['classify', 'ticket'], cost: 1,
        run: ({ classify, ticket }, _noise, tools) => llmOf(tools).chat({ messages: [{ role: 'system', content: classify === 'refund' ? 'ANSWER:refund-ok' : 'ANSWER:sorry' }, { role: 'user', content: String(ticket) }], temperature: 0 }).text,
        fixes: [{ name: 'policy', cost: 1, run: ({ ticket }, _noise, tools) => llmOf(tools).chat({ messages: [{ role: 'system', content: 'ANSWER:refund-ok' }, { role: 'user', content: String(ticket) }], temperature: 0, model: 'big' }).text }],
      },
      {
        name: 'review', inputs: ['draft'], cost: 1,
        run: ({ draft }, noise) => (noise.bernoulli(0.3, 'slip') ? 'lost' : draft),
        fixes: [{ name: 'checklist', cost: 1, run: ({ draft }) => draft }],
      },
    ],
    metric: (outputs) => (outputs.review === 'refund-ok' ? 1 : 0),
  });
}

/** The same pipeline with the toy model simulated in plain code: what the model steps must reproduce. */
function simulatedTwin(): ValidPipeline {
  const def = modelPipeline();
  const chat = (system: string, user: string, model: string) => toyAnswer({ model, messages: [{ role: 'system', content: system }, { role: 'user', content: user }], temperature: 0 }).text;
  return validatePipeline({
    ...def,
    steps: [
      { ...def.steps[0], run: ({ ticket }, noise) => noise.categorical(toyChooseLogits(OPTIONS, classifyPrompt(String(ticket), ''))), fixes: [{ name: 'hint', cost: 1, run: ({ ticket }, noise) => noise.categorical(toyChooseLogits(OPTIONS, classifyPrompt(String(ticket), 'PREFER:refund '))) }] },
      { ...def.steps[1], run: ({ classify, ticket }) => chat(classify === 'refund' ? 'ANSWER:refund-ok' : 'ANSWER:sorry', String(ticket), 'toy-1'), fixes: [{ name: 'policy', cost: 1, run: ({ ticket }) => chat('ANSWER:refund-ok', String(ticket), 'toy-2') }] },
      def.steps[2],
    ],
  });
}

const cases: CaseDef[] = Array.from({ length: 12 }, (_, k) => ({ id: `t${k}`, inputs: { ticket: `order ${k} arrived broken` }, seed: 100 + k }));

describe('model steps', () => {
  for (const mode of ['recorded', 'posterior', 'prior'] as const) {
    it(`give exactly the Shapley values of their simulated twin (${mode})`, () => {
      for (const c of cases) {
        const s = settings({ mode, worlds: 4 });
        const observed: CaseDef = mode === 'posterior' ? { ...c, observed: { classify: { default: 'escalate' } } } : c;
        const { result, sent } = runRounds(modelPipeline(), observed, s);
        const twin = analyzeCase(simulatedTwin(), observed, s);
        expect(result.error).toBeUndefined();
        const { usage: _usage, modelKeys, ...rest } = result;
        expect(rest).toEqual({ ...twin, cost: rest.cost });
        // The result names exactly the responses it used: the requests sent for it.
        expect(modelKeys).toEqual([...new Set(sent.map((p) => p.key))].sort());
        // Every request sent is distinct and the run needed it.
        expect(new Set(sent.map((p) => p.key)).size).toBe(sent.length);
      }
    });
  }

  it('send each distinct request once, and only what the analysis uses', () => {
    const answers = new Map<string, ModelAnswer>();
    const first = runRounds(modelPipeline(), cases[0], settings(), toyAnswer, answers);
    // Recorded mode, exact: 2 classify prompts (as run, fix) and the draft prompts they lead to.
    const keys = new Set(first.sent.map((p) => p.key));
    expect(keys.size).toBe(first.sent.length);
    expect(first.sent.length).toBeGreaterThanOrEqual(3);
    // A second analysis with every answer known sends nothing and gives the same result.
    const again = runRounds(modelPipeline(), cases[0], settings(), () => { throw new Error('nothing should be sent'); }, answers);
    expect(again.sent).toEqual([]);
    expect(again.rounds).toBe(1);
    expect(again.result).toEqual(first.result);
  });

  it('keep a step suspended when it catches the llm call\'s throw', () => {
    const def = modelPipeline();
    const sneaky = validatePipeline({
      ...def,
      steps: [{ ...def.steps[0], run: (inputs, noise, tools) => { try { return def.steps[0].run(inputs, noise, tools); } catch { return 'close'; } } }, def.steps[1], def.steps[2]],
    });
    const { result } = runRounds(sneaky, cases[1], settings());
    expect(result).toEqual(runRounds(def, cases[1], settings()).result);
  });

  it('end a request the host could not get as the case\'s error, naming the step', () => {
    const failing = (request: { model: string }) => (request.model === 'toy-2' ? { error: 'http://127.0.0.1:9/v1: HTTP 401 "bad key"' } : toyAnswer(request as never));
    const { result } = runRounds(modelPipeline(), cases[2], settings(), failing as never);
    expect(result.error).toContain('step "draft"');
    expect(result.error).toContain('HTTP 401 "bad key"');
  });

  it('fail a case whose request failed even when the step catches the throw (no fallback that depends on luck)', () => {
    const def = modelPipeline();
    const catching = validatePipeline({
      ...def,
      steps: [def.steps[0], { ...def.steps[1], fixes: [{ ...def.steps[1].fixes[0], run: (inputs, noise, tools) => { try { return def.steps[1].fixes[0].run(inputs, noise, tools); } catch { return 'refund-ok'; } } }] }, def.steps[2]],
    });
    const failing = (request: { model: string }) => (request.model === 'toy-2' ? { error: 'HTTP 500 "overloaded"' } : toyAnswer(request as never));
    const { result } = runRounds(catching, cases[2], settings(), failing as never);
    expect(result.error).toBe('case "t2": step "draft": llm.chat failed: HTTP 500 "overloaded"');
  });

  it('say which alias is missing', () => {
    const { result } = runRounds(modelPipeline(), cases[3], settings({ models: { default: 'toy-1' } }));
    expect(result.error).toMatch(/step "draft".*model "big".*--model big=ID/);
  });

  it('seed sampled chats by world, so worlds differ and coalitions of one world share a request', () => {
    const def = validatePipeline({
      name: 'sampled',
      steps: [{
        name: 'write', inputs: ['q'], cost: 1,
        run: ({ q }, _n, tools) => llmOf(tools).chat({ messages: [{ role: 'user', content: String(q) }], temperature: 0.7 }).text,
        fixes: [{ name: 'same', cost: 1, run: ({ q }, _n, tools) => llmOf(tools).chat({ messages: [{ role: 'user', content: String(q) }], temperature: 0.7 }).text }],
      }],
      metric: (o) => (o.write === 'alpha' ? 1 : 0),
    });
    const { sent } = runRounds(def, { id: 'q', inputs: { q: 'hello' } }, settings({ mode: 'prior', worlds: 6 }));
    // The fix sends the same request as the as-run step: one request per world, each with its own
    // seed (prior mode also replays the case's own world, to judge whether it failed: 6 + 1).
    expect(sent).toHaveLength(7);
    expect(new Set(sent.map((p) => p.request.seed)).size).toBe(7);
    expect(sent.every((p) => Number.isInteger(p.request.seed) && p.request.seed! >= 0 && p.request.seed! < 2 ** 31)).toBe(true);
  });
});

describe('llm.choose with common random numbers', () => {
  const prompt = (hint: string) => [{ role: 'user' as const, content: classifyPrompt('lost parcel', hint) }];
  const answersFor = (...hints: string[]) =>
    new Map<string, ModelAnswer>(hints.map((h) => {
      const request = chooseRequest({ messages: prompt(h), options: OPTIONS }, OPTIONS, 'toy-1');
      return [requestKey(request), toyAnswer(request)];
    }));

  function choiceIn(seed: number, hint: string, answers: Map<string, ModelAnswer>): string {
    const world = new WorldNoise(seed);
    const llm = new StepLlm(world, 'classify', createStepNoise(world, 'classify'), new ModelContext(answers, MODELS));
    return llm.choose({ messages: prompt(hint), options: OPTIONS });
  }

  it('never changes the choice when a fix leaves the prompt unchanged', () => {
    const answers = answersFor('');
    for (let seed = 0; seed < 300; seed++) expect(choiceIn(seed, '', answers)).toBe(choiceIn(seed, '', new Map(answers)));
  });

  it('moves a choice only towards the option a fix makes more likely', () => {
    const answers = answersFor('', 'PREFER:refund ');
    let moved = 0;
    for (let seed = 0; seed < 500; seed++) {
      const before = choiceIn(seed, '', answers);
      const after = choiceIn(seed, 'PREFER:refund ', answers);
      if (before !== after) {
        moved++;
        expect(after).toBe('refund');
      }
      if (before === 'refund') expect(after).toBe('refund');
    }
    expect(moved).toBeGreaterThan(0);
  });

  it('follows the label probabilities (Gumbel-max over the logits)', () => {
    const answers = answersFor('');
    const logits = toyChooseLogits(OPTIONS, classifyPrompt('lost parcel', ''));
    const counts: Record<string, number> = { refund: 0, escalate: 0, close: 0 };
    const n = 4000;
    for (let seed = 0; seed < n; seed++) counts[choiceIn(seed, '', answers)]++;
    for (const o of OPTIONS) {
      const p = Math.exp(logits[o]);
      expect(Math.abs(counts[o] / n - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / n) + 1e-9);
    }
  });

  it('refuses an answer without log-probabilities, naming the step', () => {
    const request = chooseRequest({ messages: prompt(''), options: OPTIONS }, OPTIONS, 'toy-1');
    const answers = new Map<string, ModelAnswer>([[requestKey(request), { text: 'A', finish: 'stop', usage: { input: 1, output: 1 } }]]);
    expect(() => choiceIn(1, '', answers)).toThrow(/llm.choose in step "classify": the endpoint returned no log-probabilities/);
  });
});

describe('an alias the study does not map', () => {
  it('names both ways to map it: the command\'s flag and the page\'s field', () => {
    const context = new ModelContext(new Map(), { default: 'toy-1' });
    expect(() => context.modelId('judge', 'grade', 'llm.chat')).toThrow('step "grade": llm.chat asks for model "judge", which this study does not map to a model id (known: default); map it (the command: --model judge=ID; the page: Settings > Model > Other aliases)');
    expect(() => new ModelContext(new Map(), {}).modelId('default', 'grade', 'llm.chat')).toThrow('(none is set); set the default model (the command: --model ID; the page: Settings > Model)');
  });
});
