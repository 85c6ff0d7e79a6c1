import { describe, expect, it } from 'vitest';
import { FormatError } from '../formats/format-error.ts';
import { renderReport } from '../report/renderReport.ts';
import { renderSessionBlock } from './testing/report-block.ts';
import { migrateSession } from './migrate.ts';
import { exportSessionFile, importSessionText, parseSessionFile, sessionFileName } from './session-file.ts';
import { errorCaseResult, gameSession, result, session, sessionGame, sessionV0 } from './testing/sample-session.ts';
import { thrownBy } from '../engine/testing/thrown.ts';

const formatErrorOf = (action: () => unknown): FormatError => thrownBy(action, FormatError);

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

  it('round-trips a case that could not be analysed: its NaN values, written as null, read back as NaN', () => {
    const original = session({ results: [result('q1'), errorCaseResult('q2')] });
    const text = exportSessionFile(original);
    expect(JSON.parse(text).results[1]).toMatchObject({ vEmpty: null, vAll: null });
    const back = parseSessionFile(text);
    expect(back).toEqual(original);
    expect(back.results[1].vEmpty).toBeNaN();
    expect(back.results[1].vAll).toBeNaN();
  });

  it('still requires the values of a case without an error', () => {
    const error = formatErrorOf(() => parseSessionFile(fileWith((f) => {
      (f.results as { vAll: unknown }[])[1].vAll = null;
    })));
    expect(error.message).toBe('results[1].vAll: expected a number, got null');
  });

  it('checks cases by the trace rules: any safe integer seed, a repeated id named with its first place', () => {
    const negative = session({ cases: [{ id: 'q1', inputs: {}, seed: -3 }, { id: 'q2', inputs: {}, seed: 0 }], results: [] });
    expect(parseSessionFile(exportSessionFile(negative)).cases.map((c) => c.seed)).toEqual([-3, 0]);
    const repeated = formatErrorOf(() => parseSessionFile(fileWith((f) => ((f.cases as { id: string }[])[1].id = 'q1'))));
    expect(repeated.message).toBe('cases[1].id: duplicate case id "q1" (also cases[0])');
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
    ['a case without inputs', (f: Record<string, unknown>) => delete (f.cases as { inputs?: unknown }[])[2].inputs, 'cases[2].inputs'],
    ['a fractional seed', (f: Record<string, unknown>) => ((f.cases as { seed: number }[])[0].seed = 1.5), 'cases[0].seed'],
    ['an unknown case field', (f: Record<string, unknown>) => ((f.cases as Record<string, unknown>[])[0].seeds = 1), 'cases[0].seeds'],
    ['a bad delta', (f: Record<string, unknown>) => ((f.settings as { delta: number }).delta = 2), 'settings.delta'],
    ['a bad date', (f: Record<string, unknown>) => (f.createdAt = 'yesterday'), 'createdAt'],
    ['an unknown estimator', (f: Record<string, unknown>) => ((f.settings as { estimator: string }).estimator = 'magic'), 'settings.estimator'],
    ['a negative query count', (f: Record<string, unknown>) => ((f.results as { queries: number }[])[0].queries = -1), 'results[0].queries'],
    ['an unknown estimator in a result', (f: Record<string, unknown>) => ((f.results as { estimator: string }[])[0].estimator = 'toString'), 'results[0].estimator'],
    ['an interaction naming a non-player', (f: Record<string, unknown>) => ((f.results as Record<string, unknown>[])[0].interactions = [{ steps: ['planner', 'writer'], value: 0 }]), 'results[0].interactions[0].steps[1]'],
    ['an interaction of three steps', (f: Record<string, unknown>) => ((f.results as Record<string, unknown>[])[0].interactions = [{ steps: ['planner', 'retriever', 'planner'], value: 0 }]), 'results[0].interactions[0].steps'],
    ['a Shapley value for a non-player', (f: Record<string, unknown>) => (((f.results as { shapley: Record<string, number> }[])[0].shapley.writer = 1)), 'results[0].shapley.writer'],
  ])('rejects %s', (_label, edit, path) => {
    expect(formatErrorOf(() => parseSessionFile(fileWith(edit))).path).toBe(path);
  });

  it('round-trips the estimator and queries of results, and reads settings saved before the registry as the permutation estimator', () => {
    const original = session({
      settings: { ...session().settings, interactions: true },
      results: [
        result('q1', true, { method: 'mc', estimator: 'permutation', queries: 129, permutations: 64, interactions: [{ steps: ['planner', 'retriever'], value: -0.5, samples: 40 }] }),
        result('q2', false),
      ],
    });
    expect(parseSessionFile(exportSessionFile(original))).toEqual({ ...original, revision: 0 });
    const older = parseSessionFile(fileWith((f) => delete (f.settings as { estimator?: string }).estimator));
    expect(older.settings.estimator).toBe('permutation');
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

describe('game tables in the session file', () => {
  /** The exported file of the sample game session with one part replaced, as text. */
  function gameFileWith(edit: (file: { games: Record<string, unknown>[]; results: { id: string }[] }) => void): string {
    const file = JSON.parse(exportSessionFile(gameSession()));
    edit(file);
    return JSON.stringify(file);
  }

  it('round-trips a game session (values, range and the results that name games)', () => {
    const original = gameSession({ revision: 3 });
    const text = exportSessionFile(original);
    expect(JSON.parse(text).games[1]).toEqual({ id: 'case-2', players: ['planner', 'retriever'], values: [0, 0.2, 0.4, 0.9], range: [0, 1] });
    const back = parseSessionFile(text);
    expect(back).toEqual({ ...original, revision: 0 });
    expect(back.games?.map((g) => g.id)).toEqual(['case-1', 'case-2']);
  });

  it('writes no games field for a session without games, so older readers read it as before', () => {
    expect(JSON.parse(exportSessionFile(session()))).not.toHaveProperty('games');
    expect(parseSessionFile(fileWith((f) => (f.games = [])))).not.toHaveProperty('games');
  });

  it.each([
    ['a value list of the wrong length', (f: { games: Record<string, unknown>[] }) => (f.games[0].values = [0, 1, 1]), 'games[0].values', 'expected 4 values'],
    ['a non-numeric value', (f: { games: Record<string, unknown>[] }) => (f.games[1].values = [0, 0.2, 'high', 0.9]), 'games[1].values[2]', 'expected a finite number'],
    ['a value outside the range', (f: { games: Record<string, unknown>[] }) => (f.games[1].values = [0, 0.2, 1.5, 0.9]), 'games[1].values[2]', 'outside the range [0, 1]'],
    ['a backwards range', (f: { games: Record<string, unknown>[] }) => (f.games[1].range = [1, 0]), 'games[1].range', 'lo < hi'],
    ['a repeated player', (f: { games: Record<string, unknown>[] }) => (f.games[0].players = ['planner', 'planner']), 'games[0].players[1]', 'repeated'],
    ['no players', (f: { games: Record<string, unknown>[] }) => (f.games[0].players = []), 'games[0].players', 'at least one player'],
    ['an unknown game field', (f: { games: Record<string, unknown>[] }) => (f.games[0].colour = 'red'), 'games[0].colour', ''],
    ['a repeated game id', (f: { games: Record<string, unknown>[] }) => (f.games[1].id = 'case-1'), 'games[1].id', 'appears twice'],
    ['games that are not a list', (f: { games: unknown }) => (f.games = { id: 'case-1' }), 'games', ''],
    ['a result for an unknown game', (f: { results: { id: string }[] }) => (f.results[0].id = 'case-9'), 'results[0].id', 'cases or games'],
  ])('rejects %s, naming its JSON path', (_label, edit, path, message) => {
    const error = formatErrorOf(() => parseSessionFile(gameFileWith(edit as (file: { games: Record<string, unknown>[]; results: { id: string }[] }) => void)));
    expect(error.path).toBe(path);
    expect(error.message).toContain(message);
  });

  it('rejects a game whose id is also a case id', () => {
    const clash = exportSessionFile(session({ games: [sessionGame('q1')] }));
    const error = formatErrorOf(() => parseSessionFile(clash));
    expect(error.path).toBe('games[0].id');
    expect(error.message).toContain('also a case id');
  });

  it('comes back from the session embedded in a report, which counts the games as cases', () => {
    expect(importSessionText(renderSessionBlock(gameSession())).games).toEqual(gameSession().games);
    const html = renderReport(gameSession({ status: 'cancelled' }));
    expect(html).toContain('2 in the file, 1 run, 1 failed');
    expect(html).toContain('cancelled after 1 of 2 cases');
    expect(importSessionText(html)).toEqual({ ...gameSession({ status: 'cancelled' }), pipeline: undefined });
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

  it('reads back a report whose study has a case that could not be analysed', () => {
    const original = session({ results: [result('q1'), errorCaseResult('q2')] });
    const html = renderReport(original);
    expect(html).toContain('step &quot;retriever&quot; threw');
    const back = importSessionText(html);
    expect(back).toEqual(original);
    expect(back.results[1].vEmpty).toBeNaN();
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
