/**
 * Files agentblame writes for people to run (docs/security.md, "Generated files"): the `--write-test`
 * file and the replay definition (`--emit-definition`). A trace's names and texts enter them only as
 * JSON literals: each hostile name below tries to end a comment, a string or a template and run code
 * that writes a marker file. The generated files are run (node:test, node importing the definition)
 * in a temporary folder, and the marker must never appear; in the sandbox, the definition must read
 * back the hostile id as its case id (had the id become code, SES would refuse it or its outcome would
 * be the trace's). Also: a refused definition is never written, and an output path under a file is
 * one clear line (exit 2).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'acorn';
import { describe, expect, it } from 'vitest';
import { checkTestSource } from '../cli/why-command.ts';
import { blameSync, expectBadInput, runBlame } from '../cli/testing/run-blame.ts';
import { startFakeEndpoint } from '../model/testing/fake-endpoint.ts';
import { parseInputFile } from '../formats/detect.ts';
import { buildReplay } from '../replay/index.ts';
import { langfuseExport } from '../replay/testing/runs.ts';
import type { RecordedRun } from '../runs/index.ts';
import { compilePipeline } from '../sandbox/compile.ts';
import { describePredicate } from '../why/index.ts';

const DIR = mkdtempSync(join(tmpdir(), 'blame-generated-'));
const MARKER = join(DIR, 'MARKER');
/** What every hostile name tries to run: writing the marker file (Node's own module, no import needed). */
const RUN = `process.getBuiltinModule('node:fs').writeFileSync(${JSON.stringify(MARKER)}, 'ran')`;

/** Names and texts that end a `//` comment, a block comment, a string, a template or a script element. */
const HOSTILE: [string, string][] = [
  ['a line feed', `x\n${RUN};//`],
  ['a carriage return', `x\r${RUN};//`],
  ['U+2028', `x\u2028${RUN};//`],
  ['U+2029', `x\u2029${RUN};//`],
  ['*/', `x*/;${RUN};/*`],
  ['a backtick', `x\`+${RUN}+\``],
  ['${', `x\${${RUN}}`],
  ['a double quote', `x"+${RUN}+"`],
  ['a single quote', `x'+${RUN}+'`],
  ['a backslash and a quote', `x\\"+${RUN}+"`],
  ['</script>', `x</script><script>${RUN}</script><!--`],
];

/** The value of `const NAME = <literal>;` at the top level of a module's source. */
function constant(source: string, name: string): unknown {
  const program = parse(source, { ecmaVersion: 'latest', sourceType: 'module' });
  for (const node of program.body) {
    if (node.type !== 'VariableDeclaration') continue;
    for (const d of node.declarations) {
      if (d.id.type === 'Identifier' && d.id.name === name && d.init) return JSON.parse(source.slice(d.init.start, d.init.end));
    }
  }
  throw new Error(`no const ${name}`);
}

function run(args: string[], cwd: string) {
  return spawnSync(process.execPath, args, { cwd, encoding: 'utf8', timeout: 60_000, env: { ...process.env, AGENTBLAME_MODEL_URL: '' } });
}

