import { describe, expect, it } from 'vitest';
import { readWhoWhen } from '../../formats/importers/whowhen.ts';
import { WHOWHEN_LOG } from '../../replay/testing/runs.ts';
import { parseOutcome } from './parse-outcome.ts';
import { fixLines, ReplaySetup } from './replay-setup.svelte.ts';

const run = () => readWhoWhen(JSON.stringify(WHOWHEN_LOG), 'algorithm/7.json').runs[0];
const withoutAnswer = () => readWhoWhen(JSON.stringify({ ...WHOWHEN_LOG, ground_truth: undefined }), 'algorithm/8.json').runs[0];

describe('the replay setup', () => {
  it('starts from the defaults: every model turn repaired, the recorded correct answer as the outcome', () => {
    const setup = new ReplaySetup(run(), 'algorithm/7.json');
    expect(setup.result.ok).toBe(true);
    const plan = setup.preview!;
    // Planner, Calculator and Reporter are model turns (each a player with repair); the terminal is a tool turn, no player.
    expect(plan.turns.map((t) => [t.step, t.kind, t.fixes.map((f) => f.kind)])).toEqual([
      [1, 'model', ['repair']],
      [2, 'model', ['repair']],
      [3, 'tool', []],
      [4, 'model', ['repair']],
    ]);
    expect(plan.players).toEqual(['1 Planner', '2 Calculator', '4 Reporter']);
    if (setup.result.ok) expect(setup.result.definition.source).toContain('"expect"');
  });

  it('takes several fixes a turn, one a line, and names the step of a fix it cannot read', () => {
    const setup = new ReplaySetup(run(), 'algorithm/7.json');
    setup.setFix(2, 'action:print(6 * 7)\n\n  context:system+=Check the factors. ');
    expect(setup.fixSpecs).toEqual([
      { turn: '2', fix: 'action:print(6 * 7)' },
      { turn: '2', fix: 'context:system+=Check the factors.' },
    ]);
    expect(setup.preview!.turns.find((t) => t.step === 2)!.fixes.map((f) => f.kind)).toEqual(['action', 'context']);
    setup.setFix(4, 'polcy:big');
    expect(setup.result).toEqual({ ok: false, problem: expect.stringMatching(/^Fix of step 4: "polcy:big": unknown fix "polcy"/) });
    // The turns still show, with the fixes that could be read.
    expect(setup.preview!.turns.find((t) => t.step === 2)!.fixes.map((f) => f.kind)).toEqual(['action', 'context']);
    setup.setFix(4, '');
    expect(setup.result.ok).toBe(true);
  });

  it('refuses a policy fix whose model alias is not mapped, before Blame, naming the field that maps it', () => {
    const setup = new ReplaySetup(run(), 'algorithm/7.json');
    setup.setFix(2, 'policy:judge@0.7');
    expect(setup.result).toEqual({ ok: false, problem: 'Fix of step 2: "policy:judge@0.7": no model is given for the alias "judge": map it in the Model panel\'s Other aliases (judge=MODEL_ID)' });
    setup.models = { judge: 'llama3.1:8b' };
    expect(setup.result.ok).toBe(true);
    setup.models = undefined;
    setup.setFix(2, 'policy:default@1.2');
    expect(setup.result.ok).toBe(true);
  });

  it('refuses a fix of the wrong kind for its turn, in the page\'s words', () => {
    const setup = new ReplaySetup(run(), 'algorithm/7.json');
    setup.setFix(1, 'observation:nothing');
    expect(setup.result).toEqual({ ok: false, problem: expect.stringMatching(/^Fix 1=observation:nothing: .*is a model turn/) });
    expect(setup.preview!.turns).toHaveLength(4);
  });

  it('makes a tool turn a player only with a fix of its own', () => {
    const setup = new ReplaySetup(run(), 'algorithm/7.json');
    setup.setFix(3, 'observation:Code output: 42');
    expect(setup.preview!.players).toEqual(['1 Planner', '2 Calculator', '3 Computer_terminal', '4 Reporter']);
  });

  it('embeds a tool-stubs file and makes the stubbed tool\'s turns players', () => {
    const setup = new ReplaySetup(run(), 'algorithm/7.json');
    setup.tools = { file: { fileName: 'stubs.js', source: 'export default { Computer_terminal: (code) => "Code output: 42" };' }, names: new Set(['Computer_terminal']) };
    expect(setup.preview!.players).toEqual(['1 Planner', '2 Calculator', '3 Computer_terminal', '4 Reporter']);
    expect(setup.result.ok && setup.result.definition.source).toContain('stubs.js');
  });

  it('warns before Blame: a tool call that can change with no stub, and a recorded run that already meets the outcome', () => {
    const setup = new ReplaySetup(run(), 'algorithm/7.json');
    // The recorded answer is 48, the correct one 42: something to blame; the terminal has no stub.
    expect(setup.warnings).toEqual(['Step 3 calls Computer_terminal: when its call changes, its recorded result will be reused (flagged in the results); give a stub for Computer_terminal in Tool stubs.']);
    setup.tools = { file: { fileName: 'stubs.js', source: 'export default { Computer_terminal: (code) => "Code output: 42" };' }, names: new Set(['Computer_terminal']) };
    expect(setup.warnings).toEqual([]);
    setup.tools = null;
    // An observation fix replaces the result: nothing is reused.
    setup.setFix(3, 'observation:Code output: 42');
    expect(setup.warnings).toEqual([]);
    setup.setFix(3, '');
    setup.tools = { file: { fileName: 'stubs.js', source: 'export default { Computer_terminal: (code) => "Code output: 42" };' }, names: new Set(['Computer_terminal']) };
    setup.outcomeKind = 'expect';
    setup.expect = '48';
    expect(setup.warnings).toEqual([expect.stringMatching(/^The recorded run already meets the outcome: there is nothing to blame, so Blame is off and no requests are sent/)]);
    expect(setup.alreadyMet).toBe(true);
    setup.expect = '/4[89]/';
    expect(setup.warnings).toHaveLength(1);
    setup.expect = '/^42$/';
    expect(setup.warnings).toEqual([]);
    expect(setup.alreadyMet).toBe(false);
  });

  it('groups turns by agent', () => {
    const setup = new ReplaySetup(run(), 'algorithm/7.json');
    setup.players = 'agents';
    expect(setup.preview!.players).toEqual(['Planner', 'Calculator', 'Reporter']);
  });

  it('asks how success is decided when the run records no correct answer, and takes each kind', () => {
    const setup = new ReplaySetup(withoutAnswer(), 'algorithm/8.json');
    expect(setup.result).toEqual({ ok: false, problem: expect.stringMatching(/Say how success is decided/) });
    expect(setup.preview!.players).toHaveLength(3);
    setup.expect = '/\\b42\\b/';
    expect(setup.outcome).toEqual({ ok: true, outcome: { kind: 'expect-regex', source: '\\b42\\b', flags: '' } });
    expect(setup.result.ok).toBe(true);
    setup.outcomeKind = 'judge';
    expect(setup.result).toEqual({ ok: false, problem: expect.stringMatching(/^Judge: write the rubric/) });
    setup.rubric = 'The answer is 42.';
    expect(setup.result.ok && setup.result.definition.source).toContain('The answer is 42.');
    setup.outcomeKind = 'metric';
    expect(setup.result.ok).toBe(false);
    setup.metric = { fileName: 'm.js', source: 'export default (run) => (run.final.includes("42") ? 1 : 0);' };
    expect(setup.result.ok && setup.result.definition.source).toContain('m.js');
    setup.metric = { fileName: 'bad.js', source: 'const x = 1;' };
    expect(setup.result).toEqual({ ok: false, problem: expect.stringMatching(/bad\.js.*export default/) });
  });
});

describe('outcome fields', () => {
  const fields = { kind: 'expect' as const, expect: '', rubric: '', metric: null };
  it('read text, /regex/flags, and say what is wrong with a bad regex', () => {
    expect(parseOutcome({ ...fields, expect: ' 42 ' }, undefined)).toEqual({ ok: true, outcome: { kind: 'expect', text: '42' } });
    expect(parseOutcome({ ...fields, expect: '/fort(y|ty)-two/i' }, undefined)).toEqual({ ok: true, outcome: { kind: 'expect-regex', source: 'fort(y|ty)-two', flags: 'i' } });
    expect(parseOutcome({ ...fields, expect: '/(/' }, undefined)).toEqual({ ok: false, problem: expect.stringMatching(/^Expected answer: \/\(\/ is not a regular expression/) });
    // A blank field is the run's recorded answer when it has one.
    expect(parseOutcome(fields, '42')).toEqual({ ok: true, outcome: null });
  });

  it('reads one intervention a line', () => {
    expect(fixLines(' repair \n\nresample\n')).toEqual(['repair', 'resample']);
  });
});
