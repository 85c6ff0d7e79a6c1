/**
 * The replay rule is written once (rule.ts): the text definitions run is generated from it, and
 * running a generated definition's steps in the sandbox gives, coalition by coalition, the same
 * turns, requests and outcome as calling rule.ts directly.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayRuleText, RULE_PATH } from '../../scripts/replay-rule-source.ts';
import type { LlmChatArgs, LlmChatResult, LlmChooseArgs, Noise } from '../engine/types.ts';
import type { RecordedRun } from '../runs/index.ts';
import { readWhoWhen } from '../formats/importers/whowhen.ts';
import { readLangfuse } from '../formats/importers/langfuse.ts';
import { parseInputFile } from '../formats/detect.ts';
import { compileChecked } from '../sandbox/analyze-source.ts';
import { sharedSamplesDir } from '../formats/test-helpers.ts';
import { buildReplay, type ReplayOptions } from './index.ts';
import { REPLAY_RUNTIME } from './rule-source.ts';
import { outcome, replaySegment, type RuleSettings } from './rule.ts';
import { langfuseExport, langfuseWithToolCalls, WHOWHEN_LOG } from './testing/runs.ts';

describe('the replay rule, written once', () => {
  it('is the text of rule.ts that definitions run (npm run gen:replay-rule writes it)', () => {
    expect(REPLAY_RUNTIME, 'src/replay/rule-source.ts is stale: run npm run gen:replay-rule').toBe(replayRuleText(readFileSync(RULE_PATH, 'utf8')));
  });

  it('refuses a rule the sandbox would refuse, or one that imports a value', () => {
    expect(() => replayRuleText('export function f(s: string) { return s.replace("<!--", ""); }')).toThrow(/HTML comment marker/);
    expect(() => replayRuleText("import { x } from './x.ts';\nexport function f() { return x; }")).toThrow(/import types only/);
  });
});

/** A deterministic stand-in model: answers name a hash of the request, some with a tool call. */
function fakeLlm(log: unknown[]) {
  const hash = (text: string) => {
    let h = 2166136261;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
    return h;
  };
  return {
    chat(args: LlmChatArgs): LlmChatResult {
      // In the order the sandbox's facade copies them, so both sides hash the same text.
      const request = JSON.stringify({ messages: args.messages, model: args.model, temperature: args.temperature, key: args.key, tools: args.tools });
      log.push(request);
      const h = hash(request);
      const text = h % 3 === 0 ? `print(6 * 7)  # ${h % 97}` : `The final answer is ${h % 5 === 0 ? 42 : h % 50}. FINAL ANSWER: ${h % 5 === 0 ? 42 : h % 50}`;
      return { text, finish: 'stop', usage: { input: 1, output: 1 }, ...(h % 4 === 1 && { toolCalls: [{ name: 'python', arguments: `{"code":"print(${h % 9})"}` }] }) };
    },
    choose(args: LlmChooseArgs): string {
      const request = JSON.stringify({ messages: args.messages, options: args.options, model: args.model, key: args.key });
      log.push(request);
      return hash(request) % 2 === 0 ? 'pass' : 'fail';
    },
  };
}

const NOISE = {} as Noise;
const STUB_SOURCE = `export default {
  Computer_terminal: (code) => 'Code output: ' + String(code).length,
  python: (args) => 'ran ' + JSON.stringify(args),
};`;
const STUBS: RuleSettings['tools'] = {
  Computer_terminal: (code) => 'Code output: ' + String(code).length,
  python: (args) => 'ran ' + JSON.stringify(args),
};

/**
 * Every coalition (up to 2^6 of them) replayed twice: by the definition's own steps in the sandbox,
 * and by rule.ts; the two must give the same step outputs, the same model calls and the same value.
 */
function expectAgreement(run: RecordedRun, options: Partial<ReplayOptions>): number {
  const withTools = options.tools !== undefined;
  const def = buildReplay([run], { players: 'steps', fixes: [], outcome: { kind: 'expect', text: '42' }, origin: 'test', ...options });
  const compiled = compileChecked(def.source, 'replay.js', { cases: false });
  const outcomeConfig = def.parts.outcome.kind === 'metric' ? { kind: 'metric' as const } : def.parts.outcome;
  const rule: RuleSettings = { steps: def.steps, outcome: outcomeConfig, tools: withTools ? STUBS : {}, metric: null };
  const inputs = def.cases[0].inputs;
  const players = Math.min(def.steps.length, 6);
  let sent = 0;
  for (let mask = 0; mask < 1 << players; mask++) {
    const sandboxLog: unknown[] = [];
    const ruleLog: unknown[] = [];
    const sandboxOutputs: Record<string, unknown> = {};
    const ruleOutputs: Record<string, unknown> = {};
    compiled.steps.forEach((step, k) => {
      const fixed = (mask & (1 << k)) !== 0;
      const run = fixed ? step.fixes[0].run : step.run;
      sandboxOutputs[step.name] = run({ ...inputs, ...sandboxOutputs }, NOISE, { llm: fakeLlm(sandboxLog) });
      ruleOutputs[step.name] = JSON.parse(JSON.stringify(replaySegment(rule, k, { ...inputs, ...ruleOutputs }, fakeLlm(ruleLog), fixed)));
    });
    expect(sandboxOutputs, `coalition ${mask}`).toEqual(ruleOutputs);
    expect(sandboxLog, `coalition ${mask}`).toEqual(ruleLog);
    expect(compiled.metric(sandboxOutputs, inputs)).toBe(outcome(rule, ruleOutputs, def.runs[0]));
    sent += ruleLog.length;
  }
  return sent;
}

