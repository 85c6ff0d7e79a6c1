import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blameSync as blame } from './testing/run-blame.ts';


const attr = (key: string, value: string | number) => ({ key, value: typeof value === 'number' ? { intValue: String(value) } : { stringValue: value } });

/** A small OTLP/JSON trace: an agent span, a model call (uppercase hex ids) and a failed tool. */
const OTLP = {
  resourceSpans: [
    {
      resource: { attributes: [attr('service.name', 'concierge')] },
      scopeSpans: [
        {
          scope: { name: 'test' },
          spans: [
            { traceId: '0AF7651916CD43DD8448EB211C80319C', spanId: '051581BF3CB55C13', name: 'invoke_agent concierge', startTimeUnixNano: '1796032800000000000', endTimeUnixNano: '1796032802000000000', attributes: [attr('gen_ai.operation.name', 'invoke_agent')] },
            { traceId: '0AF7651916CD43DD8448EB211C80319C', spanId: 'B9C7C989F97918E1', parentSpanId: '051581BF3CB55C13', name: 'execute_tool book', startTimeUnixNano: '1796032801000000000', endTimeUnixNano: '1796032801500000000', attributes: [attr('gen_ai.operation.name', 'execute_tool'), attr('gen_ai.tool.name', 'book')], status: { code: 2, message: 'booking service timed out' } },
            { traceId: '0AF7651916CD43DD8448EB211C80319C', spanId: '00F067AA0BA902B7', parentSpanId: '051581BF3CB55C13', name: 'chat gpt-4.1-mini', startTimeUnixNano: '1796032800100000000', endTimeUnixNano: '1796032800900000000', attributes: [attr('gen_ai.operation.name', 'chat'), attr('gen_ai.request.model', 'gpt-4.1-mini'), attr('gen_ai.usage.input_tokens', 412), attr('gen_ai.usage.output_tokens', 31)] },
          ],
        },
      ],
    },
  ],
};

function log(steps: [string, string][], agent: string, step: number) {
  return { is_correct: false, question: 'q', mistake_agent: agent, mistake_step: String(step), history: steps.map(([name, content]) => ({ role: 'assistant', name, content })) };
}

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'blame-inspect-'));
  writeFileSync(join(dir, 'trace.otlp.json'), JSON.stringify(OTLP));
  mkdirSync(join(dir, 'logs', 'algorithm'), { recursive: true });
  writeFileSync(join(dir, 'logs', 'algorithm', '1.json'), JSON.stringify(log([['Planner', 'plan'], ['Coder', 'code'], ['Computer_terminal', 'exitcode: 1'], ['Coder', 'answer 5']], 'Coder', 1)));
  writeFileSync(join(dir, 'logs', 'algorithm', '2.json'), JSON.stringify(log([['Planner', 'plan'], ['Coder', 'answer']], 'Planner', 0)));
  writeFileSync(join(dir, 'logs', 'algorithm', 'README.txt'), 'not a log');
  writeFileSync(join(dir, 'predictions.json'), JSON.stringify({ 'algorithm/1': { agent: 'coder', step: 1 }, 'algorithm/2': { agent: 'Coder', step: 1 } }));
  return dir;
}

describe('blame --inspect', () => {
  const dir = workspace();

  it('--json prints the run model exactly as docs/recorded-runs.md: lower-case hex ids, steps in execution order', () => {
    const r = blame(join(dir, 'trace.otlp.json'), '--inspect', '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      format: 'otel-genai',
      runs: [
        {
          id: '0af7651916cd43dd8448eb211c80319c',
          name: 'invoke_agent concierge',
          status: 'unknown',
          steps: [
            { id: '051581bf3cb55c13', parent: null, name: 'invoke_agent concierge', kind: 'agent', start: '2026-11-30T10:00:00.000Z', end: '2026-11-30T10:00:02.000Z', model: null, usage: null, error: null },
            { id: '00f067aa0ba902b7', parent: '051581bf3cb55c13', name: 'chat gpt-4.1-mini', kind: 'llm', start: '2026-11-30T10:00:00.100Z', end: '2026-11-30T10:00:00.900Z', model: 'gpt-4.1-mini', usage: { input: 412, output: 31 }, error: null },
            { id: 'b9c7c989f97918e1', parent: '051581bf3cb55c13', name: 'execute_tool book', kind: 'tool', start: '2026-11-30T10:00:01.000Z', end: '2026-11-30T10:00:01.500Z', model: null, usage: null, error: 'booking service timed out' },
          ],
        },
      ],
    });
  });

  it('without --json prints a readable tree with tokens, latency, errors and the baselines', () => {
    const r = blame(join(dir, 'trace.otlp.json'), '--inspect');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('1. chat gpt-4.1-mini [llm]  gpt-4.1-mini  412+31 tok  800 ms');
    expect(r.stdout).toContain('ERROR: booking service timed out');
    expect(r.stdout).toContain('first error: 2 (execute_tool book)');
  });

  it('reads a folder of logs (other files skipped), naming runs by folder and file', () => {
    const r = blame(join(dir, 'logs'), '--inspect', '--json');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.format).toBe('whowhen');
    expect(out.runs.map((x: { id: string; label: unknown }) => [x.id, x.label])).toEqual([
      ['algorithm/1', { agent: 'Coder', step: 1 }],
      ['algorithm/2', { agent: 'Planner', step: 0 }],
    ]);
    expect(out.runs[0].steps.map((s: { kind: string }) => s.kind)).toEqual(['agent', 'agent', 'tool', 'agent']);
  });

  it('--score scores a predictions file and the baselines, exact step index, agent case-insensitive', () => {
    const r = blame(join(dir, 'logs'), '--score', join(dir, 'predictions.json'), '--json');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.predictions.all).toMatchObject({ runs: 2, agent: { correct: 1, n: 2 }, step: { correct: 1, n: 2 } });
    const last = out.heuristics.find((h: { name: string }) => h.name === 'last-step');
    expect(last.all).toMatchObject({ agent: { correct: 1 }, step: { correct: 0 } });
    const touch = out.heuristics.find((h: { name: string }) => h.name === 'last-touch');
    expect(touch.all).toMatchObject({ agent: { correct: 1 }, step: { correct: 0 } });
    expect(out.random.all.step).toBeCloseTo((1 / 4 + 1 / 2) / 2, 12);
  });

  it('a bad file is one line on stderr naming the file and JSON path, exit 2', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...OTLP, resourceSpans: [{ scopeSpans: [{ spans: [{ spanId: true }] }] }] }));
    const r = blame(bad, '--inspect', '--json');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toEqual([`blame: ${bad}: resourceSpans[0].scopeSpans[0].spans[0].spanId: expected an id (hex, base64 or an integer), got true`]);
  });
});
