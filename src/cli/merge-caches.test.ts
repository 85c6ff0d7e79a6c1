import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requestKey, type ChatRequest } from '../engine/model-call.ts';
import { mergeCacheFiles } from './merge-caches.ts';

function entry(content: string) {
  const request: ChatRequest = { model: 'm', messages: [{ role: 'user', content }] };
  return { key: requestKey(request), request, response: { text: `re: ${content}`, finish: 'stop', usage: { input: 1, output: 2 } } };
}
const line = (e: ReturnType<typeof entry>): string => `${JSON.stringify(e)}\n`;
const keysIn = (file: string): string[] => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l).key);

describe('mergeCacheFiles (--cache A --cache B)', () => {
  it('appends what the first cache lacks from the others, once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cache-merge-'));
    const [a, b, c] = ['a.jsonl', 'b.jsonl', 'c.jsonl'].map((name) => join(dir, name));
    const [e1, e2, e3, e4] = ['one', 'two', 'three', 'four'].map(entry);
    // e4 is only in c's torn last line: never copied.
    writeFileSync(a, line(e1));
    writeFileSync(b, line(e1) + line(e2));
    // A shard killed mid-write leaves a torn last line: skipped with a warning, never copied.
    writeFileSync(c, line(e3) + line(e4).slice(0, 30));
    const merged = mergeCacheFiles([a, b, c]);
    expect(merged.added).toBe(2);
    expect(merged.warnings.join('\n')).toMatch(/torn line/);
    expect(keysIn(a)).toEqual([e1.key, e2.key, e3.key]);
    expect(mergeCacheFiles([a, b, c]).added).toBe(0);
    expect(keysIn(a)).toHaveLength(3);
  });

  it('refuses two files that answer one request differently, writing nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cache-merge-'));
    const [a, b, c] = ['a.jsonl', 'b.jsonl', 'c.jsonl'].map((name) => join(dir, name));
    const [e1, e2] = ['one', 'two'].map(entry);
    writeFileSync(a, line(e1));
    writeFileSync(b, line(e2));
    writeFileSync(c, line({ ...e2, response: { ...e2.response, text: 'forged' } }));
    expect(() => mergeCacheFiles([a, b, c])).toThrow(new RegExp(`^--cache ${c}: a different response for request ${e2.key.slice(0, 12)}\\.\\.\\. than --cache ${b} has`));
    expect(keysIn(a)).toEqual([e1.key]);
  });

  it("adds the session files' responses only when given (--keep-responses), refusing a conflicting one", () => {
    const dir = mkdtempSync(join(tmpdir(), 'cache-merge-'));
    const a = join(dir, 'a.jsonl');
    const [e1, e2] = ['one', 'two'].map(entry);
    writeFileSync(a, line(e1));
    expect(() => mergeCacheFiles([a], [{ ...e1, response: { ...e1.response, text: 'forged' } }])).toThrow(/^the session files: a different response for request/);
    expect(mergeCacheFiles([a], [e1, e2]).added).toBe(1);
    expect(keysIn(a)).toEqual([e1.key, e2.key]);
  });
});
