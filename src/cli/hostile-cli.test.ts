/**
 * The command under hostile definitions and files: each crashed the whole run, lost
 * every case, or printed wrong numbers before. Each test runs the command as a user would.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blameSync as blame } from './testing/run-blame.ts';

const ROOT = join(import.meta.dirname, '../..');
const BLAME = join(ROOT, 'src/cli/blame.mjs');

function tempFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'blame-hostile-')), name);
  writeFileSync(path, text);
  return path;
}

/** A one-step definition whose step runs `body` on case "bad" and returns 'bad' elsewhere; three cases. */
function definition(body: string, stepName = 'a'): string {
  return `export default {
    name: 'hostile',
    steps: [{ name: ${JSON.stringify(stepName)}, inputs: ['x'], cost: 1,
      run: ({ x }) => { if (x === 'bad') { ${body} } return 'as run'; },
      fixes: [{ name: 'f', cost: 1, run: () => 'ok' }] }],
    metric: (outputs) => (outputs[${JSON.stringify(stepName)}] === 'ok' ? 1 : 0),
    cases: [{ id: 'before', inputs: { x: 'q' } }, { id: 'bad', inputs: { x: 'bad' } }, { id: 'after', inputs: { x: 'q2' } }],
  };`;
}

/** The three cases of `definition`: the bad one carries `error`, the others are analysed. */
function expectOnlyBadCaseFails(stdout: string, error: RegExp) {
  const cases = JSON.parse(stdout).cases as { id: string; error?: string; shapley?: Record<string, number> }[];
  expect(cases.map((c) => c.id)).toEqual(['before', 'bad', 'after']);
  expect(cases[1].error).toMatch(error);
  for (const index of [0, 2]) {
    expect(cases[index].error).toBeUndefined();
    expect(Object.values(cases[index].shapley!)).toEqual([1]);
  }
}

