/**
 * Check files and `--match` come from strangers (a check file is shared in a repository): their
 * regular expression runs on the host, so it must not backtrack for hours on an answer, and their
 * `fix.remove` must name pieces the call's context has (removing nothing would "pass").
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBadInput, type BlameRun } from '../cli/testing/run-blame.ts';
import { parseInputFile } from '../formats/detect.ts';
import { startFakeEndpoint, type FakeEndpoint } from '../model/testing/fake-endpoint.ts';
import { callDigest, CHECK_FORMAT, CHECK_VERSION, contextOf, recordedReply } from '../why/index.ts';

const ROOT = join(import.meta.dirname, '../..');
const BLAME = join(ROOT, 'src/cli/blame.mjs');
const DIR = mkdtempSync(join(tmpdir(), 'blame-check-files-'));
/** What a catastrophic pattern backtracks on: word characters, then one that is not. */
const BACKTRACKER = `${'a'.repeat(40)}!`;
/** A pattern that takes 2^40 steps on BACKTRACKER with a backtracking matcher. */
const EVIL = '^(\\w+\\s?)*$';

const line = (id: number, type: string, payload: unknown, parent: number | null = null) => JSON.stringify({ id, ts: 1790000000 + id / 10, type, parent, payload, meta: {} });
/** One model call: a system prompt, a user message of two paragraphs, and a text answer. */
const TRACE = [
  line(0, 'run_start', { run_id: 'r1', name: 'agent' }),
  line(1, 'llm_request', { provider: 'openai', model: 'fake-model', api: 'chat.completions', messages: [{ role: 'system', content: 'You answer.' }, { role: 'user', content: 'First paragraph. Two sentences.\n\nSecond paragraph.' }] }),
  line(2, 'llm_response', { text: BACKTRACKER, tool_calls: [], stop_reason: 'stop', raw: null }, 1),
  line(3, 'run_end', { status: 'ok' }),
].join('\n');
const TRACE_FILE = join(DIR, 'run.runtape.jsonl');

let endpoint: FakeEndpoint;
let digest: string;
beforeAll(async () => {
  writeFileSync(TRACE_FILE, `${TRACE}\n`);
  const input = parseInputFile(TRACE, 'run.runtape.jsonl');
  if (input.kind !== 'runs') throw new Error('expected a recorded run');
  const step = input.runs.runs[0].steps.find((s) => s.kind === 'llm')!;
  digest = callDigest(contextOf(step), recordedReply(step));
  // Every rerun answers what makes a backtracking matcher run for hours.
  endpoint = await startFakeEndpoint({ answer: () => ({ text: BACKTRACKER, finish: 'stop', usage: { input: 10, output: 10 } }) });
});
afterAll(async () => {
  await endpoint.close();
});

function checkFile(name: string, fields: { match?: string; fix?: unknown }): string {
  const index = 1;
  const file = join(DIR, name);
  writeFileSync(file, JSON.stringify({
    format: CHECK_FORMAT, version: CHECK_VERSION,
    trace: { file: 'run.runtape.jsonl', run: 'r1', digest },
    call: { index, step: '1' },
    predicate: { match: fields.match ?? 'sure' },
    fix: fields.fix ?? null,
    runs: 3, model: 'fake-model', seed: 1,
  }));
  return file;
}

/** The command, stopped if it has not finished after a minute (a backtracking matcher would run for hours). */
function blame(...args: string[]): Promise<BlameRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BLAME, ...args], { cwd: ROOT, env: { ...process.env, AGENTBLAME_MODEL_URL: '' }, timeout: 50_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('a regular expression from a check file or --match never backtracks on the host', () => {
  it("a check file's predicate.match runs on the answers in linear time: the check ends, and holds", async () => {
    const r = await blame('--check', checkFile('evil.check.json', { match: EVIL }), '--model-url', endpoint.url, '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ k: 0, n: 3, passed: true });
  }, 60_000);

  it('--match runs on the recorded answer in linear time', async () => {
    const r = await blame(TRACE_FILE, '--why', 'last', '--match', EVIL, '--dry');
    expectBadInput(r, /^blame: --match: step 1: the recorded answer does not match the decision/);
  }, 60_000);

  it('a pattern that cannot be matched in linear time is refused, naming where it came from', async () => {
    const fromFile = await blame('--check', checkFile('backref.check.json', { match: '(a+)+\\1' }), '--model-url', endpoint.url);
    expectBadInput(fromFile, /^blame: .*backref\.check\.json: predicate\.match: "\(a\+\)\+\\1" cannot be matched in linear time/);
    const fromFlag = await blame(TRACE_FILE, '--why', 'last', '--match', '(?=a)(a+)+!', '--dry');
    expectBadInput(fromFlag, /^blame: --match: "\(\?=a\)\(a\+\)\+!" cannot be matched in linear time/);
  }, 60_000);
});

describe("a check file's fix.remove names pieces the context has", () => {
  it.each([
    ['a message past the end', { message: 999 }, /fix\.remove\[0\]: names no piece of the call's context: message 999 of a 2-message context/],
    ['a pointer into a text that is not JSON', { message: 1, pointer: '/emails' }, /fix\.remove\[0\]: .*message 1 is not JSON/],
    ['a paragraph past the end', { message: 1, paragraph: 5 }, /fix\.remove\[0\]: .*paragraph 5 of message 1, which has 2/],
    ['a sentence past the end', { message: 1, paragraph: 0, sentence: 7 }, /fix\.remove\[0\]: .*sentence 7 of paragraph 0 of message 1, which has 2/],
  ])('%s is refused with its path (exit 2), before any request', async (_, path, expected) => {
    const sent = endpoint.requests.length;
    const r = await blame('--check', checkFile('remove.check.json', { fix: { name: 'fix-the-source', remove: [path] } }), '--model-url', endpoint.url);
    expectBadInput(r, expected);
    expect(endpoint.requests.length).toBe(sent);
  });

  it('a piece the context has is accepted', async () => {
    const r = await blame('--check', checkFile('fine.check.json', { fix: { name: 'fix-the-source', remove: [{ message: 1, paragraph: 1 }] } }), '--model-url', endpoint.url, '--json');
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ fix: 'fix-the-source', n: 3 });
  });
});
