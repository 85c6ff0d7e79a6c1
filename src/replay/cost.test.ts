/**
 * What a replay costs (docs/replay.md, "What a replay costs"): the generated definition holds each
 * distinct context message once and each context by reference to the one it continues, so its size
 * grows with the run's; and a step asks for every request it can know at once, so a run whose
 * repaired turns do not quote each other is replayed in two rounds, not one per request.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../engine/settings.ts';
import type { AnalysisSettings } from '../engine/types.ts';
import { parseInputFile } from '../formats/detect.ts';
import { analyzeSourceCaseRound } from '../sandbox/analyze-source.ts';
import type { ModelAnswer } from '../engine/model-call.ts';
import { buildReplay, recordedContext, recordingLinks, turnLinks } from './index.ts';
import { pairRunOf } from './pairs.ts';
import { says } from './testing/model-loop.ts';
import { runtapeLog } from './testing/runtape-log.ts';
import { definitionSource } from './definition-source.ts';
import { readWhoWhen } from '../formats/importers/whowhen.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NO_SAMPLES, sharedSamplesDir } from '../formats/test-helpers.ts';

const SETTINGS: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'exact', mode: 'recorded', models: { default: 'm' } };

function runtapeRun(turns: number) {
  const input = parseInputFile(runtapeLog(turns), 'bench.jsonl');
  if (input.kind !== 'runs') throw new Error('not runs');
  return input.runs.runs[0];
}

function replayOf(turns: number) {
  return buildReplay([runtapeRun(turns)], { players: 'agents', fixes: [], outcome: { kind: 'expect', text: 'refund approved' }, origin: 'test' });
}

describe('the size of a replay definition', () => {
  it('holds each distinct context message once, each context continuing the one before it', () => {
    const def = replayOf(40);
    const plan = def.runs[0];
    const model = plan.turns.filter((t) => t.kind === 'model');
    expect(model).toHaveLength(20);
    // The first request's system and user messages, then each call and its result: 2 + 2 x 19.
    expect(plan.messages).toHaveLength(2 + 2 * 19);
    expect(model[0].context).toEqual({ from: -1, add: [0, 1] });
    for (const [k, t] of model.entries()) if (k > 0) expect(t.context).toEqual({ from: model[k - 1].index, add: [2 * k, 2 * k + 1] });
    // By reference, yet the same context as recorded.
    expect(recordedContext(model[19], plan)).toHaveLength(2 + 2 * 19);
    expect(recordedContext(model[19], plan).slice(0, 3).map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
  });

  it('grows linearly with the run, within 10 times the trace', () => {
    const bytes = [100, 200, 400].map((turns) => ({ log: runtapeLog(turns).length, def: replayOf(turns).source.length }));
    for (const b of bytes) expect(b.def).toBeLessThan(10 * b.log);
    // Doubling the run at most doubles the definition, and a bit (the rule and header are fixed).
    expect(bytes[2].def / bytes[1].def).toBeLessThan(2.05);
    expect(bytes[1].def / bytes[0].def).toBeLessThan(2.05);
  });

  it('keeps a Who&When transcript once, not once per turn', () => {
    const history = Array.from({ length: 200 }, (_, i) => ({ role: 'assistant', name: `Agent${i % 4}`, content: `Turn ${i}: agent ${i % 4} says the value is ${i}.` }));
    const text = (n: number) => JSON.stringify({ question: 'What is the value?', ground_truth: '12', history: history.slice(0, n) });
    const size = (n: number) => buildReplay(readWhoWhen(text(n), 'x/1.json').runs, { players: 'steps', fixes: [], outcome: null, origin: 'test' }).source.length;
    expect(size(200) / size(100)).toBeLessThan(2.1);
  });
});

describe('the rounds of a replay', () => {
  it('asks for every request a step can know at once: twenty repaired turns in two rounds', () => {
    const def = replayOf(40);
    // Each context carries the calls the turns before it made (and waits for them when they are redone):
    // with those quotes taken out, no context depends on another's answer.
    const plan = def.runs[0];
    const independent = { ...plan, messages: plan.messages.map(({ quotes: _, ...m }) => m) };
    const source = definitionSource({ ...def.parts, runs: [independent] });
    const answers = new Map<string, ModelAnswer>();
    const asked: number[] = [];
    for (let round = 0; round < 50; round++) {
      const r = analyzeSourceCaseRound(source, { id: def.cases[0].id, inputs: { recording: independent } }, SETTINGS, answers, {}, 'replay.js');
      if (r.kind === 'result') {
        expect(r.result.error).toBeUndefined();
        break;
      }
      asked.push(r.requests.length);
      for (const p of r.requests) answers.set(p.key, says('Let me check that again.'));
    }
    // Every model turn is repaired, and no context quotes another's answer: one round of twenty requests.
    expect(asked).toEqual([20]);
    // As recorded, each context carries the call before it: a chain, one request a round.
    expect(turnLinks(plan).filter((_, i) => plan.turns[i].kind === 'model').every((l, k) => k === 0 || l.dependsOn.length > 0)).toBe(true);
  });

  it('waits where a context quotes a turn not answered yet: a Who&When chain asks one request a round', () => {
    const history = Array.from({ length: 6 }, (_, i) => ({ role: 'assistant', name: 'Solo', content: `Turn ${i}: the value is ${i}.` }));
    const def = buildReplay(readWhoWhen(JSON.stringify({ question: 'What is the value?', ground_truth: '12', history }), 'x/1.json').runs, { players: 'agents', fixes: [], outcome: null, origin: 'test' });
    const answers = new Map<string, ModelAnswer>();
    const asked: number[] = [];
    for (let round = 0; round < 50; round++) {
      const r = analyzeSourceCaseRound(def.source, def.cases[0], SETTINGS, answers, {}, 'replay.js');
      if (r.kind === 'result') break;
      asked.push(r.requests.length);
      for (const p of r.requests) answers.set(p.key, says(`answer ${answers.size}`));
    }
    // One agent, every turn repaired, and each turn's transcript holds the one before: its request is known only once that one is answered.
    expect(asked).toEqual([1, 1, 1, 1, 1, 1]);
  });
});

describe('recordings stored before contexts were kept by reference', () => {
  it('are still read: their listed dependsOn, their contexts as messages', () => {
    const old = {
      task: 'What is 6 times 7?',
      transcript: [],
      turns: [
        { index: 0, kind: 'model', player: 0, agent: 'A', output: 'Plan: multiply six by seven.', context: [{ role: 'user', content: 'What is 6 times 7?' }], dependsOn: [], substitutions: [] },
        { index: 1, kind: 'model', player: 1, agent: 'B', output: '42', context: [{ role: 'user', content: 'What is 6 times 7?' }, { role: 'assistant', content: 'Plan: multiply six by seven.' }], dependsOn: [0], substitutions: [{ message: 1, start: 0, end: 28, from: 0 }] },
      ],
    };
    expect(recordingLinks(old)).toEqual([{ dependsOn: [], substitutions: 0 }, { dependsOn: [0], substitutions: 1 }]);
    const run = pairRunOf(old)!;
    expect(recordedContext(run.turns[1], run).map((m) => m.content)).toEqual(['What is 6 times 7?', 'Plan: multiply six by seven.']);
  });

  it('a new recording names only what is in it', () => {
    const plan = replayOf(10).runs[0];
    expect(recordingLinks(plan)).toEqual(turnLinks(plan));
    expect(recordingLinks({ ...plan, turns: plan.turns.map((t) => (t.context ? { ...t, context: { from: t.index, add: [] } } : t)) })).toBeNull();
    expect(pairRunOf({ ...plan, turns: plan.turns.map((t) => (t.context ? { ...t, context: { from: -1, add: [plan.messages.length] } } : t)) })).toBeNull();
  });
});

/** Rounds of a replay case with every request answered at once: the requests it sent, and its result. */
function replayUnderBudget(source: string, c: Parameters<typeof analyzeSourceCaseRound>[1], budget: number) {
  const answers = new Map<string, ModelAnswer>();
  let requests = 0;
  for (let round = 0; round < 1000; round++) {
    const r = analyzeSourceCaseRound(source, c, { ...SETTINGS, method: 'mc', estimator: 'permutation', stop: 'budget', budget, maxPermutations: 50 }, answers, {}, 'replay.js');
    if (r.kind === 'result') return { requests, result: r.result };
    requests += r.requests.length;
    for (const p of r.requests) answers.set(p.key, says(`answer ${answers.size}`));
  }
  throw new Error('too many rounds');
}

