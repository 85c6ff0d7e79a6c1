import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { diffLines, diffTexts, diffTokens, diffWords, foldedSame, lineTokens, prefersLines, wordTokens, type DiffPart } from './text-diff.ts';

const before = (parts: DiffPart[]) => parts.filter((p) => p.op !== 'added').map((p) => p.text).join('');
const after = (parts: DiffPart[]) => parts.filter((p) => p.op !== 'removed').map((p) => p.text).join('');
/** Length of the longest common subsequence, by the textbook table: the shortest diff has n + m - 2 LCS edits. */
function lcs(a: string[], b: string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    let diag = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j];
      row[j] = x === b[j - 1] ? diag + 1 : Math.max(row[j], row[j - 1]);
      diag = up;
    }
  }
  return row[b.length];
}
const edits = (parts: DiffPart[], tokens: (s: string) => string[]) => parts.filter((p) => p.op !== 'same').reduce((n, p) => n + tokens(p.text).length, 0);

/** The parts of a text where one stretch was replaced: same, removed, added, same. */
const replaced = (before: string, removed: string, added: string, after: string): DiffPart[] => [
  { op: 'same', text: before },
  { op: 'removed', text: removed },
  { op: 'added', text: added },
  { op: 'same', text: after },
];

describe('text diff', () => {
  it('marks the one word that changed', () => {
    expect(diffWords('The final answer is 48.', 'The final answer is 42.')).toEqual(replaced('The final answer is ', '48', '42', '.'));
  });

  it('a rewritten sentence reads as one change, not as confetti around shared spaces and short words', () => {
    const parts = diffWords('The city museum is closed on Mondays and open Tuesday to Sunday.', 'The city museum is open every day of the week, Mondays included.');
    expect(parts).toEqual(replaced('The city museum is ', 'closed on Mondays and open Tuesday to Sunday', 'open every day of the week, Mondays included', '.'));
    // A long unchanged stretch between two small changes stays unchanged.
    expect(diffWords('one quick brown fox jumps two', 'uno quick brown fox jumps dos').map((p) => p.op)).toEqual(['removed', 'added', 'same', 'removed', 'added']);
  });

  it('finds the shortest edit: an insertion in the middle is one added part', () => {
    expect(diffWords('a b c', 'a b x c')).toEqual([
      { op: 'same', text: 'a b ' },
      { op: 'added', text: 'x ' },
      { op: 'same', text: 'c' },
    ]);
    expect(diffTokens(['a', 'b', 'c', 'a', 'b', 'b', 'a'], ['c', 'b', 'a', 'b', 'a', 'c']).filter((p) => p.op !== 'same').length).toBeGreaterThan(0);
    // Myers' paper's example: D = 5.
    const parts = diffTokens([...'abcabba'], [...'cbabac']);
    expect(edits(parts, (s) => [...s])).toBe(5);
  });

  it('diffs by lines, keeping line breaks', () => {
    expect(diffLines('{\n  "a": 1,\n  "b": 2\n}', '{\n  "a": 1,\n  "b": 3\n}')).toEqual(replaced('{\n  "a": 1,\n', '  "b": 2\n', '  "b": 3\n', '}'));
  });

  it('equal texts are one same part; empty sides are all added or all removed', () => {
    expect(diffWords('same text', 'same text')).toEqual([{ op: 'same', text: 'same text' }]);
    expect(diffWords('', 'new words')).toEqual([{ op: 'added', text: 'new words' }]);
    expect(diffWords('old words', '')).toEqual([{ op: 'removed', text: 'old words' }]);
    expect(diffWords('', '')).toEqual([]);
  });

  it('past the edit limit the middle is one removal and one addition, prefix and suffix kept', () => {
    const a = 'start ' + Array.from({ length: 50 }, (_, i) => `a${i}`).join(' ') + ' end';
    const b = 'start ' + Array.from({ length: 50 }, (_, i) => `b${i}`).join(' ') + ' end';
    const parts = diffWords(a, b, 10);
    expect(parts.map((p) => p.op)).toEqual(['same', 'removed', 'added', 'same']);
    expect(parts[0].text).toBe('start ');
    expect(parts[3].text).toBe(' end');
    expect(before(parts)).toBe(a);
    expect(after(parts)).toBe(b);
  });

  it('tokens join back to the text (words, unicode, lines)', () => {
    for (const s of ['héllo, wörld!  42\tx', 'a\nb\n', '\n\n', 'no break']) {
      expect(wordTokens(s).join('')).toBe(s);
      expect(lineTokens(s).join('')).toBe(s);
    }
  });

  it('picks lines for JSON and long texts, words for short prose', () => {
    expect(prefersLines('{"a":1}', '{"a":2}')).toBe(true);
    expect(prefersLines('one\ntwo\nthree\nfour\nfive', 'x')).toBe(true);
    expect(prefersLines('short answer', 'other answer')).toBe(false);
    expect(diffTexts('short answer', 'other answer').map((p) => p.op)).toEqual(['removed', 'added', 'same']);
  });

  it('any two texts: the parts give back both sides, and the diff is a shortest one (as the LCS table says)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' ', '\n', 'é') }), fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' ', '\n', 'é') }), (x, y) => {
        for (const parts of [diffWords(x, y), diffLines(x, y)]) {
          expect(before(parts)).toBe(x);
          expect(after(parts)).toBe(y);
          for (let i = 1; i < parts.length; i++) expect(parts[i].op).not.toBe(parts[i - 1].op);
        }
        const [a, b] = [[...x], [...y]];
        expect(edits(diffTokens(a, b), (s) => [...s])).toBe(a.length + b.length - 2 * lcs(a, b));
      }),
      { numRuns: 300 },
    );
  });
});

describe('unchanged stretches', () => {
  it('keep their first and last lines and count the rest', () => {
    const text = Array.from({ length: 20 }, (_, i) => `line ${i}\n`).join('');
    expect(foldedSame(text)).toEqual({ head: 'line 0\nline 1\nline 2\n', hidden: 14, tail: 'line 17\nline 18\nline 19\n' });
    expect(foldedSame('a\nb\nc\nd\ne\nf\ng\nh')).toBeNull();
  });
});
