/**
 * `--inspect` and `--score` on what strangers' folders and files hold: files that are not runs
 * beside the runs, dangling symlinks and symlink loops (skipped and listed, never a crash), escape
 * codes and bidi controls in names (escaped), and a 25 000-deep chain of spans (printed, not
 * "Invalid string length").
 */
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blameSync as blame } from './testing/run-blame.ts';

const ROOT = join(import.meta.dirname, '../..');
const FIXTURES = join(ROOT, 'src/formats/recorded/fixtures');

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'blame-folders-'));
  for (const name of ['agno-vercel.langfuse.trace.json', 'agno-vercel.langfuse.chatml.json']) writeFileSync(join(dir, name), readFileSync(join(FIXTURES, name)));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', version: '1.0.0' }));
  symlinkSync(join(dir, 'gone.json'), join(dir, 'dangling.json'));
  symlinkSync(join(dir, 'loop.json'), join(dir, 'loop.json'));
  mkdirSync(join(dir, 'sub'));
  symlinkSync(dir, join(dir, 'sub', 'up'));
  return dir;
}

describe('blame --inspect on folders and hostile text', () => {
  const dir = folder();

  it('opens the traces of a folder and lists, after them, each file skipped and why', () => {
    const r = blame(dir, '--inspect');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('run 7c1f0e2a-5d1b-4c8e-9a37-2f4b5e6d7a80  "refund-agent"');
    const tail = r.stdout.slice(r.stdout.indexOf('skipped '));
    expect(tail.split('\n')[0]).toBe('skipped 5 files in the folders (not recorded runs):');
    expect(tail).toContain(`  ${join(dir, 'agno-vercel.langfuse.chatml.json')}: `);
    expect(tail).toContain(`  ${join(dir, 'package.json')}: `);
    expect(tail).toContain(`  ${join(dir, 'dangling.json')}: a symlink to nothing (dangling)`);
    expect(tail).toContain(`  ${join(dir, 'loop.json')}: a symlink loop`);
    expect(tail).toContain(`  ${join(dir, 'sub', 'up')}: a symlink loop (this folder was already read)`);
  });

  it('--json carries the skipped files as "skipped": [{ file, reason }]', () => {
    const r = blame(dir, '--inspect', '--json');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { format: string; runs: unknown[]; skipped: { file: string; reason: string }[] };
    expect(out.format).toBe('langfuse');
    expect(out.runs).toHaveLength(1);
    expect(out.skipped.map((s) => s.file)).toEqual(['agno-vercel.langfuse.chatml.json', 'dangling.json', 'loop.json', 'package.json', join('sub', 'up')].map((n) => join(dir, n)));
  });

  it('a file named on the command line that is not a run is still an error (exit 2, one line)', () => {
    const r = blame(join(dir, 'package.json'), '--inspect');
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(/^blame: .*package\.json: /);
  });

  it('escape codes and bidi controls in names, models, errors and prediction ids are escaped in the text output', () => {
    const evil = 'Web\u001b[2J\u001b[31mSurfer\u202e';
    const log = { is_correct: false, question: 'q', mistake_agent: evil, mistake_step: '1', history: [{ role: 'assistant', name: 'Planner', content: 'plan' }, { role: 'assistant', name: evil, content: 'x' }] };
    const logs = mkdtempSync(join(tmpdir(), 'blame-evil-'));
    mkdirSync(join(logs, 'hand'));
    writeFileSync(join(logs, 'hand', '1.json'), JSON.stringify(log));
    const spans = { resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: '00f067aa0ba902b7', name: 'chat\u001b]0;owned\u0007', attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } }, { key: 'gen_ai.request.model', value: { stringValue: 'gpt\u202e\r\nrun fake' } }], status: { code: 2, message: 'boom\u001b[1A' } }] }] }] };
    writeFileSync(join(logs, 'evil.otlp.json'), JSON.stringify(spans));
    const r = blame(logs, '--inspect');
    expect(r.status).toBe(0);
    expect(r.stdout).not.toMatch(/[\u001b\u0007\u202e\r]/);
    expect(r.stdout).toContain('Web\\x1b[2J\\x1b[31mSurfer\\u202e');
    expect(r.stdout).toContain('chat\\x1b]0;owned\\x07 [llm]  gpt\\u202e run fake');
    expect(r.stdout).toContain('ERROR: boom\\x1b[1A');
    const predictions = join(logs, 'predictions.json');
    writeFileSync(predictions, JSON.stringify({ ['x\u001b[31m\u202e']: { step: 1 } }));
    const scored = blame(join(logs, 'hand'), '--score', predictions);
    expect(scored.status).toBe(0);
    expect(scored.stdout).not.toMatch(/[\u001b\u202e]/);
    expect(scored.stdout).toContain('name runs not given: x\\x1b[31m\\u202e');
  });

  it('prints the tree of a chain 25 000 spans deep (indentation stops growing at depth 40)', () => {
    const spans = Array.from({ length: 25000 }, (_, i) => ({
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: (i + 1).toString(16).padStart(16, '0'),
      ...(i > 0 ? { parentSpanId: i.toString(16).padStart(16, '0') } : {}),
      name: `s${i}`,
    }));
    const file = join(mkdtempSync(join(tmpdir(), 'blame-deep-')), 'deep.otlp.json');
    writeFileSync(file, JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] }));
    const r = blame(file, '--inspect');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n').at(-2)).toBe(`  ${'  '.repeat(40)}[depth 24999] 24999. s24999 [other]`);
  });
});
