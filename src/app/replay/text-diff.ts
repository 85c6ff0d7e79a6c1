/**
 * A small text diff for the factual/replayed view: the recorded text against the replayed one,
 * by words (prose answers) or by lines (JSON, code, long contexts). Myers' O(ND) algorithm over
 * tokens, after the common prefix and suffix are taken off; past `maxEdits` edits the middle is
 * shown as removed then added (a whole rewrite reads no better as a word-by-word diff, and the
 * work stays bounded on long texts).
 */

export type DiffOp = 'same' | 'removed' | 'added';

export interface DiffPart {
  op: DiffOp;
  text: string;
}

/** Most edits a diff searches for before it gives the middle as one removal and one addition. */
export const MAX_DIFF_EDITS = 1500;

/** Words, runs of spaces and single other characters, so joining the tokens gives the text back. */
export function wordTokens(text: string): string[] {
  return text.match(/[\p{L}\p{N}_]+|\s+|[^\p{L}\p{N}_\s]/gu) ?? [];
}

/** Lines with their line break, so joining the tokens gives the text back. */
export function lineTokens(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

export function diffWords(before: string, after: string, maxEdits = MAX_DIFF_EDITS): DiffPart[] {
  return readable(diffTokens(wordTokens(before), wordTokens(after), maxEdits));
}

export function diffLines(before: string, after: string, maxEdits = MAX_DIFF_EDITS): DiffPart[] {
  return readable(diffTokens(lineTokens(before), lineTokens(after), maxEdits));
}

/**
 * A shortest diff of two rewritten sentences keeps every space and short word they share, so the
 * change reads as confetti. As diff-match-patch's semantic clean-up does, an unchanged stretch
 * between two changes joins them (it is then shown removed and added) when it holds no letter or
 * digit, or is no longer than the changes on either side of it.
 */
export function readable(parts: readonly DiffPart[]): DiffPart[] {
  type Entry = { same: string } | { removed: string; added: string };
  const entries: Entry[] = [];
  for (const p of parts) {
    const last = entries[entries.length - 1];
    if (p.op === 'same') entries.push({ same: p.text });
    else if (last && !('same' in last)) last[p.op] += p.text;
    else entries.push(p.op === 'removed' ? { removed: p.text, added: '' } : { removed: '', added: p.text });
  }
  const size = (e: { removed: string; added: string }) => Math.max(e.removed.length, e.added.length);
  for (let i = 1; i + 1 < entries.length; i++) {
    const [before, middle, after] = [entries[i - 1], entries[i], entries[i + 1]];
    if ('same' in before || !('same' in middle) || 'same' in after) continue;
    const text = middle.same;
    if (/[\p{L}\p{N}]/u.test(text) && (text.length > size(before) || text.length > size(after))) continue;
    entries.splice(i - 1, 3, { removed: before.removed + text + after.removed, added: before.added + text + after.added });
    i = Math.max(0, i - 2);
  }
  const out: DiffPart[] = [];
  for (const e of entries) {
    if ('same' in e) out.push({ op: 'same', text: e.same });
    else {
      if (e.removed !== '') out.push({ op: 'removed', text: e.removed });
      if (e.added !== '') out.push({ op: 'added', text: e.added });
    }
  }
  return out;
}

/** The diff of two token lists, adjacent parts of one kind joined. */
export function diffTokens(a: readonly string[], b: readonly string[], maxEdits = MAX_DIFF_EDITS): DiffPart[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const out: DiffPart[] = [];
  const push = (op: DiffOp, text: string) => {
    if (text === '') return;
    const last = out[out.length - 1];
    if (last && last.op === op) last.text += text;
    else out.push({ op, text });
  };
  push('same', a.slice(0, head).join(''));
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const script = myers(midA, midB, maxEdits);
  if (script === null) {
    push('removed', midA.join(''));
    push('added', midB.join(''));
  } else {
    for (const [op, token] of script) push(op, token);
  }
  push('same', a.slice(a.length - tail).join(''));
  return out;
}

/**
 * The shortest edit script (Myers 1986), as (op, token) in order; null when it needs more than
 * `maxEdits` edits. Each round's furthest reaching points are kept (k from -d to d), so memory is
 * O(D²) in the edits, not in the texts' length.
 */
function myers(a: readonly string[], b: readonly string[], maxEdits: number): [DiffOp, string][] | null {
  const n = a.length;
  const m = b.length;
  if (n === 0) return b.map((t) => ['added', t]);
  if (m === 0) return a.map((t) => ['removed', t]);
  const limit = Math.min(maxEdits, n + m);
  // rounds[d][k + d]: furthest x on diagonal k after d edits.
  const rounds: Int32Array[] = [];
  let previous = new Int32Array(1);
  for (let d = 0; d <= limit; d++) {
    const v = new Int32Array(2 * d + 1);
    for (let k = -d; k <= d; k += 2) {
      let x: number;
      if (d === 0) x = 0;
      else if (k === -d || (k !== d && previous[k - 1 + d - 1] < previous[k + 1 + d - 1])) x = previous[k + 1 + d - 1];
      else x = previous[k - 1 + d - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) x++, y++;
      v[k + d] = x;
      if (x >= n && y >= m) {
        rounds.push(v);
        return backtrack(rounds, a, b);
      }
    }
    rounds.push(v);
    previous = v;
  }
  return null;
}

function backtrack(rounds: readonly Int32Array[], a: readonly string[], b: readonly string[]): [DiffOp, string][] {
  const script: [DiffOp, string][] = [];
  let x = a.length;
  let y = b.length;
  for (let d = rounds.length - 1; d > 0; d--) {
    const previous = rounds[d - 1];
    const k = x - y;
    const down = k === -d || (k !== d && previous[k - 1 + d - 1] < previous[k + 1 + d - 1]);
    const prevK = down ? k + 1 : k - 1;
    const prevX = previous[prevK + d - 1];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) script.push(['same', a[--x]]), y--;
    if (down) script.push(['added', b[--y]]);
    else script.push(['removed', a[--x]]);
  }
  while (x > 0 && y > 0) script.push(['same', a[--x]]), y--;
  return script.reverse();
}

/** Whether a text reads better diffed by lines: several lines, or JSON. */
export function prefersLines(before: string, after: string): boolean {
  const lines = (s: string) => s.split('\n').length;
  return lines(before) > 3 || lines(after) > 3 || /^\s*[[{]/.test(before) || /^\s*[[{]/.test(after);
}

/** The diff of two texts, by lines or words as suits them. */
export function diffTexts(before: string, after: string): DiffPart[] {
  return prefersLines(before, after) ? diffLines(before, after) : diffWords(before, after);
}

/**
 * An unchanged stretch shown short: its first and last `keep` lines with the count of the lines
 * between (null: short enough to show whole). Long requests repeat the whole conversation; only
 * what changed and the lines around it matter.
 */
export function foldedSame(text: string, keep = 3): { head: string; hidden: number; tail: string } | null {
  const lines = lineTokens(text);
  if (lines.length <= 2 * keep + 2) return null;
  return { head: lines.slice(0, keep).join(''), hidden: lines.length - 2 * keep, tail: lines.slice(lines.length - keep).join('') };
}
