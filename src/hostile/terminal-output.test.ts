/**
 * Text from a trace reaches a terminal or a line-based file only escaped (docs/security.md,
 * "Terminal output"): tool, turn and agent names holding an escape code (ESC [2J clears the
 * screen) or a right-to-left override (U+202E) print as `\x1b` / `\u202e`; JSON output and the
 * `--pairs` JSON Lines never hold a raw U+2028, U+2029 or U+0085, which end a line for Python's
 * `splitlines()` and cut a record into invalid pieces.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blameSync } from '../cli/testing/run-blame.ts';
import { langfuseExport } from '../replay/testing/runs.ts';

const DIR = mkdtempSync(join(tmpdir(), 'blame-terminal-'));
/** Raw characters no terminal output may hold (a tab or line feed is fine). */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/** What Python's str.splitlines() ends a line at, besides \n. */
const SPLITLINES = /[\r\u000b\u000c\u001c-\u001e\u0085\u2028\u2029]/;
const HOSTILE = 'send\u001b[2J\u202eliame\u2028x';

const line = (id: number, type: string, payload: unknown, parent: number | null = null) => JSON.stringify({ id, ts: 1790000000 + id / 10, type, parent, payload, meta: {} });

describe('names from a trace print escaped', () => {
  it('--why --dry: a tool name with an escape code and a bidirectional override, in text and in JSON', () => {
    const trace = join(DIR, 'tool.runtape.jsonl');
    writeFileSync(trace, [
      line(0, 'run_start', { run_id: 'r\u001b[31m1', name: 'agent' }),
      line(1, 'llm_request', { provider: 'openai', model: 'm', api: 'chat.completions', messages: [{ role: 'system', content: 'You send mail.' }, { role: 'user', content: `Please ${HOSTILE} the report.` }] }),
      line(2, 'llm_response', { text: null, tool_calls: [{ id: 'c1', name: HOSTILE, arguments: { to: 'a\u202eb' } }], stop_reason: 'tool_calls', raw: null }, 1),
      line(3, 'run_end', { status: 'ok' }),
    ].join('\n'));
    const text = blameSync(trace, '--why', 'last', '--dry');
    expect(text.status).toBe(0);
    expect(text.stdout).toContain('send\\x1b[2J\\u202eliame\\u2028x');
    expect(text.stdout).not.toMatch(RAW);
    const json = blameSync(trace, '--why', 'last', '--dry', '--json');
    expect(json.stdout).not.toMatch(RAW);
    expect(json.stdout.trimEnd()).not.toMatch(SPLITLINES);
    expect(JSON.parse(json.stdout).decision.predicate.tool).toBe(HOSTILE);
  });

  it("--replay: the turn table's agent names (no model needed to print it)", () => {
    const trace = langfuseExport() as { observations: { id: string; name: string; metadata?: string }[] };
    for (const o of trace.observations) if (o.id === 'agent-Calculator') o.name = 'Calc\u001b[2J\u202etor';
    // The generation names its agent too (gen_ai.agent.name), and that name is the turn's.
    for (const o of trace.observations) if (o.metadata?.includes('"Calculator"')) o.metadata = JSON.stringify({ attributes: { 'gen_ai.agent.name': 'Calc\u001b[2J\u202etor' } });
    const input = join(DIR, 'agents.json');
    writeFileSync(input, JSON.stringify(trace));
    const r = blameSync(input, '--replay', '--expect', '42');
    expect(r.stdout).toMatch(/Calc\\x1b\[2J\\u202etor/);
    expect(r.stdout).not.toMatch(RAW);
    expect(r.stderr).not.toMatch(RAW);
  });
});

describe('--pairs writes JSON Lines that every line reader splits into its records', () => {
  it('step outputs holding U+2028, U+2029 and U+0085 stay inside their record', () => {
    const definition = join(DIR, 'separators.pipeline.js');
    writeFileSync(definition, `export default {
  name: 'separators',
  steps: [{ name: 'a', inputs: ['q'], cost: 1, run: ({ q }) => 'wrong\\u2028answer\\u0085to ' + q,
    fixes: [{ name: 'f', cost: 1, run: ({ q }) => 'right\\u2029answer to ' + q }] }],
  metric: (out) => (out.a.startsWith('right') ? 1 : 0),
  cases: [{ id: 'one', inputs: { q: 'x' } }, { id: 'two', inputs: { q: 'y' } }],
};`);
    const pairs = join(DIR, 'pairs.jsonl');
    const r = blameSync(definition, '--repairs', '--pairs', pairs, '--json');
    expect(r.status).toBe(0);
    const text = readFileSync(pairs, 'utf8');
    expect(text).not.toMatch(SPLITLINES);
    const records = text.trimEnd().split('\n').map((l) => JSON.parse(l) as { chosen: string; rejected: string });
    expect(records).toHaveLength(2);
    expect(records[0].rejected).toBe('wrong\u2028answer\u0085to x');
    expect(records[0].chosen).toBe('right\u2029answer to x');
    expect(r.stdout).not.toMatch(SPLITLINES);
  });
});
