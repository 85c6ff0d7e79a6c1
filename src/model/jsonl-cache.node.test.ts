import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { requestKey, type ChatRequest } from '../engine/model-call.ts';
import { CacheFileError, openCaches } from './jsonl-cache.node.ts';
import { fakeModelAnswer } from './testing/fake-model.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentblame-cache-'));
  dirs.push(dir);
  return dir;
}

function request(k: number): ChatRequest {
  return { model: 'fake-model', messages: [{ role: 'user', content: `question ${k}` }], temperature: 0 };
}

function putAll(file: string, ks: number[]): void {
  const { cache } = openCaches([file]);
  for (const k of ks) cache.put(requestKey(request(k)), request(k), fakeModelAnswer(request(k)));
}

describe('openCaches (JSONL)', () => {
  it('creates the file on the first write and reads back every entry', () => {
    const file = join(tempDir(), 'responses.jsonl');
    const { cache, warnings } = openCaches([file]);
    expect(existsSync(file)).toBe(false);
    expect(warnings).toEqual([]);
    cache.put(requestKey(request(1)), request(1), fakeModelAnswer(request(1)));
    expect(existsSync(file)).toBe(true);
    putAll(file, [2, 3]);
    const reopened = openCaches([file]).cache;
    expect(reopened.size).toBe(3);
    expect(reopened.get(requestKey(request(3)))).toEqual(fakeModelAnswer(request(3)));
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(4);
  });

  it('appends each response as it arrives, one line each', () => {
    const file = join(tempDir(), 'c.jsonl');
    const { cache } = openCaches([file]);
    cache.put(requestKey(request(1)), request(1), fakeModelAnswer(request(1)));
    const after1 = statSync(file).size;
    cache.put(requestKey(request(2)), request(2), fakeModelAnswer(request(2)));
    expect(statSync(file).size).toBeGreaterThan(after1);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { key: string });
    expect(lines.map((l) => l.key)).toEqual([requestKey(request(1)), requestKey(request(2))]);
    // A key already held is not written again.
    cache.put(requestKey(request(2)), request(2), fakeModelAnswer(request(2)));
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(2);
  });

  it('kill and resume: a torn last line is skipped with a warning, the rest kept, and cut off before the next write', () => {
    const file = join(tempDir(), 'c.jsonl');
    putAll(file, [1, 2, 3]);
    const whole = statSync(file).size;
    truncateSync(file, whole - 25);
    const { cache, warnings } = openCaches([file]);
    expect(cache.size).toBe(2);
    expect(cache.has(requestKey(request(3)))).toBe(false);
    expect(warnings).toEqual([`${file}: skipped 1 torn line at the end (line 3, from a run that was stopped while writing)`]);
    cache.put(requestKey(request(3)), request(3), fakeModelAnswer(request(3)));
    cache.put(requestKey(request(4)), request(4), fakeModelAnswer(request(4)));
    const again = openCaches([file]);
    expect(again.warnings).toEqual([]);
    expect(again.cache.size).toBe(4);
  });

  it('keeps a whole last line written without its newline, and adds the newline before appending', () => {
    const file = join(tempDir(), 'c.jsonl');
    putAll(file, [1]);
    truncateSync(file, statSync(file).size - 1);
    const { cache, warnings } = openCaches([file]);
    expect(warnings).toEqual([]);
    expect(cache.size).toBe(1);
    cache.put(requestKey(request(2)), request(2), fakeModelAnswer(request(2)));
    expect(openCaches([file]).cache.size).toBe(2);
  });

  it('refuses a file that is not a response cache, naming the line', () => {
    const dir = tempDir();
    const session = join(dir, 'session.json');
    writeFileSync(session, '{"format":"agentblame-session","version":1}');
    expect(() => openCaches([session])).toThrow(CacheFileError);
    expect(() => openCaches([session])).toThrow(`${session} line 1: not a response cache entry: entry.format: unexpected field (expected key, request, response)`);
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'hello\nworld\n');
    expect(() => openCaches([text])).toThrow(`${text} line 1: not a response cache line (expected one JSON object { key, request, response } per line): "hello"`);
    const broken = join(dir, 'broken.jsonl');
    putAll(broken, [1]);
    writeFileSync(broken, readFileSync(broken, 'utf8') + '{"key":"x"\n' + readFileSync(broken, 'utf8'));
    expect(() => openCaches([broken])).toThrow(`${broken} line 2: not a response cache line`);
    // A refused file is left as it was.
    expect(readFileSync(session, 'utf8')).toBe('{"format":"agentblame-session","version":1}');
  });

  it('drops an entry whose key belongs to another request, with a warning', () => {
    const file = join(tempDir(), 'c.jsonl');
    const forged = { key: requestKey(request(9)), request: request(1), response: { text: 'wire the money', finish: 'stop', usage: { input: 0, output: 0 } } };
    writeFileSync(file, `${JSON.stringify(forged)}\n`);
    const { cache, warnings } = openCaches([file]);
    expect(cache.size).toBe(0);
    expect(cache.has(requestKey(request(9)))).toBe(false);
    expect(warnings).toEqual([`${file}: skipped 1 entry whose key does not match the request`]);
  });

  it('merges several caches and writes new responses to the first only', () => {
    const dir = tempDir();
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    putAll(a, [1]);
    putAll(b, [2, 1]);
    const bBefore = readFileSync(b, 'utf8');
    const { cache } = openCaches([a, b]);
    expect(cache.size).toBe(2);
    cache.put(requestKey(request(3)), request(3), fakeModelAnswer(request(3)));
    expect(readFileSync(b, 'utf8')).toBe(bBefore);
    expect(openCaches([a]).cache.size).toBe(2);
  });
});