describe('generated files hold trace strings only as JSON literals', () => {
  it('a --write-test file with a hostile tool name, check name or endpoint runs no code of theirs', () => {
    const dir = join(DIR, 'write-test');
    mkdirSync(dir);
    HOSTILE.forEach(([, name], k) => {
      const file = join(dir, `t${k}.test.mjs`);
      const decision = describePredicate({ tool: name, match: name });
      const source = checkTestSource(file, join(dir, `c${k}${name.replace(/[/\0]/g, '')}.check.json`), join(dir, 'blame.mjs'), `http://127.0.0.1:1/${name.replace(/\s/g, '')}`, 'KEY', decision, 'user');
      expect(source).not.toMatch(/<\/script|<!--|-->|\u2028|\u2029/i);
      // The decision reads back whole: it is one string, not code.
      expect(constant(source, 'DECISION')).toBe(decision);
      writeFileSync(file, source);
    });
    // The generated tests fail (no endpoint, no check file) without running anything of the names.
    // All in one process (node:test runs the tests its modules declare when the process ends).
    const imports = readdirSync(dir).map((f) => `await import(${JSON.stringify(`./${f}`)});`).join('\n');
    const r = run(['--input-type=module', '-e', imports], dir);
    expect(r.stdout).toMatch(/# fail 11/);
    expect(existsSync(MARKER)).toBe(false);
  });

  it('a replay definition with a hostile run id, origin and file name runs no code of theirs, in node or the sandbox', () => {
    const dir = join(DIR, 'definition');
    mkdirSync(dir);
    const base = parseInputFile(JSON.stringify(langfuseExport()), 'langfuse.json');
    if (base.kind !== 'runs') throw new Error('expected runs');
    const honest = base.runs.runs[0];
    HOSTILE.forEach(([, name], k) => {
      const recorded: RecordedRun = { ...honest, id: name };
      const def = buildReplay([recorded], {
        players: 'turns',
        fixes: [],
        outcome: { kind: 'expect', text: '42' },
        origin: name,
        tools: { file: { fileName: name, source: 'export default {};' }, names: new Set() },
      });
      expect(def.source).not.toMatch(/<\/script|<!--|-->|\u2028|\u2029/i);
      expect(constant(def.source, 'SOURCES')).toMatchObject({ runs: `run "${name}" of ${name}`, tools: name });
      // In the sandbox: the definition compiles and its one case is the run, id and all.
      const compiled = compilePipeline(def.source, 'replay.js');
      expect(compiled.cases?.map((c) => c.id)).toEqual([name]);
      writeFileSync(join(dir, `d${k}.mjs`), def.source);
    });
    // In node: importing each definition module runs its top level, and nothing of the names.
    const imports = readdirSync(dir).map((f) => `await import(${JSON.stringify(`./${f}`)});`).join('\n');
    const r = run(['--input-type=module', '-e', `${imports}\nconsole.log('imported')`], dir);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('imported');
    expect(existsSync(MARKER)).toBe(false);
  });
});

describe('the command writes them so', () => {
  it('--write-test from a trace whose tool name ends its line: the test file runs, the marker is never written', async () => {
    const dir = join(DIR, 'command');
    mkdirSync(dir);
    const name = `send\n${RUN};//`;
    const line = (id: number, type: string, payload: unknown, parent: number | null = null) => JSON.stringify({ id, ts: 1790000000 + id / 10, type, parent, payload, meta: {} });
    writeFileSync(join(dir, 'run.runtape.jsonl'), [
      line(0, 'run_start', { run_id: 'r1', name: 'agent' }),
      line(1, 'llm_request', { provider: 'openai', model: 'fake-model', api: 'chat.completions', messages: [{ role: 'system', content: 'You send mail.' }, { role: 'user', content: 'Send the report.' }] }),
      line(2, 'llm_response', { text: null, tool_calls: [{ id: 'c1', name, arguments: {} }], stop_reason: 'tool_calls', raw: null }, 1),
      line(3, 'run_end', { status: 'ok' }),
    ].join('\n'));
    const endpoint = await startFakeEndpoint({ answer: () => ({ text: 'Done.', finish: 'stop', usage: { input: 5, output: 1 } }) });
    try {
      const r = await runBlame([join(dir, 'run.runtape.jsonl'), '--why', 'last', '--runs', '2', '--budget', '20', '--model-url', endpoint.url, '--write-check', join(dir, 'send.check.json'), '--write-test', join(dir, 'send.test.mjs'), '--json'], { ...process.env, AGENTBLAME_MODEL_URL: '' });
      expect(r.status).toBe(0);
      const source = readFileSync(join(dir, 'send.test.mjs'), 'utf8');
      expect(constant(source, 'DECISION')).toBe(`calls ${name}`);
      // Run as CI would, against the endpoint: the check reruns the call; nothing of the name runs.
      // Not spawnSync: the endpoint answers from this process.
      const ran = await new Promise<string>((resolve) => {
        const child = spawn(process.execPath, ['--test', 'send.test.mjs'], { cwd: dir, env: { ...process.env, AGENTBLAME_MODEL_URL: endpoint.url }, timeout: 60_000 });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.on('close', () => resolve(out));
      });
      expect(ran).toMatch(/# pass 1/);
    } finally {
      await endpoint.close();
    }
    expect(existsSync(MARKER)).toBe(false);
  });
});

describe('--emit-definition writes only a definition the analysis accepts', () => {
  it('a refused definition (a run id longer than a case id may be) is not written: exit 2 naming the problem', () => {
    const trace = langfuseExport() as { trace: { id: string } };
    trace.trace.id = 'r'.repeat(300);
    const input = join(DIR, 'refused.json');
    writeFileSync(input, JSON.stringify(trace));
    const out = join(DIR, 'refused.js');
    const r = blameSync(input, '--replay', '--expect', '42', '--emit-definition', out);
    const lines = expectBadInput(r, /^blame: pipeline definition: .*cases\[0\]\.id: too long/);
    expect(lines).toHaveLength(1);
    expect(readdirSync(DIR).filter((f) => f === 'refused.js' || f.startsWith('refused.js.'))).toEqual([]);
  });
});

describe('an output path whose parent is a file', () => {
  const file = join(DIR, 'a-file');
  writeFileSync(file, 'not a folder');
  const PIPELINE = join(import.meta.dirname, '../cli/fixtures/repairs.pipeline.js');
  it.each([
    ['--save', 'session file', []],
    ['--html', 'report', []],
    ['--pairs', 'training pairs', ['--repairs']],
  ])('%s: exit 2 with one blame: line naming the path, no stack', (flag, what, extra) => {
    const target = join(file, 'out');
    const r = blameSync(PIPELINE, ...extra, flag, target);
    const lines = expectBadInput(r, `blame: cannot write the ${what} to "${target}": ENOTDIR: not a directory`);
    expect(lines).toEqual([`blame: cannot write the ${what} to "${target}": ENOTDIR: not a directory`]);
  });
});