const SAMPLES = sharedSamplesDir();

describe('a replay under --stop budget', () => {
  it.skipIf(SAMPLES === null)(`Who&When hand/38 (51 turns) under --budget 6 sends v(all fixes)'s requests and nothing else (it sent 2 699) ${SAMPLES === null ? NO_SAMPLES : ''}`, () => {
    const file = join(SAMPLES!, 'whowhen/hand/38.json');
    const def = buildReplay(readWhoWhen(readFileSync(file, 'utf8'), 'hand/38.json').runs, { players: 'steps', fixes: [], outcome: null, origin: 'test' });
    const players = def.steps.length;
    expect(players).toBeGreaterThan(40);
    const { requests, result } = replayUnderBudget(def.source, def.cases[0], 6);
    // v(no fix) replays the recording (no request) and spends the budget; v(all fixes) is the one
    // coalition past it: at most a request per turn.
    expect(requests).toBeGreaterThan(0);
    expect(requests).toBeLessThanOrEqual(players);
    expect(result.notComputed).toEqual(['fixAlone', 'leaveOneOut']);
    expect(result.permutations).toBe(0);
  });

  it('sends no request past the budget but one coalition\'s, and leaves out the baselines it stops', () => {
    const history = Array.from({ length: 6 }, (_, i) => ({ role: 'assistant', name: `Agent${i}`, content: `Turn ${i}: the value is ${i}.` }));
    const def = buildReplay(readWhoWhen(JSON.stringify({ question: 'What is the value?', ground_truth: '12', history }), 'x/1.json').runs, { players: 'steps', fixes: [], outcome: null, origin: 'test' });
    expect(def.steps).toHaveLength(6);
    const sent = (budget: number) => replayUnderBudget(def.source, def.cases[0], budget);
    // v(no fix) replays the recording (cost 6: six steps of cost 1, no request); a coalition sends
    // at most one request a turn, each a step execution of cost 1.
    const spent = sent(1);
    expect([spent.result.stopReason, spent.result.permutations]).toEqual(['budget', 0]);
    // Only v(all fixes), the one coalition past the budget: one request per repaired turn.
    expect(spent.requests).toBe(6);
    expect(spent.result.notComputed).toEqual(['fixAlone', 'leaveOneOut']);
    for (const budget of [8, 12, 20, 30]) {
      const r = sent(budget);
      expect(r.requests, `budget ${budget}`).toBeLessThanOrEqual(budget - 6 + 6);
      expect(r.result.cost, `budget ${budget}`).toBeLessThanOrEqual(budget + 6);
    }
    expect(sent(Infinity).requests).toBeGreaterThan(30);
  });
});
