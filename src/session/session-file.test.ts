import { describe, expect, it } from 'vitest';
import { FormatError } from '../formats/format-error.ts';
import { renderSessionBlock } from './testing/report-block.ts';
import { migrateSession } from './migrate.ts';
import { exportSessionFile, importSessionText, parseSessionFile, sessionFileName } from './session-file.ts';
import { result, session, sessionV0 } from './testing/sample-session.ts';

function formatErrorOf(action: () => unknown): FormatError {
  try {
    action();
  } catch (error) {
    if (error instanceof FormatError) return error;
    throw error;
  }
  throw new Error('expected a FormatError, nothing was thrown');
}

/** The exported file of a sample session with one part replaced, as text. */
function fileWith(edit: (file: Record<string, unknown>) => void): string {
  const file: Record<string, unknown> = JSON.parse(exportSessionFile(session()));
  edit(file);
  return JSON.stringify(file);
}

describe('exportSessionFile / parseSessionFile', () => {
  it('round-trips a session, including an infinite budget written as null', () => {
    const original = session({ revision: 5 });
    const text = exportSessionFile(original);
    expect(JSON.parse(text).settings.budget).toBeNull();
    expect(JSON.parse(text)).not.toHaveProperty('revision');
    const back = parseSessionFile(text);
    expect(back).toEqual({ ...original, revision: 0 });
    expect(back.settings.budget).toBe(Number.POSITIVE_INFINITY);
  });

  it('accepts a byte order mark', () => {
    expect(parseSessionFile(`\uFEFF${exportSessionFile(session())}`).id).toBe('session-1');
  });

  it('names the JSON path of a wrong field', () => {
    const error = formatErrorOf(() => parseSessionFile(fileWith((f) => {
      const results = f.results as { vEmpty: unknown }[];
      results[1].vEmpty = 'zero';
    })));
    expect(error.path).toBe('results[1].vEmpty');
    expect(error.message).toContain('expected a number');
  });

  it.each([
    ['missing status', (f: Record<string, unknown>) => delete f.status, 'status'],
    ['unknown status', (f: Record<string, unknown>) => (f.status = 'paused'), 'status'],
    ['unknown top-level field', (f: Record<string, unknown>) => (f.colour = 'red'), 'colour'],
    ['a result for an unknown case', (f: Record<string, unknown>) => ((f.results as { id: string }[])[0].id = 'q9'), 'results[0].id'],
    ['a repeated case id', (f: Record<string, unknown>) => ((f.cases as { id: string }[])[1].id = 'q1'), 'cases[1].id'],
    ['a bad delta', (f: Record<string, unknown>) => ((f.settings as { delta: number }).delta = 2), 'settings.delta'],
    ['a bad date', (f: Record<string, unknown>) => (f.createdAt = 'yesterday'), 'createdAt'],
    ['a Shapley value for a non-player', (f: Record<string, unknown>) => (((f.results as { shapley: Record<string, number> }[])[0].shapley.writer = 1)), 'results[0].shapley.writer'],
  ])('rejects %s', (_label, edit, path) => {
    expect(formatErrorOf(() => parseSessionFile(fileWith(edit))).path).toBe(path);
  });

  it('keeps a __proto__ key as data', () => {
    const text = exportSessionFile(session()).replace('"question": "question q1"', '"question": "question q1", "__proto__": {"polluted": true}');
    const parsed = parseSessionFile(text);
    expect(Object.hasOwn(parsed.cases[0].inputs, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reports a syntax error with its line', () => {
    const error = formatErrorOf(() => parseSessionFile('{\n  "format": "agentblame-session",\n  "version": 1,,\n}'));
    expect(error.line).toBe(3);
  });

  it('refuses other formats and newer versions', () => {
    expect(formatErrorOf(() => parseSessionFile('{"format":"agentblame-trace","version":1}')).path).toBe('format');
    expect(formatErrorOf(() => parseSessionFile(fileWith((f) => (f.version = 2)))).message).toContain('newer agentblame');
  });
});

describe('migrateSession v0 -> v1', () => {
  it('un-nests the trace, renames title, derives the status', () => {
    const migrated = migrateSession(JSON.parse(JSON.stringify(sessionV0())));
    expect(migrated).toMatchObject({
      version: 1,
      id: 'old-1',
      name: 'refund run (old)',
      fileName: 'refund.trace.json',
      createdAt: '2025-11-02T09:30:00.000Z',
      updatedAt: '2025-11-02T09:30:00.000Z',
      status: 'idle',
      revision: 0,
    });
    expect(migrated.cases.map((c) => c.id)).toEqual(['q1', 'q2', 'q3']);
    expect(migrated.results.map((r) => r.id)).toEqual(['q1']);
    expect(migrated.pipeline?.name).toBe('refund-policy');
  });

  it('marks a v0 session with a batch result as done and names it after the pipeline when untitled', () => {
    const batch = { failures: 1, analyzed: 1, unfixable: 0, cost: 6, steps: [{ step: 'retriever', fixAloneRate: 1, meanShapley: 0.75, ci: [0.75, 0.75], share: 0.75, lastTouch: 1 }] };
    const { title: _title, ...untitled } = sessionV0();
    const migrated = migrateSession(JSON.parse(JSON.stringify({ ...untitled, batch })));
    expect(migrated.status).toBe('done');
    expect(migrated.name).toBe('refund-policy');
    expect(migrated.batch?.steps[0].ci).toEqual([0.75, 0.75]);
  });

  it('validates a v0 file with v0 paths', () => {
    const broken = JSON.parse(JSON.stringify(sessionV0()));
    broken.trace.cases[2].inputs = 'none';
    expect(formatErrorOf(() => migrateSession(broken)).path).toBe('trace.cases[2].inputs');
  });
});

describe('importSessionText', () => {
  it('reads a session file', () => {
    expect(importSessionText(exportSessionFile(session())).id).toBe('session-1');
  });

  it('reads the session embedded in an HTML report and validates it like a file', () => {
    const html = renderSessionBlock(session({ results: [result('q3')] }));
    expect(importSessionText(html).results.map((r) => r.id)).toEqual(['q3']);
    const damaged = renderSessionBlock({ ...session(), status: 'sleeping' });
    expect(formatErrorOf(() => importSessionText(damaged)).path).toBe('status');
  });

  it('turns a report without a session into a FormatError', () => {
    expect(formatErrorOf(() => importSessionText('<!doctype html><p>hello</p>')).message).toContain('no agentblame session');
  });
});

describe('sessionFileName', () => {
  it('makes a safe file name', () => {
    expect(sessionFileName({ id: 'x', name: 'refund / policy: v2' })).toBe('refund-policy-v2.agentblame-session.json');
    expect(sessionFileName({ id: 'abc', name: '///' })).toBe('abc.agentblame-session.json');
  });
});