describe('the command survives hostile definitions', () => {
  it('a huge error message is cut, and every other case is still reported', () => {
    const r = blame(tempFile('message.js', definition("throw new Error('x'.repeat(20_000_000));")), '--json');
    expect(r.status).toBe(1);
    expectOnlyBadCaseFails(r.stdout, /^case "bad": step "a" threw: Error: x{1993}\.\.\. \(19998007 more characters cut\) \(at message\.js:\d+:\d+\)$/);
  });

  it('a 20-million-character step name is refused with a clear message (exit 2)', () => {
    const source = definition('return 1;').replace("name: \"a\"", "name: 'n'.repeat(20_000_000)");
    const r = blame(tempFile('name.js', source), '--json');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('blame: pipeline definition: name.js: steps[0]: name is 20000000 characters long (at most 200)\n');
  });

  it('escape codes, CR and NUL in names are refused, and never reach the terminal raw', () => {
    const r = blame(tempFile('escape.js', definition('return 1;', 'red\u001b[31m\r\u0000')), '--json');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^blame: pipeline definition: escape\.js: steps\[0\]: name "red\\u001b\[31m\\r\\u0000" contains the control character U\+001B/);
    expect(r.stderr).not.toMatch(/[\u0000\u001b\r]/);
  });

  it('escape codes in case ids and error messages are printed escaped in the tables', () => {
    const source = definition("throw new Error('\\u001b[2J\\r wiped');").replace("id: 'bad'", "id: 'bad\\u001b]0;title\\u0007'");
    const r = blame(tempFile('ids.js', source));
    expect(r.status).toBe(1);
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(r.stdout).toContain('case bad\\x1b]0;title\\x07: ERROR');
    expect(r.stdout).toContain('Error: \\x1b[2J\\x0d wiped');
  });

  it('steps named __proto__, constructor, hasOwnProperty, toString appear in the JSON and the tables', () => {
    const names = ['__proto__', 'constructor', 'hasOwnProperty', 'toString'];
    const source = `const names = ${JSON.stringify(names)};
      export default {
        name: 'proto',
        steps: names.map((name, i) => ({ name, inputs: i === 0 ? ['x'] : [names[i - 1]], cost: 1, run: () => 'bad', fixes: [{ name: 'f', cost: 1, run: () => 'ok' }] })),
        metric: (o) => (o['__proto__'] === 'ok' || o.toString === 'ok' ? 1 : 0),
        cases: [{ id: 'c1', inputs: { x: 1 } }],
      };`;
    const file = tempFile('proto.js', source);
    const json = blame(file, '--json');
    expect(json.status).toBe(0);
    const out = JSON.parse(json.stdout);
    expect(Object.keys(out.cases[0].shapley)).toEqual(names);
    expect(out.cases[0].shapley['__proto__']).toBe(0.5);
    expect(out.batch.steps.map((s: { meanShapley: number }) => s.meanShapley)).toEqual([0.5, 0, 0, 0.5]);
    const tables = blame(file);
    expect(tables.status).toBe(0);
    expect(tables.stdout).toMatch(/__proto__ +\+1\.000 +\+0\.000 +\+0\.500/);
  });

  it('a game whose values overflow is refused per case, never printed as null', () => {
    const game = {
      format: 'agentblame-game', version: 1,
      games: [{ id: 'huge', players: ['a', 'b'], values: [
        { fixed: [], value: -1.7e308 }, { fixed: ['a'], value: 1.7e308 }, { fixed: ['b'], value: 1.7e308 }, { fixed: ['a', 'b'], value: 1.7e308 },
      ] }],
    };
    const r = blame(tempFile('huge.game.json', JSON.stringify(game)), '--json');
    expect(r.stdout).not.toContain('null,');
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).cases[0].error).toMatch(/^case "huge": the results overflow \(.* is (-)?Infinity\)/);
  });

  it('inputs nested 5 000 deep are refused at import with their path (exit 2)', () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const trace = `{"format":"agentblame-trace","version":1,"pipeline":{"name":"p","source":${JSON.stringify(definition('return 1;'))}},"cases":[{"id":"deep","inputs":{"x":${deep}}}]}`;
    const r = blame(tempFile('deep.trace.json', trace), '--json');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^blame: cases\[0\]\.inputs\.x(\.a)+: nested more than 200 levels deep \(at most 200\)\n$/);
  });

  it('a study keeps outputs within its total: 250 cases of 90 000 characters each are cut to their share in a saved session', () => {
    const source = `export default {
      name: 'wide',
      steps: [{ name: 'a', inputs: ['x'], cost: 1, run: ({ x }) => 'x'.repeat(90000) + x, fixes: [{ name: 'f', cost: 1, run: () => 'ok' }] }],
      metric: (outputs) => (outputs.a === 'ok' ? 1 : 0),
      cases: Array.from({ length: 250 }, (_, i) => ({ id: 'c' + i, inputs: { x: String(i) } })),
    };`;
    const file = tempFile('wide.js', source);
    const saved = join(mkdtempSync(join(tmpdir(), 'blame-hostile-')), 'wide.agentblame-session.json');
    const r = blame(file, '--json', '--save', saved);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).cases).toHaveLength(250);
    const session = JSON.parse(readFileSync(saved, 'utf8'));
    expect(session.results).toHaveLength(250);
    for (const result of session.results) {
      expect(result.factualOutputs.a).toBe('[output cut: more than 80000 characters of JSON; results keep smaller outputs only]');
      expect(result.fixedOutputs.a).toBe('ok');
    }
  }, 120_000);

  it('a refused definition always exits 2 with its message (never 13 with nothing)', async () => {
    const file = tempFile('refused.js', 'export default { name: "p", steps: [] , metric: () => 1 };');
    const runs = await Promise.all(
      Array.from({ length: 4 }, () =>
        new Promise<{ status: number | null; stderr: string }>((resolve) => {
          const child = spawn(process.execPath, [BLAME, file, '--json'], { cwd: ROOT });
          let stderr = '';
          child.stderr.on('data', (chunk) => (stderr += chunk));
          child.on('close', (status) => resolve({ status, stderr }));
        }),
      ),
    );
    for (const run of runs) {
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/^blame: pipeline definition: refused\.js: steps must be a non-empty array/);
    }
  }, 120_000);
});
