/**
 * `--replay` through the command against the loopback endpoint, answered by a scripted model that
 * knows the planted culprit (src/replay/testing/runs.ts): ranked first in two formats, each
 * distinct request sent once, a cached rerun sends none, the emitted definition analyses to the
 * same values, a shard and a merge equal the whole, and bad input is refused with exit 2.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestKey } from '../engine/model-call.ts';
import { startFakeEndpoint, type FakeEndpoint } from '../model/testing/fake-endpoint.ts';
import { langfuseExport, scriptedModel, WHOWHEN_LOG } from '../replay/testing/runs.ts';
import { runBlame } from './testing/run-blame.ts';

const DIR = mkdtempSync(join(tmpdir(), 'blame-replay-'));
const at = (name: string) => join(DIR, name);

const blame = (args: string[]) => runBlame(args);

const STUB = `export default {
  Computer_terminal: (code) => { const m = /print\\((\\d+) \\* (\\d+)\\)/.exec(code); return 'exitcode: 0 (execution succeeded)\\nCode output: ' + (m ? m[1] * m[2] : '?'); },
  python: (code) => { const m = /print\\((\\d+) \\* (\\d+)\\)/.exec(code); return 'exitcode: 0 (execution succeeded)\\nCode output: ' + (m ? m[1] * m[2] : '?'); },
};`;

let e: FakeEndpoint;
beforeAll(async () => {
  e = await startFakeEndpoint({ answer: scriptedModel });
  mkdirSync(at('algorithm'));
  writeFileSync(at('algorithm/7.json'), JSON.stringify(WHOWHEN_LOG));
  // A second run of the same task whose planner is the culprit (it asks for 6 times 8).
  const planner = { ...WHOWHEN_LOG, history: WHOWHEN_LOG.history.map((h, i) => (i === 1 ? { ...h, content: 'Plan: the Calculator multiplies 6 by 8, then the Reporter answers.' } : h)), mistake_agent: 'Planner', mistake_step: '1' };
  writeFileSync(at('algorithm/8.json'), JSON.stringify(planner));
  writeFileSync(at('langfuse.json'), JSON.stringify(langfuseExport()));
  writeFileSync(at('tools.js'), STUB);
});
afterAll(async () => {
  await e.close();
});

const model = () => ['--model-url', e.url, '--model', 'fake-model'];
const distinct = () => new Set(e.requests.map((r) => requestKey(r))).size;

describe('blame --replay', () => {
  it('ranks the planted culprit of a Who&When log first, each distinct request once; a cached rerun sends none', async () => {
    const cache = at('whowhen.jsonl');
    const before = e.requests.length;
    const r = await blame([at('algorithm/7.json'), '--replay', '--tools', at('tools.js'), ...model(), '--cache', cache, '--json', '--emit-definition', at('replay.js')]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    const [c] = out.cases;
    expect(c.id).toBe('algorithm/7');
    expect(c.vEmpty).toBe(0);
    const ranked = Object.entries(c.shapley as Record<string, number>).sort((a, b) => b[1] - a[1]);
    expect(ranked[0]).toEqual(['2 Calculator', 1]);
    expect(c.replay.pick).toEqual({ agent: 'Calculator', step: 2 });
    expect(c.replay.turns[3]).toMatchObject({ index: 3, step: 4, agent: 'Reporter', kind: 'model', dependsOn: [0, 1, 2], substitutions: 3 });
    // Every request told to the turn that sent it: each by its seed.
    const perTurn = c.replay.turns.map((t: { requests: number }) => t.requests);
    expect(perTurn.reduce((x: number, y: number) => x + y, 0)).toBe(c.usage.requests);
    const expectedPerTurn = [0, 1, 2, 3].map((i) => e.requests.slice(before).filter((q) => q.messages[0].content.includes(`You are ${['Planner', 'Calculator', '', 'Reporter'][i]},`) && i !== 2).length);
    expect(perTurn).toEqual(expectedPerTurn);
    expect(c.replay.toolsReused).toBe(0);
    expect(c.usage.toolsReused).toBe(0);
    const sent = e.requests.length - before;
    expect(sent).toBeGreaterThan(0);
    expect(distinct()).toBe(e.requests.length);
    expect(out.batch.usage.requests).toBe(sent);

    const again = await blame([at('algorithm/7.json'), '--replay', '--tools', at('tools.js'), ...model(), '--cache', cache, '--json']);
    expect(e.requests.length - before).toBe(sent);
    const second = JSON.parse(again.stdout);
    expect(second.cases[0].shapley).toEqual(c.shapley);
    expect(second.batch.usage.requests).toBe(0);

    // The emitted definition is an ordinary one: analysed as such, the same values.
    const plain = await blame([at('replay.js'), '--model', 'fake-model', '--cache', cache, '--offline', '--json']);
    expect(plain.stderr).toBe('');
    const p = JSON.parse(plain.stdout).cases[0];
    expect([p.vEmpty, p.vAll, p.shapley, p.fixAlone]).toEqual([c.vEmpty, c.vAll, c.shapley, c.fixAlone]);
  });

  it('ranks the culprit of a Langfuse run (recorded requests) first, with --expect', async () => {
    const r = await blame([at('langfuse.json'), '--replay', '--expect', '42', '--tools', at('tools.js'), ...model(), '--json']);
    expect(r.stderr).toBe('');
    const [c] = JSON.parse(r.stdout).cases;
    const ranked = Object.entries(c.shapley as Record<string, number>).sort((a, b) => b[1] - a[1]);
    expect(ranked[0][0]).toMatch(/Calculator/);
    expect(c.replay.turns.map((t: { dependsOn: number[] }) => t.dependsOn)).toEqual([[], [0], [1], [0, 1, 2]]);
  });

  it('--judge decides success with a pass/fail choice of the model, and --players agents names the agent', async () => {
    const r = await blame([at('langfuse.json'), '--replay', '--judge', 'The answer must be 6 times 7.', '--players', 'agents', '--tools', at('tools.js'), ...model(), '--json']);
    expect(r.stderr).toBe('');
    const [c] = JSON.parse(r.stdout).cases;
    expect(c.vEmpty).toBe(0);
    expect(c.shapley).toEqual({ Planner: 0, Calculator: 1, python: 0, Reporter: 0 });
    expect(c.replay.pick).toEqual({ agent: 'Calculator' });
    // An agent-level replay names no step: its step accuracy is not printed as 0 %.
    const scored = await blame([at('algorithm/7.json'), '--replay', '--players', 'agents', '--tools', at('tools.js'), ...model(), '--score']);
    const row = scored.stdout.split('\n').find((l) => l.startsWith('replay (agents)'));
    expect(row).toMatch(/agent 100\.0%/);
    expect(row).toMatch(/step\s+-\s*$/);
  });

  it('a folder is one case per run; shards merge into the whole; --score puts the replay beside the heuristics', async () => {
    const common = [at('algorithm'), '--replay', '--tools', at('tools.js'), ...model(), '--cache', at('folder.jsonl'), '--json'];
    const before = e.requests.length;
    const whole = await blame([...common, '--save', at('whole.session.json'), '--score']);
    expect(whole.stderr).toBe('');
    // Two runs on two workers: still each distinct request once.
    const sent = e.requests.slice(before);
    expect(new Set(sent.map((r) => requestKey(r))).size).toBe(sent.length);
    const out = JSON.parse(whole.stdout);
    expect(out.cases.map((c: { id: string }) => c.id)).toEqual(['algorithm/7', 'algorithm/8']);
    expect(out.cases.map((c: { replay: { pick: unknown } }) => c.replay.pick)).toEqual([{ agent: 'Calculator', step: 2 }, { agent: 'Planner', step: 1 }]);
    expect(out.replayScore.replay.all).toMatchObject({ runs: 2, agent: { correct: 2 }, step: { correct: 2 } });
    expect(out.replayScore.heuristics.map((h: { name: string }) => h.name)).toEqual(['last-step', 'first-error', 'last-touch']);
    for (const i of [1, 2]) {
      const shard = await blame([...common, '--shard', `${i}/2`, '--save', at(`shard-${i}.json`)]);
      expect(shard.status).toBe(0);
    }
    const merged = await blame([at('shard-2.json'), at('shard-1.json'), '--json']);
    expect(merged.stderr).toBe('');
    const m = JSON.parse(merged.stdout);
    // The shards answered from the cache the whole run filled: only the request counts differ.
    const strip = (c: Record<string, unknown>) => ({ ...c, replay: undefined, usage: undefined });
    expect(m.cases.map(strip)).toEqual(out.cases.map(strip));
    expect({ ...m.batch, usage: undefined }).toEqual({ ...out.batch, usage: undefined });
  });

  it('--contrast adds the single-step contrast and the point of commitment to the replay block and the tables', async () => {
    const args = [at('algorithm/7.json'), '--replay', '--tools', at('tools.js'), ...model(), '--cache', at('contrast.jsonl'), '--contrast', '3'];
    const r = await blame([...args, '--json']);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    const block = out.cases[0].replay;
    expect(block.contrast.map((row: { agent: string; regenerated: { failures: number; n: number }; kept: { failures: number; n: number } }) => [row.agent, row.regenerated.failures, row.regenerated.n, row.kept.failures, row.kept.n])).toEqual([
      ['Planner', 0, 3, 0, 3],
      ['Calculator', 0, 3, 3, 3],
      ['Reporter', 3, 3, 3, 3],
    ]);
    // 3 of 3 gives a Wilson lower bound of 0.44: too few replays to commit.
    expect(block.commitment).toBeNull();
    expect(out.contrastUsage.requests).toBeGreaterThan(0);
    const text = await blame(args);
    // The model: line counts the contrast's requests beside the analysis's (this time all from the cache).
    const contrastLine = /^model: .*; contrast: (\d+) requests? sent, (\d+) from the cache/m.exec(text.stdout);
    expect(contrastLine && Number(contrastLine[1]) + Number(contrastLine[2])).toBe(out.contrastUsage.requests + out.contrastUsage.cacheHits);
    expect(text.stdout).toMatch(/Single-step contrast of "algorithm\/7"/);
    expect(text.stdout).toMatch(/point of commitment: none \(fewer than 35 replays per arm can never show one/);
  });

  it('--contrast with --save and --html: the session keeps the contrast and prints it again, the report shows it', async () => {
    const saved = at('contrast.session.json');
    const report = at('contrast.report.html');
    const args = [at('algorithm/7.json'), '--replay', '--tools', at('tools.js'), ...model(), '--cache', at('contrast-saved.jsonl'), '--contrast', '3'];
    const first = await blame([...args, '--save', saved, '--html', report]);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    const table = (text: string) => text.slice(text.indexOf('Single-step contrast of'));
    expect(table(first.stdout)).toMatch(/^Single-step contrast of "algorithm\/7" \(3 replays per arm/);
    const stored = JSON.parse(readFileSync(saved, 'utf8'));
    expect(stored.contrast).toMatchObject({ version: 1, replays: 3, runs: [{ run: 'algorithm/7', commitment: null, errors: 0 }] });
    // Reopened (nothing re-run, no model): the same contrast, in the tables and in --json.
    const again = await blame([saved]);
    expect(again.stderr).toBe('');
    expect(table(again.stdout)).toBe(table(first.stdout));
    const json = JSON.parse((await blame([saved, '--json'])).stdout);
    const live = JSON.parse((await blame([...args, '--json'])).stdout);
    expect(json.cases[0].replay).toEqual({ commitment: live.cases[0].replay.commitment, contrast: live.cases[0].replay.contrast });
    const html = readFileSync(report, 'utf8');
    expect(html).toContain('id="contrast"');
    expect(html).toContain('No point of commitment');
    const section = html.slice(html.indexOf('id="contrast"'), html.indexOf('</section>', html.indexOf('id="contrast"')));
    expect(section.match(/<circle /g)).toHaveLength(2 * stored.contrast.runs[0].contrast.length + 2);
    // The report reopens with its contrast too.
    expect(table((await blame([report])).stdout)).toBe(table(first.stdout));
  });

  it('without a stub, a tool call that changed reuses the recorded result, counted and flagged', async () => {
    const args = [at('algorithm/7.json'), '--replay', ...model(), '--cache', at('nostub.jsonl')];
    const [c] = JSON.parse((await blame([...args, '--json'])).stdout).cases;
    expect([c.replay.toolsReused, c.replay.reusedTurns, c.usage.toolsReused]).toEqual([1, [2], 1]);
    // The calculator's new code never runs: the terminal's old output keeps the failure.
    expect(c.vAll).toBe(0);
    expect((await blame(args)).stdout).toMatch(/flagged: tool turn 2 reused the recorded result for a changed call \(give a stub with --tools\)/);
  });

  it('with a --tools file that has no stub for the changed call, says so by name (not "give a stub")', async () => {
    writeFileSync(at('other-tools.js'), 'export default { weather: (args) => "sunny" };\n');
    const args = [at('algorithm/7.json'), '--replay', ...model(), '--cache', at('nostub.jsonl'), '--tools', at('other-tools.js')];
    const out = (await blame(args)).stdout;
    expect(out).toMatch(/flagged: tool turn 2 reused the recorded result for a changed call \(.*other-tools\.js has no stub for Computer_terminal\)/);
    expect(out).not.toMatch(/give a stub/);
  });

  it('--pairs writes a replayed turn as a preference record: its recorded request as prompt, recorded answer rejected, repaired answer chosen', async () => {
    const r = await blame([at('langfuse.json'), '--replay', '--expect', '42', '--tools', at('tools.js'), ...model(), '--pairs', at('pairs.jsonl'), '--json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = readFileSync(at('pairs.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    const [pair] = lines;
    expect(pair).toMatchObject({ case: 't1', rejected: 'print(6 * 8)  # 6 times 7', chosen: 'print(6 * 7)  # 6 times 7', fix: 'repair', before: 0, after: 1 });
    expect(pair.step).toMatch(/Calculator/);
    // The Calculator's recorded request, as a preference data set reads it.
    expect(pair.prompt).toEqual([{ role: 'system', content: 'You are the Calculator.' }, { role: 'user', content: 'What is 6 times 7?' }, { role: 'assistant', content: 'Plan: the Calculator multiplies 6 by 7, then the Reporter answers.' }]);
  });

  it('names no culprit when no fix changes the outcome, and --score counts the run as missing, not as a hit', async () => {
    // Nothing the model can write contains "zebra": every coalition fails, every Shapley value is 0.
    const r = await blame([at('algorithm/7.json'), '--replay', '--expect', 'zebra', '--tools', at('tools.js'), ...model(), '--score', '--json']);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    const c = out.cases[0];
    expect([c.vEmpty, c.vAll]).toEqual([0, 0]);
    expect(Object.values(c.shapley).every((v) => v === 0)).toBe(true);
    expect(c.replay.pick).toBeUndefined();
    expect(out.replayScore.replay.all).toMatchObject({ runs: 1, missing: 1, agent: { correct: 0 } });
    const text = await blame([at('algorithm/7.json'), '--replay', '--expect', 'zebra', '--tools', at('tools.js'), ...model()]);
    expect(text.stdout).toMatch(/ranked first: none \(no player has positive credit\)/);
  });

  it('--budget bounds the whole replay: past it one coalition\'s requests at most, the baselines it stopped named, what was spent said', async () => {
    // Eight turns (six model turns), each its own player: v(no fix) replays the recording (cost 8,
    // no request), so a budget of 1 is spent before anything else; v(all fixes) is the one
    // coalition past it, and nothing after it (the sampling, fix-alone, leave-one-out) runs.
    const history = [...WHOWHEN_LOG.history, ...WHOWHEN_LOG.history.slice(1)];
    const log = at('budget.json');
    writeFileSync(log, JSON.stringify({ ...WHOWHEN_LOG, history }));
    const cache = at('budget.jsonl');
    const args = [log, '--replay', '--players', 'steps', '--tools', at('tools.js'), ...model(), '--cache', cache, '--method', 'mc', '--stop', 'budget', '--budget', '1'];
    const before = e.requests.length;
    const r = await blame([...args, '--json']);
    expect(r.stderr).toBe('');
    const [c] = JSON.parse(r.stdout).cases;
    const modelTurns = c.replay.turns.filter((t: { kind: string }) => t.kind === 'model').length;
    expect(modelTurns).toBe(6);
    const sent = e.requests.length - before;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThanOrEqual(modelTurns);
    expect([c.permutations, c.evaluations, c.fixAlone, c.leaveOneOut, c.notComputed]).toEqual([0, 2, null, null, ['fixAlone', 'leaveOneOut']]);
    // The text says what was spent against the budget and what the budget left out (from the cache: nothing sent).
    const text = await blame(args);
    expect(e.requests.length - before).toBe(sent);
    expect(text.stdout).toContain(`cost ${c.cost} of budget 1`);
    expect(text.stdout).toContain('not computed within the budget: fix-alone, leave-one-out');
  });

  it('refuses bad input with exit 2 and one line', async () => {
    const refused = async (args: string[], pattern: RegExp) => {
      const r = await blame(args);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')[0]).toMatch(pattern);
    };
    await refused([at('langfuse.json')], /holds recorded runs \(langfuse\): blame them with --replay/);
    await refused([at('langfuse.json'), '--replay', '--offline'], /--expect TEXT\|\/REGEX\/, --judge RUBRIC or --metric FILE\.js/);
    await refused([at('algorithm/7.json'), '--replay', '--fix', '12=repair', '--offline'], /no turn at step 12/);
    await refused([at('algorithm/7.json'), '--replay', '--fix', '2=teleport', '--offline'], /unknown fix "teleport"/);
    await refused([at('algorithm/7.json'), '--replay', '--players', 'teams'], /--players: expected one of steps, turns, agents/);
    await refused([at('algorithm/7.json'), '--replay', '--expect', '42', '--judge', 'x'], /give one way to decide success/);
    await refused([at('algorithm/7.json'), '--replay', '--run', 'nope', '--offline'], /--run nope: no such run/);
    await refused([at('algorithm/7.json'), '--replay', '--tools', at('langfuse.json'), '--offline'], /--tools/);
    writeFileSync(at('no-default.js'), 'const score = (run) => 1;');
    await refused([at('algorithm/7.json'), '--replay', '--metric', at('no-default.js'), '--offline'], /--metric "no-default\.js": expected one "export default"/);
    await refused([at('algorithm/7.json'), '--replay', '--metric', at('missing.js'), '--offline'], /cannot read the --metric file/);
    await refused([at('algorithm/7.json'), '--replay', '--contrast', '0'], /--contrast: expected a whole number/);
    await refused([at('langfuse.json'), '--replay', '--expect', '42', '--pipeline', at('tools.js')], /--pipeline does not apply to --replay/);
    await refused([at('langfuse.json'), '--expect', '42', '--offline'], /^blame: --expect needs --replay/);
    await refused([at('langfuse.json'), '--contrast=5'], /^blame: --contrast needs --replay/);
    writeFileSync(at('five.js'), 'export default 5;');
    await refused([at('algorithm/7.json'), '--replay', '--metric', at('five.js'), '--offline'], /--metric "five\.js": the default export must be a function/);
    await refused([at('algorithm/7.json'), '--replay', '--fix', '2=policy:big', '--offline'], /--fix 2=policy:big: no model alias "big" \(map it with --model big=ID\)/);
    // Flags of another command are refused, not dropped in silence.
    await refused([at('langfuse.json'), '--replay', '--expect', '42', '--why', 'last', '--dry'], /--replay and --why/);
    await refused([at('langfuse.json'), '--replay', '--expect', '42', '--inspect'], /--replay and --inspect/);
  });
});