describe('a generated definition and rule.ts agree, coalition by coalition', () => {
  const whowhen = () => readWhoWhen(JSON.stringify(WHOWHEN_LOG), 'algorithm/7.json').runs[0];
  const tools = { file: { fileName: 'tools.js', source: STUB_SOURCE }, names: new Set(['Computer_terminal', 'python']) };

  it('on a Who&When run (a transcript), with tool stubs and a judge', () => {
    expect(expectAgreement(whowhen(), { tools })).toBeGreaterThan(0);
    expect(expectAgreement(whowhen(), { outcome: { kind: 'judge', rubric: 'the answer is 42' } })).toBeGreaterThan(0);
  });

  it('on a Who&When run with every kind of fix', () => {
    const fixes = [
      { turn: '1', fix: 'context:system+=Be careful.' },
      { turn: '1', fix: 'context:drop=1' },
      { turn: '2', fix: 'resample' },
      { turn: '4', fix: 'policy:strong@0.5' },
      { turn: '4', fix: 'context:replace=0:You report.' },
      { turn: '3', fix: 'observation:Code output: 42' },
    ];
    expect(expectAgreement(whowhen(), { fixes, tools })).toBeGreaterThan(0);
  });

  it('on Langfuse runs (recorded requests, quoted outputs, tool calls)', () => {
    expect(expectAgreement(readLangfuse(JSON.stringify(langfuseExport())).runs[0], {})).toBeGreaterThan(0);
    expect(expectAgreement(readLangfuse(JSON.stringify(langfuseWithToolCalls())).runs[0], { tools })).toBeGreaterThan(0);
    expect(expectAgreement(readLangfuse(JSON.stringify(langfuseWithToolCalls())).runs[0], { players: 'agents' })).toBeGreaterThan(0);
  });

  const shared = sharedSamplesDir();
  it.skipIf(shared === null)('on real runs of the shared samples (runtape, Who&When)', () => {
    const files = ['runtape/runtape_bench_llama-3.1-8b_refund-000.jsonl', 'whowhen/algorithm/1.json', 'whowhen/hand/1.json'];
    let compared = 0;
    for (const name of files) {
      const input = parseInputFile(readFileSync(join(shared!, name), 'utf8'), name);
      if (input.kind !== 'runs') throw new Error(`${name}: not runs`);
      for (const players of ['steps', 'agents'] as const) {
        expectAgreement(input.runs.runs[0], { players, tools });
        compared++;
      }
    }
    expect(compared).toBe(6);
  });
});

describe('a tool call the replayed model no longer makes', () => {
  it('is absent, not reused: no result, and the later turn that quoted its result sees none', () => {
    const def = buildReplay([readLangfuse(JSON.stringify(langfuseWithToolCalls())).runs[0]], { players: 'agents', fixes: [], outcome: { kind: 'expect', text: '42' }, origin: 'test' });
    const run = def.runs[0];
    const tool = run.turns.find((t) => t.kind === 'tool')!;
    const rule: RuleSettings = { steps: def.steps, outcome: { kind: 'expect', text: '42' }, tools: STUBS, metric: null };
    const sent: string[] = [];
    // Every model answers in text: the calculator makes no tool call this time.
    const llm = { chat: (args: LlmChatArgs): LlmChatResult => (sent.push(args.messages.map((m) => m.content).join('|')), { text: 'The answer is 42.', finish: 'stop', usage: { input: 1, output: 1 } }), choose: () => 'pass' };
    const outputs: Record<string, unknown> = {};
    def.steps.forEach((name, k) => (outputs[name] = replaySegment(rule, k, { ...def.cases[0].inputs, ...outputs }, llm, true)));
    const replayed = Object.assign({}, ...Object.values(outputs).map((o) => (o as { turns: object }).turns));
    expect(replayed[tool.index]).toEqual({ text: '', changed: true, via: 'absent' });
    // The reporter's recorded context held the tool's result ("Code output: 48"); its request holds none.
    expect(tool.output).toContain('Code output: 48');
    expect(sent.at(-1)).not.toContain('Code output: 48');
  });
});
